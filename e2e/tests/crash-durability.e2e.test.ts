import path from 'node:path';
import type {
  AdminNodesList,
  GroupList,
  RegisterNodesBody,
  RegisterNodesResponse,
} from '@fleetdeck/contract';
import { nodeTopic } from '@fleetdeck/contract';
import SQLite from 'better-sqlite3';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase } from '../../packages/server/test/helpers/test-database.js';
import {
  allPages,
  apiJson,
  apiToken,
  freePort,
  startServer,
  type RunningServer,
} from '../helpers/fleetdeck-server.js';

/**
 * QUALITY R1: `kill -9` of the server during writes, on SQLite and on PostgreSQL. The built
 * server runs as its own process; nodes publish QoS 1 params over MQTT and the API registers
 * nodes and creates device groups, all at once, and the server is killed with SIGKILL in the
 * middle of it, three times, and started again on the same database each time.
 *
 * A write counts as acknowledged when its PUBACK or its 200 arrived before the kill. Pass: after
 * every restart each acknowledged write is there (a node's stored counter is at least the highest
 * one acknowledged for it, and at most the highest sent; every registered node and every created
 * group with its members exists), and the files the dead process left are sound: SQLite's
 * `PRAGMA integrity_check` says ok (read-only, before the restart recovers anything), on
 * PostgreSQL `amcheck` finds no broken index, and on both every counter kept beside the rows
 * (statuses, facets, group sizes) equals a recount, which it can only do if each transaction
 * landed whole or not at all.
 *
 * This can fail: the embedded broker sends a PUBACK only once ingest has committed the message
 * (`whenDurable`), and the API answers only after its transaction. With the PUBACK sent at once
 * (the wait removed from `embedded-broker.ts`) a node's last ~50 ms of params (the ingest's flush
 * interval) are acknowledged but not yet written when the kill lands, and the counter check fails
 * (tried by hand: the first kill lost acknowledged counters of all 24 nodes, on SQLite and on
 * PostgreSQL). SQLite runs with WAL and
 * `synchronous = NORMAL`, which is durable against a killed process (what this tests), not
 * against a power cut.
 */

const ROUNDS = 3;
const NODES = 24;
const GROUP_WRITERS = 3;
const TYPE = 'Air Conditioner';
const MODEL = 'FD-AC-R1';
/** Acknowledgements each round waits for before it picks its moment to kill. */
const MIN_PARAM_ACKS = 200;
const MIN_API_ACKS = 6;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the test knows was acknowledged (and, for params, what was sent at all). */
interface Ledger {
  /** Node id → its MQTT credentials (every node the API acknowledged registering). */
  nodes: Map<string, { username: string; password: string }>;
  /** Node id → highest counter whose PUBACK arrived. */
  ackedCounter: Map<string, number>;
  /** Node id → highest counter ever sent (the stored one may not be above it). */
  sentCounter: Map<string, number>;
  /** Group id → name and static members, for every create answered 200. */
  groups: Map<string, { name: string; members: string[] }>;
  /** PUBACKs received in all. */
  paramAcks: number;
  /** Set just before the kill: a write that fails before then is a failure of its own. */
  killing: boolean;
  /** Writes refused or connections lost while the server was meant to be up. */
  failures: string[];
}

/** Ends a writer: expected once the kill is under way, a failure before. */
function writerStopped(ledger: Ledger, what: string, error?: unknown): void {
  if (!ledger.killing)
    ledger.failures.push(
      `${what}: ${error instanceof Error ? error.message : 'connection closed'}`,
    );
}

interface Run {
  server: RunningServer;
  cleanup: () => Promise<void>;
}

let current: Run | undefined;

afterEach(async () => {
  const run = current;
  current = undefined;
  await run?.server.stop();
  await run?.cleanup();
});

/** One node publishing counters 1, 2, 3… with QoS 1, one at a time, until its connection ends. */
async function publishCounters(client: MqttClient, nodeId: string, ledger: Ledger): Promise<void> {
  const closed = new Promise<'closed'>((resolve) => client.once('close', () => resolve('closed')));
  const topic = nodeTopic(nodeId, 'params/local');
  for (;;) {
    const counter = (ledger.sentCounter.get(nodeId) ?? 0) + 1;
    ledger.sentCounter.set(nodeId, counter);
    const payload = JSON.stringify({ Probe: { Counter: counter } });
    // A publish in flight when the server dies never gets its PUBACK: the close ends the wait.
    const outcome = await Promise.race([
      client.publishAsync(topic, payload, { qos: 1 }).then(
        () => 'acked' as const,
        () => 'closed' as const,
      ),
      closed,
    ]);
    if (outcome !== 'acked') return writerStopped(ledger, `node ${nodeId}`);
    ledger.ackedCounter.set(nodeId, counter);
    ledger.paramAcks += 1;
  }
}

/** Creates static groups of two nodes, one at a time, until a request fails. */
async function createGroups(
  server: RunningServer,
  token: string,
  writer: string,
  ledger: Ledger,
  acks: { n: number },
): Promise<void> {
  const ids = [...ledger.nodes.keys()];
  for (let i = 0; ; i += 1) {
    const name = `R1 ${writer}-${i}`;
    const members = [ids[i % ids.length]!, ids[(i * 7 + 3) % ids.length]!].filter(
      (id, index, all) => all.indexOf(id) === index,
    );
    const body = { group_name: name, nodes: members };
    try {
      const created = await apiJson<{ group_id: string }>(
        server.url,
        token,
        'POST',
        '/v1/admin/node_group',
        body,
      );
      ledger.groups.set(created.group_id, { name, members });
      acks.n += 1;
    } catch (error) {
      return writerStopped(ledger, `group ${name}`, error);
    }
  }
}

/** Registers nodes two at a time until a request fails (the node ids are chosen by the server). */
async function registerNodes(
  server: RunningServer,
  token: string,
  ledger: Ledger,
  acks: { n: number },
): Promise<void> {
  for (let i = 0; ; i += 1) {
    const body: RegisterNodesBody = {
      nodes: [0, 1].map((k) => ({
        type: TYPE,
        model: MODEL,
        fw_version: `1.0.${(i + k) % 3}`,
        tags: [`location:${['Pune', 'Lyon', 'Austin'][(i + k) % 3]}`, `r1:batch-${i}`],
      })),
    };
    try {
      const answer = await apiJson<RegisterNodesResponse>(
        server.url,
        token,
        'POST',
        '/v1/admin/node_ids',
        body,
      );
      for (const node of answer.nodes)
        ledger.nodes.set(node.node_id, {
          username: node.mqtt_username,
          password: node.mqtt_password,
        });
      acks.n += 1;
    } catch (error) {
      return writerStopped(ledger, 'node registration', error);
    }
  }
}

/** Every node (with its params) and every group the server has now. */
async function readBack(server: RunningServer, token: string) {
  const nodes = await allPages(
    server.url,
    token,
    '/v1/admin/nodes?node_details=true',
    (page: AdminNodesList) => page.node_info,
  );
  const groups = await allPages(
    server.url,
    token,
    '/v1/admin/node_group?node_details=false',
    (page: GroupList) => page.groups,
  );
  return {
    params: new Map(nodes.map((node) => [node.node_id, node.params])),
    groups: new Map(groups.map((group) => [group.group_id, group])),
  };
}

/** A node's stored `Probe.Counter`, if it has one. */
function storedCounter(params: unknown): number | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const probe = (params as Record<string, unknown>).Probe;
  if (typeof probe !== 'object' || probe === null) return undefined;
  const counter = (probe as Record<string, unknown>).Counter;
  return typeof counter === 'number' ? counter : undefined;
}

/** Runs read-only SQL on what the dead server left: its SQLite file, or its PostgreSQL database. */
interface Inspector {
  all: (text: string) => Promise<Array<Record<string, unknown>>>;
  close: () => Promise<void>;
}

async function inspect(env: Record<string, string>): Promise<Inspector> {
  if (env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    return {
      all: async (text) => (await client.query<Record<string, unknown>>(text)).rows,
      close: () => client.end(),
    };
  }
  const sqlite = new SQLite(path.join(env.DATA_DIR!, 'fleetdeck.db'), {
    readonly: true,
    fileMustExist: true,
  });
  return {
    all: async (text) => sqlite.prepare(text).all() as Array<Record<string, unknown>>,
    close: async () => void sqlite.close(),
  };
}

/** `rows` as `key → n` with the zero counts left out (a counter may keep a row at 0). */
const counts = (
  rows: Array<Record<string, unknown>>,
  key: (row: Record<string, unknown>) => string,
) =>
  Object.fromEntries(
    rows
      .filter((row) => Number(row.n) !== 0)
      .map((row) => [key(row), Number(row.n)] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );

const STATE = `case when connected is null then 'not_activated' when connected = 1 then 'online' else 'offline' end`;

/**
 * The database the killed server left is sound: the engine's own check, and every maintained
 * counter equal to a recount of the rows it counts.
 */
async function expectConsistent(env: Record<string, string>, round: number): Promise<void> {
  const db = await inspect(env);
  try {
    if (env.DATABASE_URL) {
      // amcheck ships with PostgreSQL's contrib; a server without it still gets the recounts.
      const amcheck = await db
        .all('create extension if not exists amcheck')
        .then(() => true)
        .catch(() => false);
      if (amcheck) {
        // Every B-tree index of Fleetdeck's tables, each entry checked against its heap too.
        const checked = await db.all(`
          select c.relname, bt_index_check(c.oid, true) from pg_index i
          join pg_class c on c.oid = i.indexrelid
          join pg_am a on a.oid = c.relam
          join pg_namespace s on s.oid = c.relnamespace
          where a.amname = 'btree' and i.indisvalid and s.nspname = current_schema()`);
        expect(checked.length).toBeGreaterThan(10);
      }
    } else {
      expect(await db.all('pragma integrity_check'), `round ${round}`).toEqual([
        { integrity_check: 'ok' },
      ]);
      expect(await db.all('pragma foreign_key_check'), `round ${round}`).toEqual([]);
    }

    const nodeCounters = await db.all(
      `select name, value as n from node_counters where name in ('total', 'online', 'offline', 'not_activated') or name like '%|%'`,
    );
    const byState = await db.all(
      `select ${STATE} as state, type, count(*) as n from nodes group by ${STATE}, type`,
    );
    const recount: Record<string, number> = {};
    for (const row of byState) {
      const n = Number(row.n);
      const state = String(row.state);
      recount.total = (recount.total ?? 0) + n;
      recount[state] = (recount[state] ?? 0) + n;
      recount[`${state}|${String(row.type)}`] = n;
    }
    expect(
      counts(nodeCounters, (row) => String(row.name)),
      `node_counters after kill ${round}`,
    ).toEqual(
      counts(
        Object.entries(recount).map(([name, n]) => ({ name, n })),
        (row) => String(row.name),
      ),
    );

    const facets = await db.all('select facet, value, n from node_facet_counts');
    const facetRecount = await db.all(`
      select 'type' as facet, type as value, count(*) as n from nodes group by type
      union all select 'model', model, count(*) from nodes group by model
      union all select 'fw_version', fw_version, count(*) from nodes where fw_version is not null group by fw_version
      union all select 'city', city, count(*) from nodes where city is not null group by city
      union all select 'tag', tag, count(*) from node_tags group by tag`);
    const facetKey = (row: Record<string, unknown>) => `${String(row.facet)}=${String(row.value)}`;
    expect(counts(facets, facetKey), `node_facet_counts after kill ${round}`).toEqual(
      counts(facetRecount, facetKey),
    );

    const groupCounts = await db.all('select group_id, n from node_group_counts');
    const groupRecount = await db.all(
      'select group_id, count(*) as n from node_group_members group by group_id',
    );
    const groupKey = (row: Record<string, unknown>) => String(row.group_id);
    expect(counts(groupCounts, groupKey), `node_group_counts after kill ${round}`).toEqual(
      counts(groupRecount, groupKey),
    );
  } finally {
    await db.close();
  }
}

describe.each(DIALECTS)('kill -9 of the server during writes on %s (R1)', (dialect) => {
  it('keeps every acknowledged write through three kills, and leaves a sound database each time', async () => {
    const database = await createTestDatabase(dialect);
    const { DATA_DIR: dataDir, ...env } = database.env;
    const place = { dataDir: dataDir!, port: await freePort(), mqttPort: await freePort() };
    current = { server: await startServer(env, place), cleanup: database.cleanup };
    const run = current;
    const ledger: Ledger = {
      nodes: new Map(),
      ackedCounter: new Map(),
      sentCounter: new Map(),
      groups: new Map(),
      paramAcks: 0,
      killing: false,
      failures: [],
    };
    let token = await apiToken(run.server.url);
    const registered = await apiJson<RegisterNodesResponse>(
      run.server.url,
      token,
      'POST',
      '/v1/admin/node_ids',
      {
        nodes: Array.from({ length: NODES }, () => ({
          type: TYPE,
          model: MODEL,
          fw_version: '1.0.0',
          tags: ['location:Pune'],
        })),
      } satisfies RegisterNodesBody,
    );
    const publishers = registered.nodes.map((node) => node.node_id);
    for (const node of registered.nodes)
      ledger.nodes.set(node.node_id, {
        username: node.mqtt_username,
        password: node.mqtt_password,
      });

    const mqttUrl = `mqtt://127.0.0.1:${place.mqttPort}`;
    for (let round = 1; round <= ROUNDS; round += 1) {
      const clients = await Promise.all(
        publishers.map((nodeId) =>
          mqtt.connectAsync(mqttUrl, {
            clientId: nodeId,
            username: ledger.nodes.get(nodeId)!.username,
            password: ledger.nodes.get(nodeId)!.password,
            reconnectPeriod: 0,
            connectTimeout: 5_000,
          }),
        ),
      );
      const ackedBefore = ledger.paramAcks;
      const apiAcks = { n: 0 };
      const writers = [
        ...clients.map((client, i) => publishCounters(client, publishers[i]!, ledger)),
        ...Array.from({ length: GROUP_WRITERS }, (_, w) =>
          createGroups(run.server, token, `${round}.${w}`, ledger, apiAcks),
        ),
        registerNodes(run.server, token, ledger, apiAcks),
      ];

      // Kill at a different moment each round, once writes of every kind are flowing.
      const paramAcks = () => ledger.paramAcks - ackedBefore;
      const deadline = Date.now() + 15_000;
      while (paramAcks() < MIN_PARAM_ACKS || apiAcks.n < MIN_API_ACKS) {
        if (Date.now() > deadline)
          throw new Error(
            `writes did not flow: ${paramAcks()} params, ${apiAcks.n} API acks\n${ledger.failures.join('\n')}\n${run.server.output()}`,
          );
        await sleep(20);
      }
      await sleep(37 * round);
      expect(ledger.failures, run.server.output()).toEqual([]);
      ledger.killing = true;
      await run.server.kill('SIGKILL');
      expect(await run.server.exited).toEqual({ code: null, signal: 'SIGKILL' });
      await Promise.all(writers);
      await Promise.all(clients.map((client) => client.endAsync(true)));
      ledger.killing = false;

      await expectConsistent(database.env, round);

      run.server = await startServer(env, place);
      token = await apiToken(run.server.url);
      const stored = await readBack(run.server, token);

      const missingNodes = [...ledger.nodes.keys()].filter((id) => !stored.params.has(id));
      expect(missingNodes, `registered nodes lost in round ${round}`).toEqual([]);
      const lostParams = publishers
        .map((id) => ({
          id,
          acked: ledger.ackedCounter.get(id) ?? 0,
          stored: storedCounter(stored.params.get(id)) ?? 0,
          sent: ledger.sentCounter.get(id) ?? 0,
        }))
        .filter((row) => row.stored < row.acked || row.stored > row.sent);
      expect(lostParams, `params counters after kill ${round}`).toEqual([]);
      const lostGroups = [...ledger.groups].filter(([id, group]) => {
        const found = stored.groups.get(id);
        return found?.group_name !== group.name || found.total !== group.members.length;
      });
      expect(lostGroups, `groups lost or changed in round ${round}`).toEqual([]);
    }
    // Every round wrote something of each kind, so the checks above had something to find.
    expect(ledger.groups.size).toBeGreaterThanOrEqual(ROUNDS * 3);
    expect(ledger.nodes.size).toBeGreaterThan(NODES);
  }, 150_000);
});
