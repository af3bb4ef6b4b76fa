import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// From react-router/dom: that provider has ReactDOM.flushSync, which a navigation's `flushSync`
// option (the devices list's filters) needs.
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { createQueryClient } from './app/query-client';
import { createAppRouter } from './app/router';
import { installSessionHandling } from './app/session-wiring';
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
probeSessionEarly(queryClient);

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
