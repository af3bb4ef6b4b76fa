import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { API_PREFIX, ERROR_CODES, INSIGHTS_PREFIX, SERVER_MESSAGES } from '@fleetdeck/contract';
import type { FastifyInstance } from 'fastify';
import { sendFailure } from './error-handler.js';

const API_PREFIXES = [`${API_PREFIX}/`, `${INSIGHTS_PREFIX}/`, '/healthz', '/readyz'];

/**
 * Serves the built SPA with history fallback: any GET that is not an API path and not a file gets
 * index.html, so deep links like /home/change-password/ work. API misses get the failure body.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  const built = fs.existsSync(indexFile);
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
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
