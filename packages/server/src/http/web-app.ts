import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import {
  API_PREFIX,
  ERROR_CODES,
  INSIGHTS_PREFIX,
  MARKER_COOKIES,
  SERVER_MESSAGES,
  type DeploymentMode,
} from '@fleetdeck/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendFailure } from './error-handler.js';

const API_PREFIXES = [`${API_PREFIX}/`, `${INSIGHTS_PREFIX}/`, '/healthz', '/readyz'];

/**
 * The static shells the dashboard build writes (dist/shells/<name>.html, ADR 35): the page's
 * first screen already in the HTML, painted before any script runs. Kept in step with
 * packages/web/src/app/static-shell-names.ts.
 */
const STATIC_SHELLS = {
  login: 'shells/login.html',
  'login-customer': 'shells/login-customer.html',
  devices: 'shells/devices.html',
} as const;
type StaticShell = keyof typeof STATIC_SHELLS;

const LOGIN_PATHS = new Set(['/', '/login']);
const DEVICES_PATH = '/home/nodes';

/** The request's path as the dashboard's router matches it: case-insensitive, no trailing slash. */
function routePath(url: string): string {
  const pathname = url.split(/[?#]/, 1)[0] ?? '/';
  const trimmed = pathname.replace(/\/+$/, '');
  return (trimmed === '' ? '/' : trimmed).toLowerCase();
}

/**
 * Which shell a page request gets. The readable marker cookies (set at sign-in, cleared at
 * sign-out) tell whether this browser holds a session: without them the app starts every
 * signed-in path at the sign-in page (packages/web/src/app/signed-out-start.ts), so that is the
 * shell (customer mode's has no sign-up link); with them /home/nodes gets the dashboard frame with
 * its heading. Any other page gets the bare index.html. A wrong guess costs nothing but the
 * shell: the app replaces it either way.
 */
export function staticShellFor(
  url: string,
  cookies: Record<string, string | undefined>,
  deploymentMode: DeploymentMode,
): StaticShell | null {
  const route = routePath(url);
  const signedIn = Boolean(cookies[MARKER_COOKIES.userName]);
  if (!signedIn) {
    return LOGIN_PATHS.has(route) || route === '/home' || route.startsWith('/home/')
      ? deploymentMode === 'customer'
        ? 'login-customer'
        : 'login'
      : null;
  }
  return route === DEVICES_PATH ? 'devices' : null;
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
  // An older build, or one made without the shells, serves index.html everywhere.
  const shells = new Set(
    (Object.keys(STATIC_SHELLS) as StaticShell[]).filter((name) =>
      fs.existsSync(path.join(distDir, STATIC_SHELLS[name])),
    ),
  );
  const documentFor = (request: FastifyRequest): string => {
    const shell = staticShellFor(request.url, request.cookies, deploymentMode);
    return shell !== null && shells.has(shell) ? STATIC_SHELLS[shell] : 'index.html';
  };
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      wildcard: false,
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
