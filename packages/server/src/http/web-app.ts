import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import {
  API_PREFIX,
  ERROR_CODES,
  INSIGHTS_PREFIX,
  MARKER_COOKIES,
  SERVER_MESSAGES,
  canSeeDashboard,
  isRole,
  type DeploymentMode,
} from '@fleetdeck/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendFailure } from './error-handler.js';

const API_PREFIXES = [`${API_PREFIX}/`, `${INSIGHTS_PREFIX}/`, '/healthz', '/readyz'];
/**
 * The build's hashed files. A miss there is a file of another build (a page opened before a
 * release asking for its old chunks): a 404, never the page, which a browser would refuse as a
 * script and leave the static shell standing.
 */
const ASSETS_PREFIX = '/assets/';

/**
 * dist/shells/manifest.json as the dashboard build writes it (ADR 35,
 * packages/web/scripts/prerender-shells.mjs): the sign-in shell per deployment mode and the
 * signed-in shells by path (lower case), each a file name under dist/shells.
 */
export interface StaticShellManifest {
  login: Record<DeploymentMode, string>;
  signedIn: Record<string, string>;
  /** /home for the roles that see the statistics dashboard there. */
  dashboard: string;
}

const SHELL_DIR = 'shells';
const SHELL_FILE = /^[a-z0-9-]+\.html$/;
const LOGIN_PATHS = new Set(['/', '/login']);
const HOME_ROUTE = '/home';

/**
 * Reads the build's shell manifest. An older build, one made without the shells, or a manifest
 * naming a file that is not there gives null (every page then gets index.html).
 */
export function readShellManifest(distDir: string): StaticShellManifest | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(path.join(distDir, SHELL_DIR, 'manifest.json'), 'utf8'));
  } catch {
    return null;
  }
  const manifest = parsed as Partial<StaticShellManifest> | null;
  const files = [
    manifest?.dashboard,
    manifest?.login?.standard,
    manifest?.login?.customer,
    ...Object.values(manifest?.signedIn ?? {}),
  ];
  const usable = files.every(
    (file) =>
      typeof file === 'string' &&
      SHELL_FILE.test(file) &&
      fs.existsSync(path.join(distDir, SHELL_DIR, file)),
  );
  return usable ? (manifest as StaticShellManifest) : null;
}

/**
 * The shell manifest as the build left it: read again when manifest.json changed on disk (a build
 * made while the server runs), otherwise the copy from the last read.
 */
export function currentShellManifest(distDir: string): () => StaticShellManifest | null {
  const file = path.join(distDir, SHELL_DIR, 'manifest.json');
  let seen: string | null = null;
  let manifest: StaticShellManifest | null = null;
  return () => {
    let stamp: string;
    try {
      const stat = fs.statSync(file);
      stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    } catch {
      stamp = 'missing';
    }
    if (stamp !== seen) {
      seen = stamp;
      manifest = readShellManifest(distDir);
    }
    return manifest;
  };
}

/** The request's path as the dashboard's router matches it: case-insensitive, no trailing slash. */
function routePath(url: string): string {
  const pathname = url.split(/[?#]/, 1)[0] ?? '/';
  const trimmed = pathname.replace(/\/+$/, '');
  return (trimmed === '' ? '/' : trimmed).toLowerCase();
}

/**
 * Which shell a page request gets (a path under the dist directory), or null for index.html. The
 * readable marker cookies (set at sign-in, cleared at sign-out) tell whether this browser holds a
 * session: without them the app starts every signed-in path at the sign-in page
 * (packages/web/src/app/signed-out-start.ts), so that is the shell (customer mode's has no
 * sign-up link); with them each device-fleet screen gets the dashboard frame with its heading,
 * and /home the statistics dashboard's frame when the `user_role` marker names a role that sees it.
 * A wrong guess costs nothing but the shell: the app replaces it either way.
 */
export function staticShellFor(
  url: string,
  cookies: Record<string, string | undefined>,
  deploymentMode: DeploymentMode,
  manifest: StaticShellManifest,
): string | null {
  const route = routePath(url);
  const signedIn = Boolean(cookies[MARKER_COOKIES.userName]);
  let file: string | undefined;
  if (!signedIn) {
    if (LOGIN_PATHS.has(route) || route === HOME_ROUTE || route.startsWith(`${HOME_ROUTE}/`))
      file = manifest.login[deploymentMode];
  } else if (route === HOME_ROUTE) {
    // The others are sent on from /home to the Devices list: no shell would match their page.
    const roles = (cookies[MARKER_COOKIES.userRole] ?? '').split(',').filter(isRole);
    if (canSeeDashboard(roles)) file = manifest.dashboard;
  } else if (Object.hasOwn(manifest.signedIn, route)) {
    file = manifest.signedIn[route];
  }
  return file === undefined ? null : `${SHELL_DIR}/${file}`;
}

/**
 * Serves the built SPA with history fallback: any GET that is not an API path and not a file gets
 * index.html, so deep links like /home/change-password/ work. API misses get the failure body.
 */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
  deploymentMode: DeploymentMode,
): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  const built = fs.existsSync(indexFile);
  const shells = currentShellManifest(distDir);
  const documentFor = (request: FastifyRequest): string => {
    const manifest = shells();
    return (
      (manifest && staticShellFor(request.url, request.cookies, deploymentMode, manifest)) ??
      'index.html'
    );
  };
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      // Looked up on disk per request, not listed once at start: `npm run build` while the server
      // runs replaces the hashed files, and the new pages ask for the new ones.
      wildcard: true,
      // A directory (`/`, `/assets/`) is not a file: the not-found handler answers with the page.
      allowedPath: (pathname) => !pathname.endsWith('/'),
      // The build writes .br and .gz copies (packages/web/scripts/precompress.mjs): sent when the
      // browser accepts them, with Vary: Accept-Encoding; otherwise the file itself.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const isApi = API_PREFIXES.some((prefix) => request.url.startsWith(prefix));
    if (isApi || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return sendFailure(reply, 404, SERVER_MESSAGES.routeNotFound, ERROR_CODES.notFound);
    }
    if (request.url.startsWith(ASSETS_PREFIX)) {
      return reply
        .code(404)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('Not found: this file is not part of the running build. Reload the page.');
    }
    if (!built) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(
          'The Fleetdeck dashboard is not built. Run `npm run build` (or `npm start`, which builds it).',
        );
    }
    // The document depends on the session markers; a cache must not give one browser's to another.
    return reply
      .header('cache-control', 'no-cache')
      .header('vary', 'Cookie')
      .sendFile(documentFor(request));
  });
}
