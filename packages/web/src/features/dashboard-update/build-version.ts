/** Set by Vite at build time (vite.config.ts): `<package version>+<build stamp>`. */
declare const __FLEETDECK_BUILD_VERSION__: string | undefined;

/** This tab's dashboard build; `dev` under the Vite dev server and in unit tests. */
export const BUILD_VERSION: string =
  typeof __FLEETDECK_BUILD_VERSION__ === 'string' ? __FLEETDECK_BUILD_VERSION__ : 'dev';
