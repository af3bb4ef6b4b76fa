/**
 * The static shells (ADR 35): the first screen of a page load, rendered to HTML at build time by
 * the same components the app renders, so the browser paints it before any script has run. The
 * server picks one per request (packages/server/src/http/web-app.ts); the app replaces it with
 * the live page once that page's modules and, when signed in, the session have arrived
 * (src/app/static-shell.ts). Built by `vite build --ssr` and run by scripts/prerender-shells.mjs.
 */
import { LABELS, type DeploymentInfo, type DeploymentMode } from '@fleetdeck/contract';
import { MantineProvider, Skeleton } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { DashboardFrame } from '../app/layout/dashboard-frame';
import { theme } from '../app/theme';
import { authKeys } from '../features/auth/api/auth.keys';
import { LoginRoute } from '../features/auth/routes/login.route';
import { NodeScreen } from '../features/nodes/components/node-screen';
import { DEVICES_PATH, LOGIN_PATH } from '../lib/paths';
import { STATIC_SHELL_ATTRIBUTE, type StaticShellName } from '../app/static-shell-names';

export const SHELL_ATTRIBUTE = STATIC_SHELL_ATTRIBUTE;

const noop = () => undefined;

function render(path: string, page: ReactNode, queryClient = new QueryClient()): string {
  return renderToString(
    <MantineProvider theme={theme} defaultColorScheme="light" forceColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>{page}</MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

/**
 * The sign-in page as the app first shows it once the deployment's facts have arrived (the app
 * waits for them before it replaces this shell): with the sign-up link in a standard deployment,
 * without it in customer mode. Social sign-in buttons, when configured, come with the app.
 */
function renderLogin(mode: DeploymentMode): string {
  const queryClient = new QueryClient();
  const info: DeploymentInfo = {
    deployment_mode: mode,
    sign_up_enabled: mode === 'standard',
    social_providers: [],
    version: '',
  };
  queryClient.setQueryData(authKeys.deploymentInfo(), info);
  return render(LOGIN_PATH, <LoginRoute />, queryClient);
}

/** Each shell's markup, to go inside the page's `#root`. */
export function renderShells(): Record<StaticShellName, string> {
  return {
    login: renderLogin('standard'),
    'login-customer': renderLogin('customer'),
    // The signed-in frame with the Devices heading and a placeholder where the list goes; the
    // account menu, the sidebar's entries and the list come with the app.
    devices: render(
      DEVICES_PATH,
      <DashboardFrame
        user={null}
        navOpened={false}
        onToggleNav={noop}
        onCloseNav={noop}
        loading={false}
      >
        <NodeScreen title={LABELS.navDevices}>
          <Skeleton height={480} radius="md" aria-hidden="true" />
        </NodeScreen>
      </DashboardFrame>,
    ),
  };
}
