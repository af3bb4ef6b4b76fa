// The large-fleet fixture of the list benchmarks (B6 node-list, B8 browser-lists): N nodes
// bulk-inserted with SQL into a fresh database the built server has migrated, as a registered,
// reporting fleet's rows look (ADR 26), plus one hand-made group and the node counters.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { prng, startServer } from './lib.mjs';

export const TYPES = [
  ['Air Conditioner', 0.4, ['FD-AC-12', 'FD-AC-18', 'FD-AC-24']],
  ['Refrigerator', 0.35, ['FD-RF-300', 'FD-RF-450']],
  ['Washing Machine', 0.25, ['FD-WM-7', 'FD-WM-9', 'FD-WM-11']],
];
export const CITIES = [
  ['Delhi', 0.25],
  ['Mumbai', 0.22],
  ['Bengaluru', 0.18],
  ['Hyderabad', 0.14],
  ['Chennai', 0.12],
  ['Pune', 0.09],
];
export const FW = [
  ['3.0.0', 0.1],
  ['3.0.1', 0.15],
  ['3.1.0', 0.3],
  ['3.1.2', 0.3],
  ['3.2.0', 0.14],
  ['4.0.0-rc1', 0.01],
];
// connected: 1 online (30 %), 0 offline (55 %), null not activated (15 %).
export const STATES = [
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
export const nodeIdOf = (i) =>
  ((i * 0x9e3779b1 + 0x1234567) % 2 ** 48).toString(16).toUpperCase().padStart(12, '0');

/** Yields node rows. Online nodes carry an odd last_activity_at (see markOnline). */
export function* nodeRows(count) {
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

export const COUNTERS_SQL = [
  `DELETE FROM node_counters
     WHERE name IN ('total','online','offline','not_activated') OR name LIKE '%|%'`,
  `INSERT INTO node_counters (name, value)
     SELECT 'total', COUNT(*) FROM nodes
     UNION ALL SELECT 'online', COUNT(*) FROM nodes WHERE connected = 1
     UNION ALL SELECT 'offline', COUNT(*) FROM nodes WHERE connected = 0
     UNION ALL SELECT 'not_activated', COUNT(*) FROM nodes WHERE connected IS NULL`,
  // By state and type (migration 0021): the total of a list filtered by status and type.
  `INSERT INTO node_counters (name, value)
     SELECT (CASE WHEN connected IS NULL THEN 'not_activated'
                  WHEN connected = 1 THEN 'online' ELSE 'offline' END) || '|' || type, COUNT(*)
     FROM nodes GROUP BY connected, type`,
];
// B6's group filter: a hand-made group of ~10 % of the fleet, paged as the group view reads it.
export const GROUP_ID = 'B6B6-0001';
export const GROUP_SQL = [
  `INSERT INTO node_groups (group_id, group_name, description, is_automatic, created_at)
   VALUES ('${GROUP_ID}', 'B6 group', '', 0, 0)`,
  `INSERT INTO node_group_members (group_id, node_id, source)
   SELECT '${GROUP_ID}', node_id, 'manual' FROM nodes WHERE registered_at % 10 = 0`,
];
// The embedded broker marks every online node offline at start (ADR 0005); put them back.
export const MARK_ONLINE_SQL = `UPDATE nodes SET connected = 1 WHERE connected = 0 AND last_activity_at % 2 = 1`;

export function sqliteStore(dataDir) {
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
    },
    // The server keeps no planner statistics on SQLite, and its list SQL does not depend on them
    // (ADR 36): nothing to settle, so the benchmark measures the plans the product runs.
    async settle() {},
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

export async function postgresStore(url) {
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

export async function createPgDatabase(baseUrl) {
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

/** Loads the fixture into a migrated, stopped database: N nodes, the group, the counters. */
export async function loadFleet(store, count) {
  await store.insert(count);
  for (const sql of GROUP_SQL) await store.exec(sql);
  for (const sql of COUNTERS_SQL) await store.exec(sql);
}

/**
 * Once the server has started (its broker marks every online node offline, ADR 0005): the rows
 * with an odd `last_activity_at` back online, and the counters recomputed. Meant to be the 30 %
 * online rows; it comes out at ~42.5 % online, ~42.5 % offline (bench/README.md, browser-lists).
 */
export async function markOnline(store) {
  await store.exec(MARK_ONLINE_SQL);
  for (const sql of COUNTERS_SQL) await store.exec(sql);
}

/**
 * A built server on a fresh SQLite `dataDir` holding `count` fixture nodes, as node-list.mjs
 * prepares its SQLite run: first start (migrate, create the admin), stop, bulk insert, start,
 * online nodes restored (no `ANALYZE`, ADR 36). Returns { server, insertS, remarkS, settleS, counters }.
 */
export async function seededSqliteServer(dataDir, count, env = {}) {
  const fullEnv = { DATA_DIR: dataDir, ...env };
  const first = await startServer(fullEnv);
  await first.stop();
  const store = sqliteStore(dataDir);
  try {
    let started = Date.now();
    await loadFleet(store, count);
    const insertS = (Date.now() - started) / 1000;
    const server = await startServer(fullEnv);
    try {
      started = Date.now();
      await markOnline(store);
      const remarkS = (Date.now() - started) / 1000;
      started = Date.now();
      await store.settle();
      const settleS = (Date.now() - started) / 1000;
      const counters = Object.fromEntries(
        (await store.query('SELECT name, value FROM node_counters')).map((r) => [
          r.name,
          Number(r.value),
        ]),
      );
      return { server, insertS, remarkS, settleS, counters };
    } catch (error) {
      await server.stop();
      throw error;
    }
  } finally {
    await store.close();
  }
}
