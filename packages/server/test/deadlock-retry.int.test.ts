import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../src/db/schema.js';
import { createLogger } from '../src/logger.js';
import { readStatusCounters } from '../src/repositories/node.repository.js';
import { NodeEvents, type FleetActivity } from '../src/services/nodes/node-events.js';
import { NodeIngestService } from '../src/services/nodes/node-ingest.service.js';
import { registerNodes } from './helpers/end-users.js';
import { apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

/** PostgreSQL's count of deadlocks it detected in this (fresh) database. */
async function deadlocksDetected(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ deadlocks: number | string }>`
    select deadlocks from pg_stat_database where datname = current_database()`.execute(db);
  return Number(rows[0]?.deadlocks ?? 0);
}

/** The count once it reached `expected` (backends report on going idle, within a second). */
async function deadlocksReaching(db: Kysely<Database>, expected: number): Promise<number> {
  for (let waited = 0; waited < 5_000; waited += 100) {
    const count = await deadlocksDetected(db);
    if (count >= expected) return count;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return deadlocksDetected(db);
}

/**
 * A real deadlock with the transaction `start` begins. A second connection takes the row lock of
 * `first`; once another backend waits for it (the transaction under test, which holds a lock of
 * its own by then), it asks for `second`, which that transaction holds. Each side now waits for
 * the other. This connection waits 60 s before it looks for a deadlock, the other one the server
 * default (1 s), so PostgreSQL aborts the transaction under test with 40P01, hands `second` to
 * this connection, which then commits. What `start` returns is awaited after that.
 */
async function deadlockWith<T>(
  db: Kysely<Database>,
  first: string,
  second: string,
  start: () => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`begin`.execute(conn);
    await sql`set local deadlock_timeout = '60s'`.execute(conn);
    await sql.raw(first).execute(conn);
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(conn);
    const holder = rows[0]?.pid;
    const pending = start();
    // Caught now, awaited below: a rejection must not go unhandled while this side waits.
    const settled = pending.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    for (let waited = 0; ; waited += 10) {
      const blocked = await sql<{ n: number | string }>`
        select count(*) as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and pid <> ${holder}
      `.execute(db);
      if (Number(blocked.rows[0]?.n) > 0) break;
      if (waited > 10_000) throw new Error('the transaction under test never waited for the lock');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await sql.raw(second).execute(conn);
    await sql`commit`.execute(conn);
    const outcome = await settled;
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  });
}

// ADR 37: a write transaction that PostgreSQL aborts as a deadlock victim runs again. Each test
// provokes one real deadlock (pg_stat_database counts it) and shows the write succeeds anyway.
describe.skipIf(!process.env.TEST_DATABASE_URL)('deadlock retry on postgres', () => {
  let server: TestServer;
  let token: string;
  let db: Kysely<Database>;

  beforeAll(async () => {
    server = await createTestServer('postgres');
    db = server.database.db;
    token = (await apiLogin(server.app)).accesstoken;
    await registerNodes(server, token, ['DL-1']);
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers 200 to a custom-data update that PostgreSQL chose as a deadlock victim', async () => {
    const user = await db
      .selectFrom('users')
      .select('user_id')
      .where('super_admin', '=', 1)
      .executeTakeFirstOrThrow();
    const url = `/v1/admin/custom_data?user_id=${user.user_id}`;
    const put = (payload: object) =>
      server.app.inject({ method: 'PUT', url, headers: { authorization: token }, payload });
    expect((await put({ first: { value: 0 }, second: { value: 0 } })).statusCode).toBe(200);
    const row = (key: string) =>
      `update user_custom_data set updated_at = updated_at
         where user_id = '${user.user_id}' and data_key = '${key}'`;
    const before = await deadlocksDetected(db);

    // The request updates `first`, then waits for `second`; the other side then wants `first`.
    const response = await deadlockWith(db, row('second'), row('first'), () =>
      put({ first: { value: 1 }, second: { value: 2 } }),
    );

    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ first: { value: 1 }, second: { value: 2 } });
    expect(await deadlocksReaching(db, before + 1)).toBe(before + 1);
  }, 30_000);

  it('commits an ingest batch that PostgreSQL chose as a deadlock victim without failing it, telling its changes once', async () => {
    const logger = createLogger('silent');
    const errors = vi.spyOn(logger, 'error');
    const events = new NodeEvents();
    const connectivity: unknown[] = [];
    const activity: FleetActivity[] = [];
    events.onConnectivity((event) => connectivity.push(event));
    events.onActivity((event) => activity.push(event));
    const ingest = new NodeIngestService(db, server.services.nodes, events, logger, {
      flushIntervalMs: 60_000,
      durableDelayMs: 2,
    });
    const countersBefore = await readStatusCounters(db);
    const before = await deadlocksDetected(db);
    let durableAt = 0;
    let committedAt = 0;

    // The batch locks the node's row, then waits for the counter row the other side holds; the
    // other side then wants the node's row.
    await deadlockWith(
      db,
      `update node_counters set value = value where name = 'not_activated'`,
      `select 1 from nodes where node_id = 'DL-1' for update`,
      async () => {
        const at = Date.now();
        ingest.nodeConnected('DL-1', 1, at);
        ingest.nodeAlert('DL-1', { 'esp.alert.str': 'door open' }, at);
        // What a QoS 1 acknowledgement (and an otafetch answer) waits for.
        const durable = ingest.whenDurable().then(() => {
          durableAt = Date.now();
        });
        // The batch is written within durableDelayMs; the helper waits until it blocks.
        return { durable };
      },
    ).then(async ({ durable }) => {
      committedAt = Date.now();
      await durable;
    });

    // Retried at once in a new transaction: not failed, logged and put back for a second later.
    expect(errors).not.toHaveBeenCalled();
    expect(durableAt - committedAt).toBeLessThan(500);
    expect(await deadlocksReaching(db, before + 1)).toBe(before + 1);
    const node = await db
      .selectFrom('nodes')
      .select('connected')
      .where('node_id', '=', 'DL-1')
      .executeTakeFirstOrThrow();
    expect(node.connected).toBe(1);
    expect(connectivity).toHaveLength(1);
    expect(activity.filter((event) => event.kind === 'node_alert')).toHaveLength(1);
    const alerts = await db.selectFrom('node_alerts').select('alert_id').execute();
    expect(alerts).toHaveLength(1);
    const counters = await readStatusCounters(db);
    expect(counters['online'] ?? 0).toBe((countersBefore['online'] ?? 0) + 1);
    expect(counters['not_activated'] ?? 0).toBe((countersBefore['not_activated'] ?? 0) - 1);
  }, 30_000);
});
