import { API_PREFIX, INSIGHTS_PREFIX } from '@fleetdeck/contract';
import type { FastifyInstance } from 'fastify';

const API_PATHS = [`${API_PREFIX}/`, `${INSIGHTS_PREFIX}/`];

/**
 * `Cache-Control: no-store` on every API answer that sets no caching of its own. API answers hold
 * tokens (sign-in, refresh, the social sign-in's token call: RFC 6749 §5.1 requires no-store) or
 * one account's data, and without a header a browser's or a shared proxy's heuristic cache could
 * keep them after sign-out. Routes that choose their caching (a signed firmware download, the
 * public terms documents, the event stream) keep it.
 */
export function registerApiCacheControl(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control') && API_PATHS.some((p) => request.url.startsWith(p)))
      reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
