import {
  AdminNodesListSchema,
  AdminNodesQuerySchema,
  NodeIdQuerySchema,
  RegisterNodesBodySchema,
  RegisterNodesResponseSchema,
  SERVER_MESSAGES,
  SetNodeTagsBodySchema,
  SuccessBodySchema,
  UserNodeMappingBodySchema,
  UserNodeMappingResponseSchema,
  UserNodeMappingStatusSchema,
  UserNodesListSchema,
  UserNodesQuerySchema,
  type NodeConnectivityEvent,
} from '@fleetdeck/contract';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../../services/auth/auth.service.js';
import type { EventStreamRegistry } from '../../services/nodes/event-stream-registry.js';
import type { NodeEvents } from '../../services/nodes/node-events.js';
import type { NodeService } from '../../services/nodes/node.service.js';
import { accessTokenOf, authOf, requireAuth } from '../plugins/auth.plugin.js';
import { toNodeInfo } from '../presenters/node.presenter.js';

export interface NodeRoutesOptions {
  auth: AuthService;
  nodes: NodeService;
  events: NodeEvents;
  /** The open event streams per user (the cap of EVENT_STREAMS_PER_USER). */
  eventStreams: EventStreamRegistry;
}

const SSE_PING_MS = 25_000;
/**
 * How often an open event stream checks that its session still stands. The stream is authorised
 * once at the start and may stay open for hours: without the check, a sign-out, a password change,
 * a deleted account or a role without nodes.read went on receiving the fleet's events.
 */
export const SSE_SESSION_CHECK_MS = 5_000;
/**
 * The reconnection delay a stream closed for a newer one of the same user asks its EventSource
 * for. Without it a user with more tabs than EVENT_STREAMS_PER_USER would go round in a circle:
 * each closed tab back within the browser's default 3 s closes the next oldest, and each
 * reconnect reloads that tab's lists.
 */
export const SSE_EVICTED_RETRY_MS = 30_000;

/** Node registry, fleet lists, user nodes, user ↔ node mapping and the live event stream. */
export const nodeRoutes: FastifyPluginAsyncZod<NodeRoutesOptions> = async (
  app,
  { auth, nodes, events, eventStreams },
) => {
  // Open event streams end when the server closes, so shutdown never waits on a dashboard.
  const streams = new Set<{ end: () => void }>();
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
  });

  app.get(
    '/v1/admin/nodes',
    {
      preValidation: requireAuth(auth, 'nodes.read'),
      // The hot list route: the presenter builds the typed NodeInfo shape, so the answer is sent
      // with plain JSON.stringify instead of a second zod pass over every row (the schema stays
      // for validation of the query and for the OpenAPI document).
      serializerCompiler: () => (data) => JSON.stringify(data),
      schema: {
        tags: ['nodes'],
        summary:
          'Fleet list: keyset pages ordered by node_id with index-backed filters and exact totals',
        querystring: AdminNodesQuerySchema,
        response: { 200: AdminNodesListSchema },
      },
    },
    async (request) => {
      const withDocuments = request.query.node_details === 'true';
      const page = await nodes.listForAdmin(request.query);
      return {
        nodes: page.rows.map((row) => row.node_id),
        node_info: page.rows.map((row) => toNodeInfo(row, withDocuments)),
        total: page.total,
        ...(page.nextId ? { next_id: page.nextId } : {}),
      };
    },
  );

  app.post(
    '/v1/admin/node_ids',
    {
      preValidation: requireAuth(auth, 'nodes.write'),
      schema: {
        tags: ['nodes'],
        summary: "Register nodes; each node's MQTT credentials are returned only in this answer",
        body: RegisterNodesBodySchema,
        response: { 200: RegisterNodesResponseSchema },
      },
    },
    async (request) => {
      const registered = await nodes.register(request.body.nodes);
      return {
        status: 'success' as const,
        description: `Registered ${registered.length} node(s)`,
        nodes: registered,
      };
    },
  );

  app.put(
    '/v1/admin/nodes',
    {
      preValidation: requireAuth(auth, 'nodes.write'),
      schema: {
        tags: ['nodes'],
        summary: "Replace a node's tags (location first, then esp.serial_num)",
        querystring: NodeIdQuerySchema,
        body: SetNodeTagsBodySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await nodes.setTags(request.query.node_id, request.body.tags);
      return { status: 'success' as const, description: 'Node tags updated' };
    },
  );

  for (const path of ['/v1/user/nodes', '/v1/nodes']) {
    app.get(
      path,
      {
        preValidation: requireAuth(auth, 'user.self'),
        schema: {
          tags: ['nodes'],
          summary: 'The nodes the caller has claimed',
          querystring: UserNodesQuerySchema,
          response: { 200: UserNodesListSchema },
        },
      },
      async (request) => {
        const withDetails = request.query.node_details === 'true';
        const page = await nodes.listForUser(authOf(request).user.userId, request.query);
        // node_info as the spec's GET /nodes answers (fleet-management §7), the same NodeInfo as
        // the fleet list; node_details (with the documents) as RainMaker's user API has it.
        const info = page.rows.map((row) => toNodeInfo(row, withDetails));
        return {
          nodes: page.rows.map((row) => row.node_id),
          node_info: info,
          ...(withDetails ? { node_details: info } : {}),
          total: page.total,
          ...(page.nextId ? { next_id: page.nextId } : {}),
        };
      },
    );
  }

  app.put(
    '/v1/user/nodes/mapping',
    {
      preValidation: requireAuth(auth, 'user.self'),
      schema: {
        tags: ['nodes'],
        summary: 'Ask to map (or unmap) a node; the node confirms on user/mapping',
        body: UserNodeMappingBodySchema,
        response: { 200: UserNodeMappingResponseSchema },
      },
    },
    async (request) => {
      const { node_id, secret_key, operation } = request.body;
      const requestId = await nodes.requestMapping(
        authOf(request).user.userId,
        node_id,
        secret_key,
        operation,
      );
      return {
        status: 'success' as const,
        description: SERVER_MESSAGES.mappingRequestAccepted,
        request_id: requestId,
      };
    },
  );

  app.get(
    '/v1/user/nodes/mapping',
    {
      preValidation: requireAuth(auth, 'user.self'),
      schema: {
        tags: ['nodes'],
        summary: 'The state of a mapping request',
        querystring: z.object({ request_id: z.string().min(1).max(64) }),
        response: { 200: UserNodeMappingStatusSchema },
      },
    },
    async (request) => {
      const status = await nodes.mappingStatus(
        authOf(request).user.userId,
        request.query.request_id,
      );
      return { request_id: request.query.request_id, request_status: status };
    },
  );

  app.get(
    '/v1/events',
    {
      preValidation: requireAuth(auth, 'nodes.read'),
      schema: { tags: ['nodes'], summary: 'Server-sent events: node.connectivity and ota.job' },
    },
    (request, reply) => {
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write(': connected\n\n');
      const send = (event: NodeConnectivityEvent) => {
        res.write(`event: node.connectivity\ndata: ${JSON.stringify(event)}\n\n`);
      };
      const unsubscribeConnectivity = events.onConnectivity(send, 'fleet');
      const unsubscribeOta = events.onOtaJob((event) => {
        res.write(`event: ota.job\ndata: ${JSON.stringify(event)}\n\n`);
      }, 'fleet');
      const unsubscribe = () => {
        unsubscribeConnectivity();
        unsubscribeOta();
      };
      const ping = setInterval(() => res.write(': ping\n\n'), SSE_PING_MS);
      // Every way the stream ends comes here, once: the client going away, the server ending it
      // (expiry, session check, a newer stream of the user, shutdown).
      let closed = false;
      const cleanUp = () => {
        if (closed) return;
        closed = true;
        clearInterval(ping);
        clearInterval(sessionCheck);
        clearTimeout(expiry);
        unsubscribe();
        streams.delete(stream);
        release();
      };
      const stream = {
        end: () => {
          cleanUp();
          res.end();
        },
      };
      streams.add(stream);
      // The stream lives as long as its session: it ends when the access token expires (the
      // dashboard reconnects with a fresh one) and when a check finds the session gone.
      const { user, expiresAt } = authOf(request);
      const token = accessTokenOf(request) ?? '';
      const expiresInMs = expiresAt * 1000 - Date.now();
      const expiry = setTimeout(stream.end, Math.min(Math.max(0, expiresInMs), 2 ** 31 - 1));
      const sessionCheck = setInterval(() => {
        auth.authenticate(token).then(
          (context) => {
            if (!context?.user.permissions.includes('nodes.read')) stream.end();
          },
          () => stream.end(),
        );
      }, SSE_SESSION_CHECK_MS);
      // At most EVENT_STREAMS_PER_USER per user: this one pushes out the user's oldest, which is
      // told why and asked to wait before its EventSource reconnects (ADR 2).
      const release = eventStreams.open(user.userId, {
        evict: () => {
          res.write(`retry: ${SSE_EVICTED_RETRY_MS}\n: ${SERVER_MESSAGES.eventStreamReplaced}\n\n`);
          stream.end();
        },
      });
      request.raw.on('close', cleanUp);
      res.on('close', cleanUp);
      // A client that went away while the request was being authorised sends no close any more.
      if (!res.socket || res.socket.destroyed) cleanUp();
    },
  );
};
