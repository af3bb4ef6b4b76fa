import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// From react-router/dom: that provider has ReactDOM.flushSync, which a navigation's `flushSync`
// option (the devices list's filters) needs.
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { createQueryClient } from './app/query-client';
import { createAppRouter } from './app/router';
import { installSessionHandling } from './app/session-wiring';
import { staticShellName, whenAppCanReplaceShell } from './app/static-shell';
import { isLoginShell } from './app/static-shell-names';
import { deploymentInfoQueryOptions } from './features/auth/api/deployment-info.query';
import {
  loadSchemasEarly,
  preloadPageAfterSignIn,
  probeSessionEarly,
  startSignedOutVisitorAtLogin,
} from './app/signed-out-start';

const container = document.getElementById('root');
if (!container) throw new Error('index.html must contain #root');

const turnedAwayFrom = startSignedOutVisitorAtLogin();
loadSchemasEarly();
const queryClient = createQueryClient();
const router = createAppRouter();
if (turnedAwayFrom !== null) preloadPageAfterSignIn(router, turnedAwayFrom);
installSessionHandling(router, queryClient);
const sessionProbe = probeSessionEarly(queryClient);

const app = (
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>
);
const root = createRoot(container);
// A static shell (ADR 35) stays on screen until the app can show the page itself; React's first
// commit then replaces it. Without one the app renders at once, as before.
const shell = staticShellName(container);
if (shell === null) {
  root.render(app);
} else {
  const deploymentInfo = isLoginShell(shell)
    ? queryClient.prefetchQuery(deploymentInfoQueryOptions())
    : null;
  void whenAppCanReplaceShell(router, [sessionProbe, deploymentInfo]).then(() => root.render(app));
}
