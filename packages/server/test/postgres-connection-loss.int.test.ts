import { ERROR_CODES, SERVER_MESSAGES } from '@fleetdeck/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/logger.js';
import { NodeEvents } from '../src/services/nodes/node-events.js';
import { NodeIngestService } from '../src/services/nodes/node-ingest.service.js';
import { registerNodes } from './helpers/end-users.js';
import {
  apiLogin,
  createTestDatabase,
  createTestServer,
  type TestServer,
} from './helpers/test-server.js';
import { Relay } from './helpers/tcp-relay.js';

/**
 * PostgreSQL ends the server's connections: a restart or failover, a proxy or firewall cutting
 * idle connections, an administrator's pg_terminate_backend. The idle connections of the pool
 * then fail with nobody waiting on them; the server must carry on (node-postgres ends the process
 * on a pool `error` event nobody listens to), answer 503 while the database cannot be reached,
 * and serve again as soon as it can.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL connections lost', () => {
  let server: TestServer;
  let token: string;
  let admin: pg.Client;
  let name: string;

  const terminate = async () => {
    const { rows } = await admin.query<{ ended: number }>(
      `select count(pg_terminate_backend(pid))::int as ended from pg_stat_activity
        where datname = $1 and pid <> pg_backend_pid()`,
      [name],
    );
    return rows[0]?.ended ?? 0;
  };
  const listNodes = () =>
    server.app.inject({
      method: 'GET',
      url: '/v1/admin/nodes',
      headers: { authorization: token },
    });

  let relay: Relay;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    // The server reaches its database through the relay; the test's own client goes direct.
    const database = await createTestDatabase('postgres');
    cleanup = database.cleanup;
    const direct = new URL(database.env.DATABASE_URL!);
    name = direct.pathname.slice(1);
    relay = new Relay({ host: direct.hostname, port: Number(direct.port || 5432) });
    await relay.open();
    const relayed = new URL(direct);
    relayed.host = `127.0.0.1:${relay.port}`;
    server = await createTestServer('postgres', {
      env: { DATABASE_URL: relayed.toString(), DATA_DIR: database.env.DATA_DIR! },
    });
    token = (await apiLogin(server.app)).accesstoken;
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await server?.close();
    await relay?.close();
    await cleanup?.();
  });

  it('carries on when its idle connections are ended, and serves with new ones', async () => {
    expect((await listNodes()).statusCode).toBe(200);
    expect(await terminate()).toBeGreaterThan(0);
    // The idle connections hear of it now; a process that ended on it fails this test.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await listNodes();
    expect(after.statusCode, after.body).toBe(200);
  });

  it('carries on when the network to the database drops every connection', async () => {
    expect((await listNodes()).statusCode).toBe(200);
    relay.cut();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await listNodes();
    expect(after.statusCode, after.body).toBe(200);
  });

  it('answers 503 while the database cannot be reached, and 200 once it can again', async () => {
    await relay.close();
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const refused = await listNodes();
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.json()).toEqual({
        status: 'failure',
        description: SERVER_MESSAGES.storageFailed,
        error_code: ERROR_CODES.storageFailed,
      });
    } finally {
      await relay.open();
    }
    const back = await listNodes();
    expect(back.statusCode, back.body).toBe(200);
  });

  it('holds device messages while the database is away, retrying at a growing interval, and writes them all when it is back', async () => {
    const nodeIds = Array.from({ length: 12 }, (_, index) => `PCL-${index}`);
    await registerNodes(server, token, nodeIds);
    const logger = createLogger('silent');
    const errors = vi.spyOn(logger, 'error');
    const failures = () =>
      errors.mock.calls.filter((call) => call[1] === 'node ingest batch failed; retrying').length;
    // A small batch size: past it every message asks for a write, as a busy fleet's do.
    const ingest = new NodeIngestService(
      server.database.db,
      server.services.nodes,
      new NodeEvents(),
      logger,
      {
        flushIntervalMs: 20,
        durableDelayMs: 2,
        maxPendingNodes: 4,
      },
    );

    await relay.close();
    let durable: Promise<void> | undefined;
    try {
      // Two seconds of connects from the twelve nodes, one every 5 ms.
      const started = Date.now();
      for (let index = 0; Date.now() - started < 2_000; index += 1) {
        ingest.nodeConnected(
          nodeIds[index % nodeIds.length]!,
          1 + Math.floor(index / 12),
          Date.now(),
        );
        durable ??= ingest.whenDurable();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      // Attempts at about 0, 0.25, 0.75 and 1.75 s: a handful, not one per message.
      expect(failures()).toBeGreaterThanOrEqual(2);
      expect(failures()).toBeLessThanOrEqual(5);
    } finally {
      await relay.open();
    }
    const back = Date.now();
    await durable;
    // The next retry comes within the longest wait (5 s) once the database is back.
    expect(Date.now() - back).toBeLessThan(6_000);
    await ingest.flush();
    const rows = await server.database.db
      .selectFrom('nodes')
      .select(['node_id', 'connected'])
      .where('node_id', 'in', nodeIds)
      .execute();
    expect(rows).toHaveLength(nodeIds.length);
    expect(rows.every((row) => row.connected === 1)).toBe(true);
  }, 30_000);
});
