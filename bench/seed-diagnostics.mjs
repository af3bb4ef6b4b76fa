// B9's fixture: a fleet, its diagnostics (logs, metric points, node info, metric and variable
// descriptions), current faults with their history, and the statistics rollups, inserted with SQL
// into a migrated, stopped Fleetdeck database. Rows are what the server itself writes
// (services/diagnostics/diagnostics.apply.ts for the simulator's JSON reports, the fault ingest,
// services/stats for the rollups), inserted in arrival (time) order across nodes, as ingest
// leaves them on disk.
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { prng } from './lib.mjs';

const DAY = 86_400;
/** The log window the device report opens with (Month: 30 local days). */
export const LOG_SPAN_S = 30 * DAY;

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

/** The simulator's metrics (packages/simulator/src/diagnostics.ts): two common, one per type. */
const COMMON_METRICS = [
  { id: 'heap.free', label: 'Free heap', unit: 'bytes', path: 'heap' },
  { id: 'wifi.rssi', label: 'Wi-Fi RSSI', unit: 'dBm', path: 'Wi-Fi' },
];
const TYPE_METRIC = {
  'Air Conditioner': {
    id: 'compressor.current',
    label: 'Compressor current',
    unit: 'A',
    base: 6.5,
    spread10: 15,
  },
  Refrigerator: {
    id: 'cabinet.temp',
    label: 'Cabinet temperature',
    unit: '°C',
    base: 4,
    spread10: 12,
  },
  'Washing Machine': {
    id: 'drum.speed',
    label: 'Drum speed',
    unit: 'rpm',
    base: 900,
    spread10: 3000,
  },
};
export const METRICS_PER_NODE = 3;
/** The fault dimension of each type and its catalogue's err_codes (the contract's defaults). */
const FAULTS = {
  'Air Conditioner': {
    param: 'ACFault',
    codes: ['1', '2', '3', '4', '5', '6', '7', '8'],
    hot: '4',
  },
  Refrigerator: { param: 'RefFault', codes: ['1', '2', '3', '4', '5', '6', '7', '8'], hot: '5' },
  'Washing Machine': {
    param: 'WasherFault',
    codes: ['10', '21', '30', '40', '50', '60', '70', '90'],
    hot: '21',
  },
};
export const FAULT_DIMENSIONS = Object.values(FAULTS).map((f) => f.param);
/** Share of activated nodes reporting a fault now (the simulator's steady state is ~2.3 %). */
const FAULT_SHARE = 0.05;
const CRASH_SITES = {
  'Air Conditioner': [
    ['compressor_pid_step', 'main/compressor.c', 214],
    ['louver_set_angle', 'main/louver.c', 88],
  ],
  Refrigerator: [
    ['defrost_timer_cb', 'main/defrost.c', 131],
    ['door_sensor_isr', 'main/door.c', 57],
  ],
  'Washing Machine': [
    ['drum_motor_set_rpm', 'main/drum.c', 142],
    ['wash_cycle_step', 'main/cycle.c', 77],
  ],
};
const COMMON_FRAMES = [
  ['app_main_loop', 'main/app_main.c', 203],
  ['esp_rmaker_work_queue_task', 'components/esp_rainmaker/src/core/esp_rmaker_work_queue.c', 95],
  ['vPortTaskWrapper', 'FreeRTOS-Kernel/portable/xtensa/port.c', 162],
];
const WARNINGS = [
  ['wifi', 'RSSI below -80 dBm, roaming'],
  ['mqtt', 'Publish queue 80% full'],
  ['ota', 'No OTA partition marked valid yet'],
];
const ERRORS = [
  ['wifi', 'Disconnected, reason 201 (NO_AP_FOUND)'],
  ['sensor', 'NTC read out of range'],
];

const HASH = 'a'.repeat(64); // nobody connects in this benchmark
const BROKER_CREDENTIAL = `$7$101$${'s'.repeat(16)}$${'h'.repeat(88)}`;

/** Odd multiplier modulo 2^48 is a bijection: unique, well spread 12-hex-digit ids. */
const nodeIdOf = (i) =>
  ((i * 0x9e3779b1 + 0x1234567) % 2 ** 48).toString(16).toUpperCase().padStart(12, '0');

/** A small integer hash (deterministic pseudo-noise for values and choices). */
const mix = (a, b) => {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35);
  h ^= h >>> 13;
  h = Math.imul(h, 0x27d4eb2f);
  return (h ^ (h >>> 16)) >>> 0;
};
const hex = (n) => `0x${(n >>> 0).toString(16).padStart(8, '0')}`;

/**
 * What to insert: N nodes; D of the activated ones send diagnostics (10 % of the fleet by
 * default), each with `pointsPerSeries` points of each of its 3 metrics spread over the last
 * `metricSpanS` seconds and log lines spread over the last 30 days, all ending at `now` (epoch
 * seconds). Logs are skewed as in a real fleet: 1 % of the diagnostics nodes ("chatty": errors
 * and warnings on repeat) send half of the lines, `ratio` times as many as each of the others.
 */
export function diagnosticsPlan({
  nodes,
  diagNodes,
  logLines,
  metricPoints,
  metricSpanS,
  now,
  chattyShare = 0.01,
  chattyLogShare = 0.5,
}) {
  const chattyEvery = Math.max(1, Math.round(1 / chattyShare));
  const chattyNodes = Math.ceil(diagNodes / chattyEvery);
  const normalNodes = diagNodes - chattyNodes;
  // Rounded up: at least the asked-for totals.
  const logsPerNode = Math.max(1, Math.ceil((logLines * (1 - chattyLogShare)) / normalNodes));
  const ratio = Math.max(1, Math.round((logLines * chattyLogShare) / chattyNodes / logsPerNode));
  const pointsPerSeries = Math.max(1, Math.ceil(metricPoints / (diagNodes * METRICS_PER_NODE)));
  return {
    nodes,
    diagNodes,
    now,
    chattyEvery,
    chattyNodes,
    logsPerNode,
    logsPerChattyNode: logsPerNode * ratio,
    chattyRatio: ratio,
    logStepS: Math.max(1, Math.floor(LOG_SPAN_S / logsPerNode)),
    logLines: logsPerNode * normalNodes + logsPerNode * ratio * chattyNodes,
    pointsPerSeries,
    metricSpanS,
    metricStepS: Math.max(1, Math.floor(metricSpanS / pointsPerSeries)),
    metricPoints: pointsPerSeries * diagNodes * METRICS_PER_NODE,
  };
}

/** Yields node rows (registered_at and the other times in epoch seconds, as the server writes). */
function* nodeRows(count, now) {
  const rand = prng(42);
  const paramsRand = prng(7);
  for (let i = 0; i < count; i += 1) {
    const id = nodeIdOf(i);
    const [type, , models] = pick(rand, TYPES);
    const model = models[Math.floor(rand() * models.length)];
    const [city] = pick(rand, CITIES);
    const [fw] = pick(rand, FW);
    const [connected] = pick(rand, STATES);
    const serial = `SN${id}`;
    const registered = now - 400 * DAY + Math.floor(rand() * 300 * DAY);
    const activated = connected === null ? null : registered + 3600;
    // Online nodes carry an odd last_activity_at: the server's start marks them offline and
    // MARK_ONLINE_SQL puts them back.
    // (Even for every other node: activated_at's parity is random.)
    let lastActivity =
      activated === null ? null : activated - (activated % 2) + Math.floor(rand() * DAY) * 2;
    if (connected === 1) lastActivity += 1;
    const params =
      activated === null
        ? null
        : JSON.stringify({
            [type]: {
              Power: paramsRand() < 0.5,
              Mode: 'Auto',
              Temperature: Math.floor(16 + paramsRand() * 14),
              Speed: Math.floor(paramsRand() * 5),
              Remaining: '00:42:10',
              'Energy Today': Math.round(paramsRand() * 5000) / 1000,
            },
            Time: { TZ: 'Asia/Kolkata', 'TZ-POSIX': 'IST-5:30' },
            'Fault Status': { 'Fault Code': 0, 'Fault Description': '' },
          });
    yield {
      i,
      node_id: id,
      name: `${type} ${id.slice(-4)}`,
      type,
      model,
      fw_version: fw,
      city: city.toLowerCase(),
      serial,
      tags: [`location:${city}`, `esp.serial_num:${serial}`],
      registered_at: registered,
      activated_at: activated,
      connected,
      conn_changed_at: activated,
      last_activity_at: lastActivity,
      params,
    };
  }
}

const NODE_COLUMNS = [
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
const NODE_TYPES_PG = [
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
const nodeValues = (row) => [
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

/**
 * Walks the fleet once: node rows in batches (`onNodes`), and the diagnostics nodes (every
 * `stride`-th activated node, D of them) and current faults it picks on the way.
 */
async function walkFleet(plan, onNodes) {
  const activatedGuess = Math.max(1, Math.floor(plan.nodes * 0.85));
  const stride = Math.max(1, Math.floor(activatedGuess / plan.diagNodes));
  const diag = [];
  const faults = [];
  const history = [];
  let activated = 0;
  let batch = [];
  for (const row of nodeRows(plan.nodes, plan.now)) {
    batch.push(row);
    if (row.activated_at !== null) {
      if (activated % stride === 0 && diag.length < plan.diagNodes)
        diag.push(diagSeed(row, diag.length, plan));
      activated += 1;
      const h = mix(row.i, 77);
      const fault = FAULTS[row.type];
      if (h % 10_000 < FAULT_SHARE * 10_000) {
        // The firmware-skewed code of the simulator's faults (3.1.0 raises its type's hot code).
        const value =
          row.fw_version === '3.1.0' && h % 3 === 0
            ? fault.hot
            : fault.codes[(h >>> 8) % fault.codes.length];
        const since = plan.now - ((h >>> 4) % (6 * 3600));
        faults.push([row.node_id, fault.param, value, since]);
        history.push([row.node_id, fault.param, value, since]);
      } else if (h % 10 === 1) {
        // An earlier fault, raised and cleared (two history rows).
        const raised = plan.now - DAY - ((h >>> 4) % (20 * DAY));
        history.push([
          row.node_id,
          fault.param,
          fault.codes[(h >>> 8) % fault.codes.length],
          raised,
        ]);
        history.push([row.node_id, fault.param, '', raised + 600 + ((h >>> 12) % 5400)]);
      }
    }
    if (batch.length === 20_000) {
      await onNodes(batch);
      batch = [];
    }
  }
  if (batch.length) await onNodes(batch);
  if (diag.length < plan.diagNodes)
    throw new Error(`only ${diag.length} activated nodes for ${plan.diagNodes} diagnostics nodes`);
  // Arrival order: the history table's id order is the order the changes came in.
  history.sort((a, b) => a[3] - b[3]);
  // Each node reports with its own phase; rows arrive in time order across nodes.
  diag.sort((a, b) => a.metricPhase - b.metricPhase);
  const byLogPhase = [...diag].sort((a, b) => a.logPhase - b.logPhase);
  return { diag, byLogPhase, faults, history };
}

function diagSeed(row, index, plan) {
  const h = mix(index, 9);
  const tm = TYPE_METRIC[row.type];
  return {
    index,
    chatty: index % plan.chattyEvery === 0,
    node_id: row.node_id,
    type: row.type,
    fw: row.fw_version,
    chip: h % 4 === 0 ? 'esp32c3' : 'esp32',
    typeMetric: tm.id,
    tmBase: tm.base,
    tmSpread10: tm.spread10,
    rssiBase: -82 + (h % 38),
    metricPhase: h % plan.metricStepS,
    logPhase: mix(index, 11) % plan.logStepS,
    lastBoot: null,
  };
}

/** One metric point's value: deterministic noise around the simulator's levels. */
function metricValue(seed, k, mi) {
  const h = (seed.index * 7919 + k * 104_729) % 1_000_003;
  if (mi === 0) return 76_000 + (h % 1000) * 12;
  if (mi === 1) return seed.rssiBase + ((h % 81) - 40) / 10;
  return seed.tmBase + ((h % (2 * seed.tmSpread10 + 1)) - seed.tmSpread10) / 10;
}

/**
 * One log line of a diagnostics node as applyDiagnostics stores the simulator's JSON report:
 * mostly the report's "Diagnostics report sent" event, 5 % warnings, 2 % errors, 0.2 % crashes
 * (each with its core-dump data) and 0.2 % reboots. Returns the row's column values.
 */
function logLine(seed, j, ts) {
  const h = mix(seed.index, j + 1_000_003);
  const roll = h % 10_000;
  let type = 'event';
  let tag = 'diag';
  let message = 'Diagnostics report sent';
  let data = null;
  if (roll < 20) {
    const xtensa = seed.chip === 'esp32';
    const codeBase = xtensa ? 0x400d0000 : 0x42000000;
    const sites = [CRASH_SITES[seed.type][h % 2], ...COMMON_FRAMES];
    const backtrace = sites.map(([method, file, line], n) => ({
      address: hex(codeBase + 0x1000 + (mix(h, n) % 0xfe000)),
      method,
      file,
      line,
    }));
    const registers = {};
    for (let r = 0; r < (xtensa ? 16 : 8); r += 1)
      registers[`a${r}`] = hex(0x3ffb0000 + (mix(h, r + 50) % 0xffff));
    if (!xtensa) {
      registers.ra = backtrace[1].address;
      registers.sp = hex(0x3fc90000 + (h % 0xffff));
    }
    type = 'crash';
    tag = 'panic';
    message = `Guru Meditation Error: Core 0 panic'ed (${xtensa ? 'LoadProhibited' : 'Load access fault'})`;
    data = JSON.stringify({
      prev_app_version: seed.fw,
      pc: backtrace[0].address,
      registers,
      cause: xtensa ? 'LoadProhibited (28)' : 'Load access fault (5)',
      vaddr: hex(h % 0x40),
      task: 'main',
      backtrace,
      corrupted: h % 10 === 0,
    });
  } else if (roll < 40) {
    const panic = roll < 30;
    const reason = panic ? 4 : 1;
    const name = panic ? 'ESP_RST_PANIC' : 'ESP_RST_POWERON';
    type = 'reboot';
    tag = 'boot';
    message = `Reboot: ${name}`;
    data = JSON.stringify({ reason, reset_reason: name, app_version: seed.fw, chip: seed.chip });
    seed.lastBoot = Math.max(seed.lastBoot ?? 0, ts);
  } else if (roll < 540) {
    [tag, message] = WARNINGS[h % WARNINGS.length];
    type = 'warning';
  } else if (roll < 740) {
    [tag, message] = ERRORS[h % ERRORS.length];
    type = 'error';
  }
  // node_id, ts, type, tag, message, task, sha256, elf_missing, data
  return [seed.node_id, ts, type, tag, message, null, null, 0, data];
}
const LOG_COLUMNS = [
  'node_id',
  'ts',
  'type',
  'tag',
  'message',
  'task',
  'sha256',
  'elf_missing',
  'data',
];
const LOG_TYPES_PG = ['text', 'int8', 'text', 'text', 'text', 'text', 'text', 'int2', 'text'];

/** Log rows in arrival order, in batches of `size`. */
function* logBatches(plan, byLogPhase, size) {
  const start = plan.now - LOG_SPAN_S;
  let batch = [];
  const r = plan.chattyRatio;
  for (let j = 0; j < plan.logsPerNode; j += 1) {
    for (const seed of byLogPhase) {
      if (seed.chatty) {
        // r lines in the same step of the others, evenly spaced.
        for (let q = 0; q < r; q += 1) {
          const line = j * r + q;
          batch.push(
            logLine(seed, line, start + seed.logPhase + Math.floor((line * plan.logStepS) / r)),
          );
        }
      } else batch.push(logLine(seed, j, start + seed.logPhase + j * plan.logStepS));
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length) yield batch;
}

const projectOf = (type) => `fleetdeck-${type.toLowerCase().replace(/ /g, '-')}`;
const nodeInfoRow = (seed, plan) => [
  seed.node_id,
  projectOf(seed.type),
  seed.fw,
  seed.chip,
  null,
  seed.lastBoot,
  plan.now,
];
const metricMetaRows = (seed) => {
  const tm = TYPE_METRIC[seed.type];
  return [
    ...COMMON_METRICS.map((m) => [seed.node_id, m.id, m.label, m.unit, m.path]),
    [seed.node_id, tm.id, tm.label, tm.unit, null],
  ];
};
const paramMetaRows = (seed) => [
  [seed.node_id, 'wifi.rssi_now', 'RSSI', 'Wi-Fi', 0],
  [seed.node_id, 'wifi.channel', 'Channel', 'Wi-Fi', 1],
];
const paramValueRows = (seed, plan) => [
  [seed.node_id, 'wifi.rssi_now', plan.now - 1, JSON.stringify(seed.rssiBase)],
  [seed.node_id, 'wifi.channel', plan.now - 1, JSON.stringify(1 + (seed.index % 11))],
];

/** The counters the node list and the statistics summary read (see node-list.mjs). */
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
/** The embedded broker marks every online node offline at start (ADR 0005); put them back. */
export const MARK_ONLINE_SQL = `UPDATE nodes SET connected = 1 WHERE connected = 0 AND last_activity_at % 2 = 1`;
/**
 * The rollups the server keeps (services/stats, ADR 8): registrations per UTC day as
 * recordNodesRegistered adds them, and the end-of-day online/offline snapshots the daily job
 * writes, here 30 % / 55 % of the nodes registered by that day, up to yesterday (today is the
 * live counter).
 */
function statsRows(dayCounts, today) {
  const rows = [];
  const days = [...dayCounts.keys()].sort((a, b) => a - b);
  for (const day of days) rows.push(['registered_nodes', day, dayCounts.get(day)]);
  let registered = 0;
  let next = 0;
  for (let day = days[0]; day < today; day += 1) {
    while (next < days.length && days[next] <= day) registered += dayCounts.get(days[next++]);
    rows.push(['online_nodes', day, Math.round(registered * 0.3)]);
    rows.push(['offline_nodes', day, Math.round(registered * 0.55)]);
  }
  return rows;
}

const progress = (message) =>
  console.error(`  ${new Date().toISOString().slice(11, 19)} ${message}`);
const timed = async (label, fn, times) => {
  const started = Date.now();
  const result = await fn();
  times[label] = Math.round((Date.now() - started) / 100) / 10;
  progress(`${label}: ${times[label]} s`);
  return result;
};

// ---------------------------------------------------------------------------------------------
// SQLite
// ---------------------------------------------------------------------------------------------

/** Inserts the fixture into the server's SQLite file; returns the seeding times and the picks. */
export async function seedSqlite(dataDir, plan) {
  const db = new Database(path.join(dataDir, 'fleetdeck.db'));
  const times = {};
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    // Foreign keys hold by construction; a big cache keeps the primary-key index of the points
    // (filled in time order, so at random places) in memory while it grows.
    db.pragma('foreign_keys = OFF');
    db.pragma('cache_size = -1048576');
    db.pragma('temp_store = MEMORY');
    const insertNode = db.prepare(
      `INSERT INTO nodes (${NODE_COLUMNS.join(',')}) VALUES (${NODE_COLUMNS.map(() => '?').join(',')})`,
    );
    const insertTag = db.prepare('INSERT INTO node_tags (tag, node_id) VALUES (?, ?)');
    const dayCounts = new Map();
    const nodeBatch = db.transaction((rows) => {
      for (const row of rows) {
        insertNode.run(nodeValues(row));
        for (const tag of row.tags) insertTag.run(tag, row.node_id);
        const day = Math.floor(row.registered_at / DAY);
        dayCounts.set(day, (dayCounts.get(day) ?? 0) + 1);
      }
    });
    const fleet = await timed(
      'nodes_s',
      () => walkFleet(plan, async (rows) => nodeBatch(rows)),
      times,
    );

    await timed(
      'faults_stats_s',
      () => {
        const insertFault = db.prepare(
          'INSERT INTO node_faults (node_id, param, value, since) VALUES (?, ?, ?, ?)',
        );
        const insertHistory = db.prepare(
          'INSERT INTO node_fault_history (node_id, param, value, timestamp) VALUES (?, ?, ?, ?)',
        );
        const insertStat = db.prepare(
          `INSERT INTO stats_daily (metric, day, value) VALUES (?, ?, ?)
           ON CONFLICT (metric, day) DO UPDATE SET value = excluded.value`,
        );
        db.transaction(() => {
          for (const row of fleet.faults) insertFault.run(row);
          for (const row of fleet.history) insertHistory.run(row);
          for (const row of statsRows(dayCounts, Math.floor(plan.now / DAY))) insertStat.run(row);
          for (const sql of COUNTERS_SQL) db.exec(sql);
        })();
      },
      times,
    );

    // The tables' own indexes are built after the load (as a restore would), from the schema's
    // own definitions. The points' primary key (an automatic index) grows during the load.
    const indexes = db
      .prepare(
        `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
         AND tbl_name IN ('diag_logs', 'diag_metric_points')`,
      )
      .all();
    for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
    await timed(
      'logs_s',
      () => {
        const insertLog = db.prepare(
          `INSERT INTO diag_logs (${LOG_COLUMNS.join(',')}) VALUES (${LOG_COLUMNS.map(() => '?').join(',')})`,
        );
        const write = db.transaction((rows) => {
          for (const row of rows) insertLog.run(row);
        });
        let done = 0;
        let reported = 0;
        for (const rows of logBatches(plan, fleet.byLogPhase, 100_000)) {
          write(rows);
          done += rows.length;
          if (done >= reported + 2_000_000) {
            reported = done;
            progress(`logs ${done.toLocaleString('en')}`);
          }
        }
      },
      times,
    );
    await timed(
      'metric_points_s',
      () => {
        const insertPoint = db.prepare(
          'INSERT INTO diag_metric_points (node_id, metric_id, ts, val) VALUES (?, ?, ?, ?)',
        );
        const start = plan.now - plan.metricSpanS;
        const write = db.transaction((k) => {
          for (const seed of fleet.diag) {
            const ts = start + seed.metricPhase + k * plan.metricStepS;
            insertPoint.run(seed.node_id, COMMON_METRICS[0].id, ts, metricValue(seed, k, 0));
            insertPoint.run(seed.node_id, COMMON_METRICS[1].id, ts, metricValue(seed, k, 1));
            insertPoint.run(seed.node_id, seed.typeMetric, ts, metricValue(seed, k, 2));
          }
        });
        // One time step across every node per transaction: arrival order.
        for (let k = 0; k < plan.pointsPerSeries; k += 1) {
          write(k);
          if (k % 50 === 49) progress(`metric step ${k + 1}/${plan.pointsPerSeries}`);
        }
      },
      times,
    );
    await timed(
      'meta_s',
      () => {
        const info = db.prepare(
          `INSERT INTO diag_node_info (node_id, project, app_version, chip, sha256, last_boot, last_seen)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        );
        const meta = db.prepare(
          'INSERT INTO diag_metric_meta (node_id, metric_id, label, unit, path) VALUES (?, ?, ?, ?, ?)',
        );
        const pmeta = db.prepare(
          'INSERT INTO diag_param_meta (node_id, param_id, label, path, position) VALUES (?, ?, ?, ?, ?)',
        );
        const pvalue = db.prepare(
          'INSERT INTO diag_param_values (node_id, param_id, ts, val) VALUES (?, ?, ?, ?)',
        );
        db.transaction(() => {
          for (const seed of fleet.diag) {
            info.run(nodeInfoRow(seed, plan));
            for (const row of metricMetaRows(seed)) meta.run(row);
            for (const row of paramMetaRows(seed)) pmeta.run(row);
            for (const row of paramValueRows(seed, plan)) pvalue.run(row);
          }
        })();
      },
      times,
    );
    await timed(
      'indexes_s',
      () => {
        for (const index of indexes) db.exec(index.sql);
      },
      times,
    );
    // No ANALYZE: the server keeps no planner statistics on SQLite (ADR 36).
    await timed('checkpoint_s', () => db.pragma('wal_checkpoint(TRUNCATE)'), times);
    return { times, diag: fleet.diag, faults: fleet.faults.length, history: fleet.history.length };
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL
// ---------------------------------------------------------------------------------------------

/** `INSERT … SELECT * FROM unnest($1::t[], …)` of column-major arrays. */
async function insertUnnest(client, table, columns, types, rows) {
  const cols = columns.map(() => []);
  for (const row of rows) for (let c = 0; c < columns.length; c += 1) cols[c].push(row[c]);
  await client.query(
    `INSERT INTO ${table} (${columns.join(',')}) SELECT * FROM unnest(${types
      .map((t, i) => `$${i + 1}::${t}[]`)
      .join(',')})`,
    cols,
  );
}

/** Inserts the fixture into the server's PostgreSQL database (superuser or owner). */
export async function seedPostgres(url, plan) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const times = {};
  try {
    await client.query(`SET maintenance_work_mem = '1GB'`);
    const dayCounts = new Map();
    const fleet = await timed(
      'nodes_s',
      () =>
        walkFleet(plan, async (rows) => {
          for (const row of rows) {
            const day = Math.floor(row.registered_at / DAY);
            dayCounts.set(day, (dayCounts.get(day) ?? 0) + 1);
          }
          await client.query('BEGIN');
          await insertUnnest(client, 'nodes', NODE_COLUMNS, NODE_TYPES_PG, rows.map(nodeValues));
          await insertUnnest(
            client,
            'node_tags',
            ['tag', 'node_id'],
            ['text', 'text'],
            rows.flatMap((row) => row.tags.map((tag) => [tag, row.node_id])),
          );
          await client.query('COMMIT');
        }),
      times,
    );
    // Foreign keys hold by construction: skip their per-row checks while loading (needs a
    // superuser; otherwise they are checked).
    let fkChecks = true;
    try {
      await client.query(`SET session_replication_role = replica`);
      fkChecks = false;
    } catch {
      progress('session_replication_role not allowed: foreign keys are checked per row');
    }
    await timed(
      'faults_stats_s',
      async () => {
        await client.query('BEGIN');
        for (let i = 0; i < fleet.faults.length; i += 20_000)
          await insertUnnest(
            client,
            'node_faults',
            ['node_id', 'param', 'value', 'since'],
            ['text', 'text', 'text', 'int8'],
            fleet.faults.slice(i, i + 20_000),
          );
        for (let i = 0; i < fleet.history.length; i += 20_000)
          await insertUnnest(
            client,
            'node_fault_history',
            ['node_id', 'param', 'value', 'timestamp'],
            ['text', 'text', 'text', 'int8'],
            fleet.history.slice(i, i + 20_000),
          );
        const stats = statsRows(dayCounts, Math.floor(plan.now / DAY));
        await client.query(
          `INSERT INTO stats_daily (metric, day, value)
           SELECT * FROM unnest($1::text[], $2::int4[], $3::int8[])
           ON CONFLICT (metric, day) DO UPDATE SET value = excluded.value`,
          [stats.map((r) => r[0]), stats.map((r) => r[1]), stats.map((r) => r[2])],
        );
        for (const sql of COUNTERS_SQL) await client.query(sql);
        await client.query('COMMIT');
      },
      times,
    );

    // The tables' indexes and the points' primary key are built after the load (as pg_restore
    // does), from the definitions the migrations left; the logs' id key stays (ids ascend).
    const { rows: indexes } = await client.query(
      `SELECT i.tablename, i.indexname, i.indexdef, c.conname, pg_get_constraintdef(c.oid) AS condef
       FROM pg_indexes i
       LEFT JOIN pg_constraint c ON c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass
       WHERE i.schemaname = current_schema() AND i.tablename IN ('diag_logs', 'diag_metric_points')
         AND i.indexname <> 'diag_logs_pkey'`,
    );
    for (const index of indexes)
      await client.query(
        index.conname
          ? `ALTER TABLE ${index.tablename} DROP CONSTRAINT ${index.conname}`
          : `DROP INDEX ${index.indexname}`,
      );
    await timed(
      'logs_s',
      async () => {
        let done = 0;
        let reported = 0;
        for (const rows of logBatches(plan, fleet.byLogPhase, 20_000)) {
          await insertUnnest(client, 'diag_logs', LOG_COLUMNS, LOG_TYPES_PG, rows);
          done += rows.length;
          if (done >= reported + 1_000_000) {
            reported = done;
            progress(`logs ${done.toLocaleString('en')}`);
          }
        }
      },
      times,
    );
    await timed(
      'metric_points_s',
      async () => {
        // The diagnostics nodes in phase order; each statement writes one time step of every
        // node, so rows land in arrival order (generate_series would write a node at a time).
        await client.query(`CREATE TEMP TABLE bench_diag_seed (idx int4, node_id text, type_metric text,
          tm_base float8, tm_spread10 int4, rssi_base int4, phase int4)`);
        const d = fleet.diag;
        await client.query(
          `INSERT INTO bench_diag_seed SELECT * FROM unnest($1::int4[], $2::text[], $3::text[],
             $4::float8[], $5::int4[], $6::int4[], $7::int4[])`,
          [
            d.map((s) => s.index),
            d.map((s) => s.node_id),
            d.map((s) => s.typeMetric),
            d.map((s) => s.tmBase),
            d.map((s) => s.tmSpread10),
            d.map((s) => s.rssiBase),
            d.map((s) => s.metricPhase),
          ],
        );
        const start = plan.now - plan.metricSpanS;
        // The same values as metricValue(), in SQL.
        const step = `INSERT INTO diag_metric_points (node_id, metric_id, ts, val)
          SELECT s.node_id, m.id, $1::int8 + s.phase + $2::int8 * $3::int8,
            CASE m.mi
              WHEN 0 THEN 76000 + ((s.idx::int8 * 7919 + $2::int8 * 104729) % 1000003 % 1000) * 12
              WHEN 1 THEN s.rssi_base + (((s.idx::int8 * 7919 + $2::int8 * 104729) % 1000003 % 81) - 40) / 10.0
              ELSE s.tm_base + (((s.idx::int8 * 7919 + $2::int8 * 104729) % 1000003
                % (2 * s.tm_spread10 + 1)) - s.tm_spread10) / 10.0
            END
          FROM bench_diag_seed s
          CROSS JOIN LATERAL (VALUES (0, 'heap.free'), (1, 'wifi.rssi'), (2, s.type_metric)) AS m(mi, id)`;
        for (let k = 0; k < plan.pointsPerSeries; k += 1) {
          await client.query(step, [start, k, plan.metricStepS]);
          if (k % 25 === 24) progress(`metric step ${k + 1}/${plan.pointsPerSeries}`);
        }
      },
      times,
    );
    await timed(
      'meta_s',
      async () => {
        await client.query('BEGIN');
        for (let i = 0; i < fleet.diag.length; i += 20_000) {
          const part = fleet.diag.slice(i, i + 20_000);
          await insertUnnest(
            client,
            'diag_node_info',
            ['node_id', 'project', 'app_version', 'chip', 'sha256', 'last_boot', 'last_seen'],
            ['text', 'text', 'text', 'text', 'text', 'int8', 'int8'],
            part.map((seed) => nodeInfoRow(seed, plan)),
          );
          await insertUnnest(
            client,
            'diag_metric_meta',
            ['node_id', 'metric_id', 'label', 'unit', 'path'],
            ['text', 'text', 'text', 'text', 'text'],
            part.flatMap(metricMetaRows),
          );
          await insertUnnest(
            client,
            'diag_param_meta',
            ['node_id', 'param_id', 'label', 'path', 'position'],
            ['text', 'text', 'text', 'text', 'int4'],
            part.flatMap(paramMetaRows),
          );
          await insertUnnest(
            client,
            'diag_param_values',
            ['node_id', 'param_id', 'ts', 'val'],
            ['text', 'text', 'int8', 'text'],
            part.flatMap((seed) => paramValueRows(seed, plan)),
          );
        }
        await client.query('COMMIT');
      },
      times,
    );
    if (!fkChecks) await client.query(`SET session_replication_role = DEFAULT`);
    await timed(
      'indexes_s',
      async () => {
        for (const index of indexes)
          await client.query(
            index.conname
              ? `ALTER TABLE ${index.tablename} ADD CONSTRAINT ${index.conname} ${index.condef}`
              : index.indexdef,
          );
      },
      times,
    );
    // What autovacuum leaves after a bulk load (this machine's PostgreSQL runs with it off):
    // statistics, hint bits and the visibility map.
    await timed('vacuum_analyze_s', () => client.query('VACUUM ANALYZE'), times);
    return { times, diag: fleet.diag, faults: fleet.faults.length, history: fleet.history.length };
  } finally {
    await client.end();
  }
}
