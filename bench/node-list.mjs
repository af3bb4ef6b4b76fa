// B6: the fleet list API (GET /v1/admin/nodes) over a large registry, per filter, page size and
// concurrency. Nodes are bulk-inserted with SQL into a fresh database; the built server serves them.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  SMOKE,
  benchTempDir,
  cleanUpOnSignal,
  cpuSecondsOf,
  endOnSignal,
  failed,
  gitCommit,
  login,
  machine,
  prng,
  requireBuilt,
  round,
  rssOf,
  sleep,
  startServer,
} from './lib.mjs';

const N = Number(process.env.BENCH_NODES ?? (SMOKE ? 20_000 : 1_000_000));
// Smoke: its runs must fit the 60 s budget with set-up, so each lasts 1 s (full: 10 s).
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? (SMOKE ? 1 : 10));
// Unmeasured load over the unfiltered pages first, so the first measured row does not pay for
// the server's JIT warm-up (steady state is what B6 asks about).
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? (SMOKE ? 1 : 5));
const PAGE_SIZES = (process.env.BENCH_PAGE_SIZES ?? '10,50').split(',').map(Number);
// Smoke keeps only the target rows (32 clients) to fit its 60 s budget.
const CONNECTIONS = SMOKE ? [32] : [8, 32];
const CURSORS_PER_FILTER = 20;
// The peer (node-list-bare.mjs) runs the same paths; smoke measures it on a few filters only.
const PEER_FILTERS = SMOKE ? ['none', 'type', 'city', 'search'] : undefined;
// Smoke measures these filters (both dialects within 60 s); BENCH_FILTERS picks others.
const SMOKE_FILTERS = ['none', 'type', 'city', 'search', 'group'];
// SQLite, and PostgreSQL when BENCH_DATABASE_URL is set; BENCH_DIALECTS (e.g. `postgres`) narrows.
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres')
  .split(',')
  .filter((d) => d !== 'postgres' || process.env.BENCH_DATABASE_URL);
const HERE = path.dirname(fileURLToPath(import.meta.url));

const TYPES = [
  ['Air Conditioner', 0.4, ['FD-AC-12', 'FD-AC-18', 'FD-AC-24']],
  ['Refrigerator', 0.35, ['FD-RF-300', 'FD-RF-450']],
  ['Washing Machine', 0.25, ['FD-WM-7', 'FD-WM-9', 'FD-WM-11']],
];
const CITIES = [
  ['Delhi', 0.25],
  ['Mumbai', 0.22],
  ['Bengaluru', 0.18],
  ['Hyderabad', 0.14],
  ['Chennai', 0.12],
  ['Pune', 0.09],
];
const FW = [
  ['3.0.0', 0.1],
  ['3.0.1', 0.15],
  ['3.1.0', 0.3],
  ['3.1.2', 0.3],
  ['3.2.0', 0.14],
  ['4.0.0-rc1', 0.01],
];
// connected: 1 online (30 %), 0 offline (55 %), null not activated (15 %).
const STATES = [
  [1, 0.3],
  [0, 0.55],
  [null, 0.15],
];
const pick = (rand, table) => {
  let x = rand();
  for (const entry of table) {
    x -= entry[1];
    if (x < 0) return entry;
  }
  return table[table.length - 1];
};
const HASH = 'a'.repeat(64); // nobody connects in this benchmark
// What registration stores for an external Mosquitto (a `$7$` PBKDF2 line, ~120 characters), and
// a reported params document (~200 bytes): a real node's row carries both (ADR 26).
const BROKER_CREDENTIAL = `$7$101$${'s'.repeat(16)}$${'h'.repeat(88)}`;
const paramsOf = (type, rand) =>
  JSON.stringify({
    [type]: {
      Power: rand() < 0.5,
      Mode: 'Auto',
      Temperature: Math.floor(16 + rand() * 14),
      Speed: Math.floor(rand() * 5),
      Remaining: '00:42:10',
      'Energy Today': Math.round(rand() * 5000) / 1000,
    },
    Time: { TZ: 'Asia/Kolkata', 'TZ-POSIX': 'IST-5:30' },
    'Fault Status': { 'Fault Code': 0, 'Fault Description': '' },
  });

/** Odd multiplier modulo 2^48 is a bijection: unique, well spread 12-hex-digit ids. */
const nodeIdOf = (i) =>
  ((i * 0x9e3779b1 + 0x1234567) % 2 ** 48).toString(16).toUpperCase().padStart(12, '0');

/** Yields node rows. Online nodes carry an odd last_activity_at (see markOnline). */
function* nodeRows(count) {
  const rand = prng(42);
  // The params' own stream, so the rows' other values stay what they were before params came in.
  const paramsRand = prng(7);
  const now = Date.now();
  for (let i = 0; i < count; i += 1) {
    const id = nodeIdOf(i);
    const [type, , models] = pick(rand, TYPES);
    const model = models[Math.floor(rand() * models.length)];
    const [city] = pick(rand, CITIES);
    const [fw] = pick(rand, FW);
    const [connected] = pick(rand, STATES);
    const serial = `SN${id}`;
    const registered = now - 400 * 86_400_000 + Math.floor(rand() * 300 * 86_400_000);
    const activated = connected === null ? null : registered + 3_600_000;
    let lastActivity = activated === null ? null : activated + Math.floor(rand() * 86_400_000) * 2;
    if (connected === 1) lastActivity += 1;
    const tags = [`location:${city}`, `esp.serial_num:${serial}`];
    yield {
      node_id: id,
      name: `${type} ${id.slice(-4)}`,
      type,
      model,
      fw_version: fw,
      city: city.toLowerCase(),
      serial,
      tags,
      registered_at: registered,
      activated_at: activated,
      connected,
      conn_changed_at: activated,
      last_activity_at: lastActivity,
      params: activated === null ? null : paramsOf(type, paramsRand),
    };
  }
}

const COLUMNS = [
  'node_id',
  'name',
  'type',
  'model',
  'fw_version',
  'city',
  'serial',
  'tags',
  'credential_hash',
  'secret_key_hash',
  'registered_at',
  'activated_at',
  'connected',
  'conn_changed_at',
  'conn_session',
  'last_activity_at',
  'broker_credential',
  'params',
  'params_updated_at',
];
const values = (row) => [
  row.node_id,
  row.name,
  row.type,
  row.model,
  row.fw_version,
  row.city,
  row.serial,
  JSON.stringify(row.tags),
  HASH,
  HASH,
  row.registered_at,
  row.activated_at,
  row.connected,
  row.conn_changed_at,
  0,
  row.last_activity_at,
  BROKER_CREDENTIAL,
  row.params,
  row.params === null ? null : row.last_activity_at,
];

const COUNTERS_SQL = [
  `DELETE FROM node_counters WHERE name IN ('total','online','offline','not_activated')`,
  `INSERT INTO node_counters (name, value)
     SELECT 'total', COUNT(*) FROM nodes
     UNION ALL SELECT 'online', COUNT(*) FROM nodes WHERE connected = 1
     UNION ALL SELECT 'offline', COUNT(*) FROM nodes WHERE connected = 0
     UNION ALL SELECT 'not_activated', COUNT(*) FROM nodes WHERE connected IS NULL`,
];
// B6's group filter: a hand-made group of ~10 % of the fleet, paged as the group view reads it.
const GROUP_ID = 'B6B6-0001';
const GROUP_SQL = [
  `INSERT INTO node_groups (group_id, group_name, description, is_automatic, created_at)
   VALUES ('${GROUP_ID}', 'B6 group', '', 0, 0)`,
  `INSERT INTO node_group_members (group_id, node_id, source)
   SELECT '${GROUP_ID}', node_id, 'manual' FROM nodes WHERE registered_at % 10 = 0`,
];
// The embedded broker marks every online node offline at start (ADR 0005); put them back.
const MARK_ONLINE_SQL = `UPDATE nodes SET connected = 1 WHERE connected = 0 AND last_activity_at % 2 = 1`;

function sqliteStore(dataDir) {
  const db = new Database(path.join(dataDir, 'fleetdeck.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 10000');
  return {
    async insert(count) {
      const insertNode = db.prepare(
        `INSERT INTO nodes (${COLUMNS.join(',')}) VALUES (${COLUMNS.map(() => '?').join(',')})`,
      );
      const insertTag = db.prepare('INSERT INTO node_tags (tag, node_id) VALUES (?, ?)');
      const batch = db.transaction((rows) => {
        for (const row of rows) {
          insertNode.run(values(row));
          for (const tag of row.tags) insertTag.run(tag, row.node_id);
        }
      });
      let rows = [];
      for (const row of nodeRows(count)) {
        rows.push(row);
        if (rows.length === 50_000) {
          batch(rows);
          rows = [];
        }
      }
      if (rows.length) batch(rows);
      db.exec('ANALYZE');
    },
    async settle() {
      db.exec('ANALYZE');
    },
    async exec(sql) {
      db.exec(sql);
    },
    async query(sql, params = []) {
      return db.prepare(sql).all(...params);
    },
    async close() {
      db.close();
    },
  };
}

async function postgresStore(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const types = [
    'text',
    'text',
    'text',
    'text',
    'text',
    'text',
    'text',
    'text',
    'text',
    'text',
    'int8',
    'int8',
    'int4',
    'int8',
    'int8',
    'int8',
    'text',
    'text',
    'int8',
  ];
  const insertSql = `INSERT INTO nodes (${COLUMNS.join(',')}) SELECT * FROM unnest(${types
    .map((t, i) => `$${i + 1}::${t}[]`)
    .join(',')})`;
  return {
    async insert(count) {
      const flush = async (rows) => {
        const cols = COLUMNS.map(() => []);
        const tagNames = [];
        const tagIds = [];
        for (const row of rows) {
          values(row).forEach((v, i) => cols[i].push(v));
          for (const tag of row.tags) {
            tagNames.push(tag);
            tagIds.push(row.node_id);
          }
        }
        await client.query('BEGIN');
        await client.query(insertSql, cols);
        await client.query(
          'INSERT INTO node_tags (tag, node_id) SELECT * FROM unnest($1::text[], $2::text[])',
          [tagNames, tagIds],
        );
        await client.query('COMMIT');
      };
      let rows = [];
      for (const row of nodeRows(count)) {
        rows.push(row);
        if (rows.length === 20_000) {
          await flush(rows);
          rows = [];
        }
      }
      if (rows.length) await flush(rows);
      await client.query('VACUUM ANALYZE nodes');
      await client.query('VACUUM ANALYZE node_tags');
    },
    async settle() {
      // What autovacuum does after bulk changes (this machine's PostgreSQL runs with it off):
      // statistics for every table, and the dead row versions of the online update gone.
      await client.query('VACUUM ANALYZE');
    },
    async exec(sql) {
      await client.query(sql);
    },
    async query(sql, params = []) {
      let n = 0; // `?` → `$1, $2, …` in order (the replacer's second argument is an offset)
      return (
        await client.query(
          sql.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows;
    },
    async close() {
      await client.end();
    },
  };
}

async function createPgDatabase(baseUrl) {
  const name = `fleetdeck_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * The list a query asks for: a group's page of nodes (`GET /v1/admin/node_group?group_id=…`, as
 * the dashboard's group view reads it) or the fleet list.
 */
const listPath = (query) =>
  `${query.group_id ? '/v1/admin/node_group' : '/v1/admin/nodes'}?${new URLSearchParams(query)}`;

/** The page's total and next cursor, from either list's answer. */
function pageOf(body) {
  const page = body.groups ? body.groups[0] : body;
  return { total: page.total, nextId: page.next_id };
}

async function getJson(baseUrl, token, query) {
  const started = process.hrtime.bigint();
  const response = await fetch(`${baseUrl}${listPath(query)}`, {
    headers: { authorization: token },
  });
  const body = await response.json();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!response.ok) throw new Error(`list ${JSON.stringify(query)}: ${response.status}`);
  return { body, ms };
}

/** Up to CURSORS_PER_FILTER consecutive page paths of a filter, starting at `start`. */
async function cursorPaths(baseUrl, token, filter, pageSize) {
  const paths = [];
  let query = { ...filter, num_records: String(pageSize) };
  for (let i = 0; i < CURSORS_PER_FILTER; i += 1) {
    paths.push(listPath(query));
    const { body } = await getJson(baseUrl, token, query);
    const { nextId } = pageOf(body);
    if (!nextId) break;
    query = { ...query, start_id: nextId };
  }
  return paths;
}

function runAutocannon(baseUrl, token, paths, connections, duration = DURATION_S) {
  let next = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: baseUrl,
        connections,
        duration,
        headers: { authorization: token },
        requests: [
          {
            method: 'GET',
            setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }),
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

async function benchDialect(dialect) {
  const dataDir = benchTempDir();
  let pgDb;
  const env = { DATA_DIR: dataDir };
  try {
    if (dialect === 'postgres') {
      pgDb = await createPgDatabase(process.env.BENCH_DATABASE_URL);
      cleanUpOnSignal(() => pgDb.drop());
      env.DATABASE_URL = pgDb.url;
    }
    // First start migrates the empty database and creates the admin; then stop and load.
    const first = await startServer(env);
    await first.stop();

    const store = dialect === 'postgres' ? await postgresStore(pgDb.url) : sqliteStore(dataDir);
    let started = Date.now();
    await store.insert(N);
    for (const sql of GROUP_SQL) await store.exec(sql);
    for (const sql of COUNTERS_SQL) await store.exec(sql);
    const insertS = (Date.now() - started) / 1000;

    const server = await startServer(env);
    try {
      // Start-up reset every online node to offline; restore the intended 30 % online.
      started = Date.now();
      await store.exec(MARK_ONLINE_SQL);
      for (const sql of COUNTERS_SQL) await store.exec(sql);
      const remarkS = (Date.now() - started) / 1000;
      // Statistics for the group and count tables loaded after the nodes and, on PostgreSQL, no
      // dead row versions left by the update above: the state background maintenance leaves.
      started = Date.now();
      await store.settle();
      const settleS = (Date.now() - started) / 1000;
      const counters = Object.fromEntries(
        (await store.query('SELECT name, value FROM node_counters')).map((r) => [
          r.name,
          Number(r.value),
        ]),
      );
      const sortedIds = await store.query(
        `SELECT node_id FROM nodes ORDER BY node_id LIMIT 1 OFFSET ${Math.floor(N * 0.9)}`,
      );
      const deepId = sortedIds[0].node_id;
      const someSerial = (
        await store.query(`SELECT serial FROM nodes WHERE node_id = ?`, [deepId])
      )[0].serial;
      await store.close();

      const token = await login(server.baseUrl);
      const filters = {
        none: {},
        node_status: { node_status: 'online' },
        type: { type: 'Refrigerator' },
        model: { model: 'FD-WM-9' },
        fw_version: { fw_version: '3.1.0' },
        city: { city: 'Pune' },
        serial: { serial: someSerial },
        tags: { tags: 'location:Pune' },
        search: { search: deepId.slice(0, 2) },
        deep_cursor: { start_id: deepId },
        group: { group_id: GROUP_ID, node_details: 'true' },
      };
      const p99Target = dialect === 'postgres' ? 30 : 20;
      const totals = {};
      const rows = [];
      /** The page paths each row ran, for the peer. */
      const rowPaths = [];
      if (WARMUP_S > 0) {
        const warmupPaths = await cursorPaths(server.baseUrl, token, {}, 10);
        await runAutocannon(server.baseUrl, token, warmupPaths, 32, WARMUP_S);
      }
      const only = process.env.BENCH_FILTERS?.split(',') ?? (SMOKE ? SMOKE_FILTERS : undefined);
      for (const [name, filter] of Object.entries(filters)) {
        if (only && !only.includes(name)) continue;
        // Exact total: the first page carries it; best of 5 cold-ish calls, and the first one.
        const times = [];
        let total;
        for (let i = 0; i < 5; i += 1) {
          const { body, ms } = await getJson(server.baseUrl, token, {
            ...filter,
            num_records: '1',
          });
          total = pageOf(body).total;
          times.push(ms);
        }
        totals[name] = {
          total,
          first_ms: round(times[0]),
          median_ms: round([...times].sort((a, b) => a - b)[2]),
          pass: [...times].sort((a, b) => a - b)[2] <= 100,
        };
        for (const pageSize of PAGE_SIZES) {
          const { start_id: startId, ...rest } = filter;
          const paths = await cursorPaths(
            server.baseUrl,
            token,
            startId ? { ...rest, start_id: startId } : rest,
            pageSize,
          );
          for (const connections of CONNECTIONS) {
            const row = {
              filter: name,
              page_size: pageSize,
              connections,
              ...(await measuredRow(server.baseUrl, token, paths, connections, server.pid)),
            };
            if (connections === 32) {
              row.pass_p99 = row.p99_ms <= p99Target && row.non_2xx === 0 && row.errors === 0;
              if (dialect === 'sqlite') row.pass_throughput = row.pages_per_s >= 3000;
            }
            rows.push(row);
            rowPaths.push(paths);
          }
        }
      }
      const rss = rssOf(server.pid);
      // The same pages from a minimal Fastify + SQLite route on the same file (SQLite only).
      const peer =
        dialect === 'sqlite'
          ? await peerRows(path.join(dataDir, 'fleetdeck.db'), rows, rowPaths, token)
          : undefined;
      const target32 = rows.filter((r) => r.connections === 32);
      return {
        dialect,
        nodes: N,
        insert_s: round(insertS, 1),
        server_start_ms: server.startMs,
        remark_online_s: round(remarkS, 2),
        settle_s: round(settleS, 2),
        counters,
        server_rss_mib: rss === null ? null : round(rss / 2 ** 20, 1),
        totals,
        rows,
        ...(peer ? { bare_fastify_sqlite: peer } : {}),
        pass: {
          p99_at_32: target32.every((r) => r.pass_p99),
          throughput_at_32:
            dialect === 'sqlite' ? target32.every((r) => r.pass_throughput) : 'no target',
          totals: Object.values(totals).every((t) => t.pass),
        },
        failing_rows: target32
          .filter((r) => !r.pass_p99 || r.pass_throughput === false)
          .map((r) => `${r.filter}/${r.page_size}`),
      };
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (pgDb) await pgDb.drop();
  }
}

/** One autocannon run over `paths`: latency, pages/s and the CPU of the serving process `pid`. */
async function measuredRow(baseUrl, token, paths, connections, pid) {
  const cpuBefore = cpuSecondsOf(pid);
  const r = await runAutocannon(baseUrl, token, paths, connections);
  const cpuAfter = cpuSecondsOf(pid);
  return {
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    pages_per_s: round(r.requests.total / r.duration, 0),
    requests: r.requests.total,
    server_cpu_cores:
      cpuBefore === null || cpuAfter === null ? null : round((cpuAfter - cpuBefore) / r.duration),
    non_2xx: r.non2xx,
    errors: r.errors,
  };
}

/**
 * Runs the rows' page paths against the peer (bench/node-list-bare.mjs) in its own process, with
 * the same warm-up, and adds the ratios to Fleetdeck's rows.
 */
async function peerRows(dbFile, rows, rowPaths, token) {
  const child = endOnSignal(
    fork(path.join(HERE, 'node-list-bare.mjs'), [], {
      stdio: 'inherit',
      env: { ...process.env, BARE_DB_FILE: dbFile },
    }),
  );
  try {
    const { port } = await new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`the peer exited with code ${code}`)));
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    if (WARMUP_S > 0) await runAutocannon(baseUrl, token, rowPaths[0], 32, WARMUP_S);
    const measured = [];
    for (const [i, row] of rows.entries()) {
      if (PEER_FILTERS && !PEER_FILTERS.includes(row.filter)) continue;
      const peer = await measuredRow(baseUrl, token, rowPaths[i], row.connections, child.pid);
      measured.push({
        filter: row.filter,
        page_size: row.page_size,
        connections: row.connections,
        ...peer,
      });
      row.peer_pages_per_s = peer.pages_per_s;
      row.peer_p99_ms = peer.p99_ms;
      row.ratio_pages_per_s_to_peer = peer.pages_per_s
        ? round(row.pages_per_s / peer.pages_per_s, 2)
        : null;
    }
    return {
      what: 'minimal Fastify + better-sqlite3 route on the same file and paths: no auth, no exact total, no presenter, no security headers, no logging (bench/node-list-bare.mjs)',
      rows: measured,
    };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

async function main() {
  requireBuilt();
  const started = Date.now();
  const results = [];
  for (const dialect of DIALECTS) results.push(await benchDialect(dialect));
  await sleep(0);
  console.log(
    JSON.stringify({
      benchmark: 'B6 node-list',
      mode: SMOKE ? 'smoke' : 'full',
      commit: gitCommit(),
      machine: machine(),
      workload: {
        nodes: N,
        distribution:
          '3 types (40/35/25 %), 8 models, 6 cities, 6 firmware versions, 30 % online, 55 % offline, 15 % not activated; tags location:<city> and esp.serial_num:<serial>',
        route: 'GET /v1/admin/nodes (raw access token), keyset pages following next_id',
        cursors_per_filter: CURSORS_PER_FILTER,
        page_sizes: PAGE_SIZES,
        connections: CONNECTIONS,
        duration_s_per_row: DURATION_S,
        warmup_s: WARMUP_S,
        note: 'every page answer includes the exact total, so page latency includes it; the "group" row pages one group through GET /v1/admin/node_group with node_details=true',
      },
      targets: {
        p99_ms_at_32: { sqlite: 20, postgres: 30 },
        pages_per_s_at_32_sqlite: 3000,
        exact_total_ms: 100,
      },
      results,
      elapsed_s: round((Date.now() - started) / 1000, 1),
    }),
  );
}

main().catch(failed);
