import { randomBytes } from 'node:crypto';
import { basicIngestTopic, nodeTopic, type NodeConnectivityEvent } from '@fleetdeck/contract';
import type { IClientOptions } from 'mqtt';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC_INGEST_LOCK, contendForLeadership, type Leadership } from '../src/db/leadership.js';
import { startExternalGateway, type ExternalGateway } from '../src/gateway/external-gateway.js';
import { createLogger } from '../src/logger.js';
import { readStatusCounters, rebuildCounters } from '../src/repositories/node.repository.js';
import { connectClient, sleep } from './helpers/mqtt-clients.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

// Two instances on one PostgreSQL database and one broker (ADR 39): every instance hears the
// retained births and wills on node/+/connection, and only one may take the `$aws/rules/…` topics.
const mqttUrl = process.env.TEST_MQTT_URL;
const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
const run = randomBytes(3).toString('hex').toUpperCase();
const connection = (connected: boolean, session: number) =>
  JSON.stringify({ connected, session, timestamp: Date.now() });

async function waitUntil(check: () => Promise<boolean> | boolean, ms = 15_000, what = 'condition') {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** A client of the test broker with protocol 5, as the nodes and the gateways speak it. */
const mqttClient = (url: string, clientId: string, options: IClientOptions = {}) =>
  connectClient(url, { clientId, protocolVersion: 5, ...options });

describe.runIf(mqttUrl && DIALECTS.includes('postgres'))(
  'two instances on one PostgreSQL database and one external broker',
  () => {
    const url = mqttUrl ?? '';
    let a: TestServer;
    let b: TestServer;
    let token: string;
    const instances: Array<{
      server: TestServer;
      gateway: ExternalGateway;
      leadership: Leadership;
    }> = [];
    const retained: string[] = [];
    /** Both instances' local connectivity events, in the order they were told (one process). */
    const told: NodeConnectivityEvent[] = [];
    /** Every change of an instance's leadership, in order. */
    const turns: Array<{ index: number; held: boolean }> = [];

    const register = async (nodeIds: string[]) => {
      const response = await a.app.inject({
        method: 'POST',
        url: '/v1/admin/node_ids',
        headers: { authorization: token },
        payload: {
          nodes: nodeIds.map((node_id) => ({
            node_id,
            type: 'Washing Machine',
            model: 'FD-WM-7',
            fw_version: '3.0.0',
            tags: ['location:Delhi'],
          })),
        },
      });
      expect(response.statusCode).toBe(200);
    };
    const countOnline = async (nodeIds: string[], connected: number) => {
      const rows = await a.database.db
        .selectFrom('nodes')
        .select('node_id')
        .where('node_id', 'in', nodeIds)
        .where('connected', '=', connected)
        .execute();
      return rows.length;
    };
    const alertsOf = async (nodeId: string) =>
      (
        await a.database.db
          .selectFrom('node_alerts')
          .select('alert_id')
          .where('node_id', '=', nodeId)
          .execute()
      ).length;
    const deadlocks = async () => {
      // Backends report their statistics on going idle, at most once a second.
      await sleep(1500);
      const { rows } = await sql<{ n: number | string }>`select deadlocks as n
        from pg_stat_database where datname = current_database()`.execute(a.database.db);
      return Number(rows[0]?.n ?? 0);
    };
    /**
     * Each change of each node was told once, by one instance: what the instances told, in the
     * order they told it, alternates per node and never repeats a state. The first change may be
     * offline: a birth and its will in one batch take a node from not activated to offline.
     */
    const expectEachChangeToldOnce = (nodeIds: string[], from = 0) => {
      const byNode = new Map<string, boolean[]>();
      for (const event of told.slice(from))
        if (nodeIds.includes(event.node_id))
          byNode.set(event.node_id, [...(byNode.get(event.node_id) ?? []), event.connected]);
      expect(byNode.size).toBe(nodeIds.length);
      for (const [nodeId, changes] of byNode) {
        const alternating = changes.map((_, index) => (index % 2 === 0) === changes[0]);
        expect({ nodeId, changes }).toEqual({ nodeId, changes: alternating });
      }
      return byNode;
    };
    const leader = () => instances.find((instance) => instance.gateway.basicIngest);

    beforeAll(async () => {
      a = await createTestServer('postgres');
      b = await createTestServer('postgres', { sameDatabaseAs: a });
      token = (await apiLogin(a.app)).accesstoken;
      const sharedGroup = `fd-mi-${run}`;
      for (const [index, server] of [a, b].entries()) {
        const leadership = contendForLeadership(
          server.config.databaseUrl,
          BASIC_INGEST_LOCK,
          logger,
          { retryMs: 300, name: `basic-ingest-${index}` },
        );
        const gateway = await startExternalGateway(url, server.services.ingest, logger, {
          clientId: `fleetdeck-mi-${run}-${index}`,
          sharedGroup,
          leadership,
        });
        leadership.watch((held) => turns.push({ index, held }));
        server.services.nodeEvents.onConnectivity((event) => {
          told.push(event);
        });
        instances.push({ server, gateway, leadership });
      }
      await waitUntil(() => leader() !== undefined, 10_000, 'a leader');
    });
    afterAll(async () => {
      if (retained.length) {
        const cleaner = await mqttClient(url, `fd-mi-clean-${run}`);
        for (const nodeId of retained)
          await cleaner.publishAsync(nodeTopic(nodeId, 'connection'), '', { qos: 1, retain: true });
        await cleaner.endAsync();
      }
      for (const { gateway, server } of instances) {
        await gateway.close();
        await server.services.ingest.flush();
      }
      await b?.close();
      await a?.close();
    });

    it('stores an alert published on $aws/rules/… once, also after the leader lost its lock', async () => {
      const nodeId = `MIA${run}`;
      await register([nodeId]);
      expect(instances.filter((instance) => instance.gateway.basicIngest)).toHaveLength(1);
      const node = await mqttClient(url, nodeId);
      const alert = (text: string) =>
        node.publishAsync(
          basicIngestTopic(nodeId, 'alert') ?? '',
          JSON.stringify({
            'esp.alert.str': text,
          }),
          { qos: 1 },
        );
      await alert('Drum unbalanced');
      await waitUntil(async () => (await alertsOf(nodeId)) >= 1, 10_000, 'the alert');
      await sleep(1000);
      expect(await alertsOf(nodeId)).toBe(1);

      // The leader's database connection dies: PostgreSQL releases the lock, the leader stops
      // taking the topics, and the other instance takes them over.
      const first = instances.findIndex((instance) => instance.gateway.basicIngest);
      const turnsBefore = turns.length;
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name = ${`fleetdeck-leadership-${BASIC_INGEST_LOCK}`}
          and pid in (select pid from pg_locks where locktype = 'advisory' and objid = ${BASIC_INGEST_LOCK} and granted)`.execute(
        a.database.db,
      );
      await waitUntil(
        () => turns.slice(turnsBefore).some((turn) => turn.index === first && !turn.held),
        10_000,
        'the old leader to step down',
      );
      // It, or the other instance, takes the lock again within a retry period.
      await waitUntil(
        () => instances.some((i) => i.leadership.held && i.gateway.basicIngest),
        10_000,
        'a new leader',
      );
      expect(instances.filter((instance) => instance.gateway.basicIngest)).toHaveLength(1);
      await alert('Door open');
      await waitUntil(async () => (await alertsOf(nodeId)) >= 2, 10_000, 'the second alert');
      await sleep(1000);
      expect(await alertsOf(nodeId)).toBe(2);
      await node.endAsync();
    });

    it('counts and tells each connect and Last Will of many nodes once across both instances', async () => {
      const nodeIds = Array.from(
        { length: 20 },
        (_, i) => `MIC${run}${String(i).padStart(2, '0')}`,
      );
      await register(nodeIds);
      retained.push(...nodeIds);
      const before = told.length;
      const nodes = await Promise.all(
        nodeIds.map(async (nodeId) => {
          const node = await mqttClient(url, nodeId, {
            will: {
              topic: nodeTopic(nodeId, 'connection'),
              payload: Buffer.from(connection(false, 1)),
              qos: 1,
              retain: true,
            },
          });
          await node.publishAsync(nodeTopic(nodeId, 'connection'), connection(true, 1), {
            qos: 1,
            retain: true,
          });
          return node;
        }),
      );
      await waitUntil(async () => (await countOnline(nodeIds, 1)) === nodeIds.length);
      // An abrupt drop makes the broker publish every will.
      for (const node of nodes) node.stream.destroy();
      await waitUntil(async () => (await countOnline(nodeIds, 0)) === nodeIds.length);
      await sleep(1000);
      // Each instance hears every birth and will, yet each change is told by one of them: online
      // once, then offline once (a birth an instance handles only after the other committed the
      // will could bring a node online again for a moment, ADR 39; that is two more changes).
      const byNode = expectEachChangeToldOnce(nodeIds, before);
      for (const changes of byNode.values()) expect(changes.slice(0, 2)).toEqual([true, false]);
      const maintained = await readStatusCounters(a.database.db);
      expect(await rebuildCounters(a.database.db)).toEqual(maintained);
    });

    it('keeps the counters equal to a recount and deadlocks nowhere under a reconnect burst', async () => {
      const nodeIds = Array.from(
        { length: 60 },
        (_, i) => `MIB${run}${String(i).padStart(2, '0')}`,
      );
      await register(nodeIds);
      retained.push(...nodeIds);
      const deadlocksBefore = await deadlocks();
      const publisher = await mqttClient(url, `fd-mi-burst-${run}`);
      // Sessions 1…6, each a birth and a will, in shuffled node order: both instances ingest the
      // same nodes in batches of their own making.
      for (let session = 1; session <= 6; session += 1) {
        for (const connected of [true, false]) {
          const order = [...nodeIds].sort(() => Math.random() - 0.5);
          await Promise.all(
            order.map((nodeId) =>
              publisher.publishAsync(
                nodeTopic(nodeId, 'connection'),
                connection(connected, session),
                {
                  qos: 1,
                  retain: true,
                },
              ),
            ),
          );
          await sleep(5);
        }
      }
      await publisher.endAsync();
      await waitUntil(async () => (await countOnline(nodeIds, 0)) === nodeIds.length);
      await Promise.all(instances.map(({ server }) => server.services.ingest.flush()));
      await sleep(500);
      expect(await deadlocks()).toBe(deadlocksBefore);
      const maintained = await readStatusCounters(a.database.db);
      expect(await rebuildCounters(a.database.db)).toEqual(maintained);
      expectEachChangeToldOnce(nodeIds);
    });
  },
);
