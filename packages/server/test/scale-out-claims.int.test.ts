import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAloneForJob } from '../src/db/dialect.js';
import { confirmOpenRequest, findOpenRequest } from '../src/repositories/mapping.repository.js';
import { createLogger } from '../src/logger.js';
import type { FleetActivity } from '../src/services/nodes/node-events.js';
import { RolloutEngine } from '../src/services/ota/rollout-engine.js';
import { CapturingGateway } from './helpers/capturing-gateway.js';
import { caller, createEndUser, registerNodes } from './helpers/end-users.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

// N instances on one database all hear a node's connect, each resumes the active force pushes
// when it starts, and a basic-ingest message reaches every one of them (multi-instance audit,
// items 5 and 9). What each does once must still happen once in all (ADR 7, amendment 2).

/** Node ids offered job `jobId` through any of the gateways, sorted (one entry per offer). */
const offersOf = (gateways: CapturingGateway[], jobId: string): string[] =>
  gateways.flatMap((g) => g.offersOf(jobId)).sort();

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe.each(DIALECTS)('two instances on one %s database', (dialect) => {
  let first: TestServer;
  let second: TestServer;
  let token: string;
  let imageId: string;
  const engines: RolloutEngine[] = [];

  /**
   * A rollout engine of `server`'s instance that publishes through a gateway of its own. SQLite
   * serves one instance; in one process its synchronous driver would block the event loop while
   * another handle holds the write lock, so there both engines share the first handle.
   */
  const engineOf = (server: TestServer) => {
    const engine = new RolloutEngine(
      (dialect === 'sqlite' ? first : server).database.db,
      server.services.images,
      server.services.nodeEvents,
      createLogger('silent'),
    );
    engines.push(engine);
    return { engine, gateway: new CapturingGateway() };
  };

  const createJob = async (nodes: string[], forcePush: boolean): Promise<string> => {
    const response = await caller(first)(
      'POST',
      `/v1/admin/otajob${forcePush ? '?force_push=true' : ''}`,
      token,
      { ota_job_name: `job for ${nodes[0] ?? ''}`, ota_image_id: imageId, nodes },
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ ota_job_id: string }>().ota_job_id;
  };

  const executions = (jobId: string) =>
    first.database.db
      .selectFrom('ota_executions')
      .select(['node_id', 'status', 'offer_count'])
      .where('ota_job_id', '=', jobId)
      .orderBy('node_id')
      .execute();

  beforeAll(async () => {
    first = await createTestServer(dialect);
    second = await createTestServer(dialect, { sameDatabaseAs: first });
    token = (await apiLogin(first.app)).accesstoken;
    const image = await caller(first)('POST', '/v1/admin/otaimage', token, {
      image_name: 'air conditioner 2.0',
      type: 'Air Conditioner',
      model: 'FD-AC',
      fw_version: '2.0.0',
      base64_fwimage: Buffer.from('firmware 2.0.0').toString('base64'),
    });
    expect(image.statusCode, image.body).toBe(200);
    imageId = image.json<{ ota_image_id: string }>().ota_image_id;
    // The instances' own engines stay without a gateway: each test runs engines of its own.
  });
  afterAll(async () => {
    await Promise.all(engines.map((engine) => engine.stop()));
    await second.services.rollout.stop();
    await first.services.rollout.stop();
    await second.services.ingest.flush();
    await first.services.ingest.flush();
    await second.close();
    await first.close();
  });

  it('offers a node once when both instances hear its connect, once per question and again at its next connect', async () => {
    await registerNodes(first, token, ['MICONN1']);
    const jobId = await createJob(['MICONN1'], false);
    const a = engineOf(first);
    const b = engineOf(second);
    await Promise.all([a.engine.attachGateway(a.gateway), b.engine.attachGateway(b.gateway)]);
    const gateways = [a.gateway, b.gateway];
    const connect = (at: number) => {
      for (const server of [first, second])
        server.services.nodeEvents.emitConnectivity({
          type: 'node.connectivity',
          node_id: 'MICONN1',
          connected: true,
          timestamp: at,
        });
    };

    connect(Date.now());
    await until(() => offersOf(gateways, jobId).length > 0, 'the offer at connect');
    await settle();
    expect(offersOf(gateways, jobId)).toEqual(['MICONN1']);

    // The node asks (otafetch) after that offer; both instances receive the question.
    const askedAt = Date.now();
    await Promise.all(
      [a, b].map(({ engine }) => engine.otaFetch('MICONN1', { node_id: 'MICONN1' }, askedAt)),
    );
    expect(offersOf(gateways, jobId)).toHaveLength(2);

    // A later connect is a new occasion, however soon: the node may have missed the offers. It
    // arrives a few ms on (offers are stamped in ms: one made in the arrival's own ms counts as
    // its answer, and an arrival stamped ahead of the clock would let both instances offer).
    await new Promise((resolve) => setTimeout(resolve, 3));
    connect(Date.now());
    await until(() => offersOf(gateways, jobId).length > 2, 'the offer at the next connect');
    await settle();
    expect(offersOf(gateways, jobId)).toHaveLength(3);
    const [execution] = await executions(jobId);
    expect(execution).toMatchObject({ status: 'triggered' });
    expect(Number(execution?.offer_count)).toBe(3);
  });

  it('dispatches a force push both instances resume at start to each online target once', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `MIPUSH${String(i).padStart(2, '0')}`);
    await registerNodes(first, token, ids);
    for (const id of ids) first.services.ingest.nodeConnected(id, 1, Date.now());
    await first.services.ingest.flush();
    // Created while no instance has a broker connection: both resume it when they attach one.
    const jobId = await createJob(ids, true);
    const a = engineOf(first);
    const b = engineOf(second);
    await Promise.all([a.engine.attachGateway(a.gateway), b.engine.attachGateway(b.gateway)]);
    await Promise.all([a.engine.idle(), b.engine.idle()]);
    expect(offersOf([a.gateway, b.gateway], jobId)).toEqual(ids);
    const rows = await executions(jobId);
    expect(rows.map((row) => [row.status, Number(row.offer_count)])).toEqual(
      ids.map(() => ['triggered', 1]),
    );
  });

  // Real concurrency between two connections: PostgreSQL only (SQLite serves one instance).
  if (dialect === 'postgres')
    it('lets one instance at a time dispatch a job, and the next once it is done', async () => {
      let release = () => undefined as void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let entered = () => undefined as void;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      const holder = runAloneForJob(first.database.db, 'job-A', async () => {
        entered();
        await held;
      });
      await inside;
      const noop = () => Promise.resolve();
      expect(await runAloneForJob(second.database.db, 'job-A', noop)).toBe(false);
      expect(await runAloneForJob(second.database.db, 'job-B', noop)).toBe(true);
      release();
      expect(await holder).toBe(true);
      expect(await runAloneForJob(second.database.db, 'job-A', noop)).toBe(true);
    });

  // Today the two batches also queue on the node's row (each writes its last activity before the
  // mappings), so the second finds the request confirmed; the next test holds without that.
  it('confirms a mapping both instances ingest once: one claim counted, one push', async () => {
    const ids = ['MIMAP1', 'MIMAP2', 'MIMAP3', 'MIMAP4', 'MIMAP5', 'MIMAP6'];
    await registerNodes(first, token, ids);
    const user = await createEndUser(first, token, 'mi-owner@fleetdeck.test');
    const added: FleetActivity[] = [];
    const unsubscribe = [first, second].map((server) =>
      server.services.nodeEvents.onActivity((event) => {
        if (event.kind === 'user_node_added') added.push(event);
      }),
    );
    const claims = async () =>
      Number(
        (
          await first.database.db
            .selectFrom('stats_daily')
            .select((eb) => eb.fn.sum<number>('value').as('n'))
            .where('metric', '=', 'claims')
            .executeTakeFirst()
        )?.n ?? 0,
      );
    const before = await claims();
    for (const nodeId of ids) {
      const secret = `secret-${nodeId}`;
      const ask = await caller(first)('PUT', '/v1/user/nodes/mapping', user.token, {
        node_id: nodeId,
        secret_key: secret,
        operation: 'add',
      });
      expect(ask.statusCode, ask.body).toBe(200);
      // A basic-ingest confirmation reaches both instances, which write it at the same moment.
      const at = Date.now();
      for (const server of [first, second])
        server.services.ingest.nodeUserMapping(
          nodeId,
          { node_id: nodeId, user_id: user.userId, secret_key: secret },
          at,
        );
      await Promise.all([first.services.ingest.flush(), second.services.ingest.flush()]);
    }
    for (const stop of unsubscribe) stop();

    const statuses = await first.database.db
      .selectFrom('user_node_mappings')
      .select(['node_id', 'status'])
      .where('node_id', 'in', ids)
      .orderBy('node_id')
      .execute();
    expect(statuses).toEqual(ids.map((nodeId) => ({ node_id: nodeId, status: 'confirmed' })));
    expect((await claims()) - before).toBe(ids.length);
    expect(added.map((event) => ('node_id' in event ? event.node_id : '')).sort()).toEqual(ids);
    const mine = await caller(first)('GET', '/v1/user/nodes', user.token);
    expect(mine.json()).toMatchObject({ total: ids.length });
  });

  // Real concurrency between two connections: PostgreSQL only (SQLite serves one instance).
  if (dialect === 'postgres')
    it('lets one of two transactions that both found the open request confirm it', async () => {
      await registerNodes(first, token, ['MIMAP9']);
      const user = await createEndUser(first, token, 'mi-racer@fleetdeck.test');
      const ask = await caller(first)('PUT', '/v1/user/nodes/mapping', user.token, {
        node_id: 'MIMAP9',
        secret_key: 'secret-MIMAP9',
        operation: 'add',
      });
      expect(ask.statusCode, ask.body).toBe(200);
      const now = Math.floor(Date.now() / 1000);
      let secondConfirmed: Promise<boolean> | undefined;
      const firstConfirmed = await first.database.db.transaction().execute(async (trx) => {
        const request = await findOpenRequest(trx, 'MIMAP9', user.userId);
        expect(request).toBeDefined();
        const confirmed = await confirmOpenRequest(trx, request?.request_id ?? '', now);
        // The other instance found the same open request before this commit; its update waits.
        secondConfirmed = second.database.db.transaction().execute(async (other) => {
          const seen = await findOpenRequest(other, 'MIMAP9', user.userId);
          expect(seen?.request_id).toBe(request?.request_id);
          return confirmOpenRequest(other, seen?.request_id ?? '', now);
        });
        await new Promise((resolve) => setTimeout(resolve, 200));
        return confirmed;
      });
      expect(firstConfirmed).toBe(true);
      expect(await secondConfirmed).toBe(false);
    });
});
