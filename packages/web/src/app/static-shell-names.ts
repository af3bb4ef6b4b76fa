/**
 * The static shells the build writes (dist/shells/<name>.html, ADR 35). The sign-in page has one
 * per deployment mode (a standard deployment shows the sign-up link, customer mode not); each
 * list screen whose first screen is the same for every user (the device fleet, groups, firmware
 * and fault images, OTA and fault jobs, the fault list and history) has the signed-in frame with
 * its heading. The build also writes
 * dist/shells/manifest.json, which the server follows (packages/server/src/http/web-app.ts).
 */
export const LOGIN_SHELLS = { standard: 'login', customer: 'login-customer' } as const;

/** The signed-in shells by the path they are for (lower case, as the server compares). */
export const SIGNED_IN_SHELLS = {
  '/home/nodes': 'devices',
  '/home/metricss': 'graphs',
  '/home/managedevice': 'manage-device',
  '/home/georegion': 'geo-region',
  '/home/productserial': 'product-serial',
  '/home/device-reports': 'device-reports',
  '/home/node-groups': 'node-groups',
  '/home/firmware-images': 'firmware-images',
  '/home/archived-firmware-images': 'archived-firmware-images',
  '/home/fault-images': 'fault-images',
  '/home/fault-archived-fault-images': 'fault-archived-fault-images',
  '/home/ota-jobs': 'ota-jobs',
  '/home/ota-archived-jobs': 'ota-archived-jobs',
  '/home/faultjobs': 'fault-jobs',
  '/home/fault-ota-archived-jobs': 'fault-archived-jobs',
  '/home/faultlist': 'fault-list',
  '/home/faulthistory': 'fault-history',
} as const;

/**
 * /home, for the roles that see the statistics dashboard there (the others are sent on to the
 * Devices list; the server reads the roles from the `user_role` marker cookie).
 */
export const DASHBOARD_SHELL = 'dashboard';

export type StaticShellName =
  | (typeof LOGIN_SHELLS)[keyof typeof LOGIN_SHELLS]
  | (typeof SIGNED_IN_SHELLS)[keyof typeof SIGNED_IN_SHELLS]
  | typeof DASHBOARD_SHELL;

/** What dist/shells/manifest.json holds: file names under dist/shells. */
export interface StaticShellManifest {
  login: Record<keyof typeof LOGIN_SHELLS, string>;
  signedIn: Record<string, string>;
  dashboard: string;
}

/** The attribute on the shell's wrapper inside #root that names it. */
export const STATIC_SHELL_ATTRIBUTE = 'data-static-shell';

/** Whether a shell is one of the sign-in page's. */
export function isLoginShell(name: string | null): boolean {
  return Object.values<string | null>(LOGIN_SHELLS).includes(name);
}

/**
 * Shown over a shell the app has not taken over after STALLED_SHELL_DELAY_S (its scripts did not
 * load, or scripting is off): the shell looks like the page but does not react, so it says so and
 * offers a reload. Pure HTML and CSS (scripts are what failed); the app's first render removes it.
 */
export const STALLED_SHELL_COPY = {
  title: 'Fleetdeck has not started',
  text: 'This page could not load its scripts. Check your connection and that JavaScript is allowed, then reload.',
  reload: 'Reload the page',
} as const;

export const STALLED_SHELL_DELAY_S = 15;

/** The class of the stalled-shell notice, which the shell's inline style reveals after the delay. */
export const STALLED_SHELL_CLASS = 'fd-shell-stalled';
