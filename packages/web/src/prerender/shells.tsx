/**
 * The static shells (ADR 35): the first screen of a page load, rendered to HTML at build time by
 * the same components the app renders, so the browser paints it before any script has run. The
 * server picks one per request (packages/server/src/http/web-app.ts); the app replaces it with
 * the live page once that page's modules and its first data have arrived
 * (src/app/static-shell.ts). Built by `vite build --ssr` and run by scripts/prerender-shells.mjs.
 */
import { LABELS, type DeploymentInfo, type DeploymentMode } from '@fleetdeck/contract';
import { Alert, Anchor, MantineProvider, Skeleton, Stack, Text } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { DashboardFrame } from '../app/layout/dashboard-frame';
import { DASHBOARD_HOME_PATH } from '../app/layout/nav-items';
import {
  DASHBOARD_SHELL,
  LOGIN_SHELLS,
  SIGNED_IN_SHELLS,
  STALLED_SHELL_CLASS,
  STALLED_SHELL_COPY,
  STALLED_SHELL_DELAY_S,
  STATIC_SHELL_ATTRIBUTE,
  type StaticShellManifest,
  type StaticShellName,
} from '../app/static-shell-names';
import { cssVariablesResolver, theme } from '../app/theme';
import { authKeys } from '../features/auth/api/auth.keys';
import { LoginRoute } from '../features/auth/routes/login.route';
import { FAULT_LABELS } from '../features/faults/labels';
import { IMAGE_MODES } from '../features/firmware/model/image-modes';
import { GROUP_LABELS } from '../features/groups/labels';
import { NodeScreen } from '../features/nodes/components/node-screen';
import { NODE_LABELS } from '../features/nodes/labels';
import { JOB_MODES } from '../features/ota/model/job-mode';
import { StatsDashboardHeader } from '../features/stats/components/stats-dashboard';
import { LOGIN_PATH } from '../lib/paths';

export const SHELL_ATTRIBUTE = STATIC_SHELL_ATTRIBUTE;

/** The heading (and the line under it, where there is one) of each screen, as its route renders it. */
const SIGNED_IN_TITLES: Record<
  keyof typeof SIGNED_IN_SHELLS,
  { title: string; subtitle?: string }
> = {
  '/home/nodes': { title: LABELS.navDevices },
  '/home/metricss': { title: NODE_LABELS.graphsHeading },
  '/home/managedevice': { title: NODE_LABELS.devicesHeading },
  '/home/georegion': { title: NODE_LABELS.geoRegionHeading },
  '/home/productserial': { title: NODE_LABELS.productSerialHeading },
  '/home/device-reports': { title: NODE_LABELS.deviceReportsHeading },
  '/home/node-groups': { title: GROUP_LABELS.heading },
  '/home/firmware-images': { title: IMAGE_MODES.firmware.heading },
  '/home/archived-firmware-images': { title: IMAGE_MODES.firmware.archivedHeading },
  '/home/fault-images': { title: IMAGE_MODES.fault.heading },
  '/home/fault-archived-fault-images': { title: IMAGE_MODES.fault.archivedHeading },
  '/home/ota-jobs': { title: JOB_MODES.fleet.heading },
  '/home/ota-archived-jobs': { title: JOB_MODES.fleet.archivedHeading },
  '/home/faultjobs': { title: JOB_MODES.fault.heading },
  '/home/fault-ota-archived-jobs': { title: JOB_MODES.fault.archivedHeading },
  '/home/faultlist': {
    title: FAULT_LABELS.faultListHeading,
    subtitle: FAULT_LABELS.faultListSubtitle,
  },
  '/home/faulthistory': {
    title: FAULT_LABELS.faultHistoryHeading,
    subtitle: FAULT_LABELS.faultHistorySubtitle,
  },
};

const noop = () => undefined;

function render(path: string, page: ReactNode, queryClient = new QueryClient()): string {
  return renderToString(
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
      forceColorScheme="light"
    >
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
    diagnostics_links: true,
    version: '',
  };
  queryClient.setQueryData(authKeys.deploymentInfo(), info);
  return render(LOGIN_PATH, <LoginRoute />, queryClient);
}

/**
 * A signed-in page before the app has started: the frame without a user (no account menu, no
 * sidebar entries; they come with the app) around the page's first screen.
 */
function renderFrame(path: string, page: ReactNode): string {
  return render(
    path,
    <DashboardFrame
      user={null}
      navOpened={false}
      onToggleNav={noop}
      onCloseNav={noop}
      loading={false}
    >
      {page}
    </DashboardFrame>,
  );
}

/** Where a page's list, cards or form will be. */
const PLACEHOLDER = <Skeleton height={480} radius="md" aria-hidden="true" />;

/** A list screen: its heading and a placeholder where its list goes. */
function renderSignedIn(path: keyof typeof SIGNED_IN_SHELLS): string {
  const { title, subtitle } = SIGNED_IN_TITLES[path];
  return renderFrame(
    path,
    <NodeScreen title={title} subtitle={subtitle}>
      {PLACEHOLDER}
    </NodeScreen>,
  );
}

/** /home for the dashboard roles: the dashboard's header and a placeholder for its cards. */
function renderDashboard(): string {
  return renderFrame(
    DASHBOARD_HOME_PATH,
    <Stack gap="lg">
      <StatsDashboardHeader onRefresh={noop} refreshing={false} />
      {PLACEHOLDER}
    </Stack>,
  );
}

/**
 * The notice for a shell that was never taken over (STALLED_SHELL_COPY), outside the inert shell
 * so that its link works, and the style that reveals it after the delay (at once without
 * scripting). `href=""` reloads the page without a script.
 */
export function renderStalledNotice(): { markup: string; head: string } {
  const markup = render(
    '/',
    <div className={STALLED_SHELL_CLASS}>
      <Alert color="yellow" variant="light" title={STALLED_SHELL_COPY.title} maw={480} mx="md">
        <Text size="sm">{STALLED_SHELL_COPY.text}</Text>
        <Anchor href="" size="sm" fw={600} display="inline-block" mt={6}>
          {STALLED_SHELL_COPY.reload}
        </Anchor>
      </Alert>
    </div>,
  );
  const notice = `.${STALLED_SHELL_CLASS}`;
  const style =
    `${notice}{position:fixed;left:0;right:0;bottom:24px;display:flex;justify-content:center;` +
    `z-index:1000;visibility:hidden;animation:fd-shell-stalled 0s linear ${STALLED_SHELL_DELAY_S}s forwards}` +
    '@keyframes fd-shell-stalled{to{visibility:visible}}';
  const head =
    `<style>${style}</style>\n` +
    `  <noscript><style>${notice}{visibility:visible;animation:none}</style></noscript>`;
  return { markup, head };
}

/** Each shell's markup (to go inside the page's `#root`) and the manifest the server reads. */
export function renderShells(): {
  shells: Record<StaticShellName, string>;
  manifest: StaticShellManifest;
} {
  const shells = {} as Record<StaticShellName, string>;
  const manifest: StaticShellManifest = {
    login: { standard: `${LOGIN_SHELLS.standard}.html`, customer: `${LOGIN_SHELLS.customer}.html` },
    signedIn: {},
    dashboard: `${DASHBOARD_SHELL}.html`,
  };
  shells[DASHBOARD_SHELL] = renderDashboard();
  for (const mode of ['standard', 'customer'] as const) {
    shells[LOGIN_SHELLS[mode]] = renderLogin(mode);
  }
  for (const [path, name] of Object.entries(SIGNED_IN_SHELLS)) {
    shells[name] = renderSignedIn(path as keyof typeof SIGNED_IN_SHELLS);
    manifest.signedIn[path] = `${name}.html`;
  }
  return { shells, manifest };
}
