// B9: the diagnostics and statistics queries of the dashboard over a large fleet: one node's 24 h
// metric series, a node's log page, and the statistics dashboard's fleet figures (online/offline
// from the rollups, fault distribution). The fixture (bench/seed-diagnostics.mjs) is inserted
// with SQL into a fresh database while the built server is stopped; the server then serves it.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  SMOKE,
  benchTempDir,
  cleanUpOnSignal,
  cpuSecondsOf,
  failed,
  gitCommit,
  login,
  machine,
  percentile,
  prng,
  requireBuilt,
  round,
  rssOf,
  startServer,
} from './lib.mjs';
import {
  COUNTERS_SQL,
  FAULT_DIMENSIONS,
  MARK_ONLINE_SQL,
  METRICS_PER_NODE,
  diagnosticsPlan,
  seedPostgres,
  seedSqlite,
} from './seed-diagnostics.mjs';
import Database from 'better-sqlite3';

const N = Number(process.env.BENCH_NODES ?? (SMOKE ? 20_000 : 1_000_000));
// Nodes that send diagnostics: 10 % of the fleet unless BENCH_DIAG_NODES says otherwise.
const DIAG_NODES = Number(process.env.BENCH_DIAG_NODES ?? Math.round(N / 10));
const LOG_LINES = Number(process.env.BENCH_LOG_LINES ?? (SMOKE ? 200_000 : 10_000_000));
// B9: 100M metric points on PostgreSQL, 10M on SQLite.
const METRIC_POINTS = {
  sqlite: Number(process.env.BENCH_METRIC_POINTS ?? (SMOKE ? 200_000 : 10_000_000)),
  postgres: Number(
    process.env.BENCH_PG_METRIC_POINTS ??
      process.env.BENCH_METRIC_POINTS ??
      (SMOKE ? 200_000 : 100_000_000),
  ),
};
// The points of each series are spread over this many hours before the seeding's "now".
const METRIC_SPAN_S = Number(process.env.BENCH_METRIC_HOURS ?? 24) * 3600;
// Each measured row runs this long (per concurrency).
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? (SMOKE ? 0.5 : 10));
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? (SMOKE ? 0.5 : 3));
// 1 client: one operator, the latency the targets judge; 8: several operators at once (full run).
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? (SMOKE ? '1' : '1,8')).split(',').map(Number);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres')
  .split(',')
  .filter((d) => d !== 'postgres' || process.env.BENCH_DATABASE_URL);
// Distinct random diagnostics nodes each node row cycles over (each request another node).
const SAMPLE_NODES = Number(process.env.BENCH_SAMPLE_NODES ?? (SMOKE ? 500 : 5_000));
// Nodes whose log pages 2–5 are walked first (the Next button) for the next-page row.
const WALK_NODES = SMOKE ? 15 : 400;
// BENCH_QUERIES (a comma list of row names) narrows a run, e.g. for a profile.
const ONLY = process.env.BENCH_QUERIES?.split(',');
// The fleet's viewers are in India (IST).
const TZ = 19_800;
const DAY = 86_400;

const TARGETS_MS = { metric_series_24h: 30, stats: 100, log_page: 50 };

const log = (message) => console.error(`${new Date().toISOString().slice(11, 19)} ${message}`);

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

/** Runs `statements` on the benchmark's database (the server may be running). */
async function runSql(dialect, target, statements) {
  if (dialect === 'postgres') {
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    try {
      for (const sql of statements) await client.query(sql);
    } finally {
      await client.end();
    }
  } else {
    const db = new Database(`${target}/fleetdeck.db`);
    db.pragma('busy_timeout = 10000');
    try {
      for (const sql of statements) db.exec(sql);
    } finally {
      db.close();
    }
  }
}

/** GET over keep-alive sockets: status, body and the time to the last byte. */
function getter(baseUrl, token, sockets) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const { hostname, port } = new URL(baseUrl);
  return {
    get(path) {
      return new Promise((resolve, reject) => {
        const started = process.hrtime.bigint();
        const request = http.get(
          { hostname, port, path, agent, headers: { authorization: token } },
          (response) => {
            const chunks = [];
            response.on('data', (chunk) => chunks.push(chunk));
            response.on('end', () =>
              resolve({
                status: response.statusCode,
                body: Buffer.concat(chunks),
                ms: Number(process.hrtime.bigint() - started) / 1e6,
              }),
            );
            response.on('error', reject);
          },
        );
        request.on('error', reject);
      });
    },
    close: () => agent.destroy(),
  };
}

async function getJson(client, path) {
  const { status, body } = await client.get(path);
  if (status !== 200) throw new Error(`GET ${path}: ${status} ${body.toString().slice(0, 300)}`);
  return JSON.parse(body.toString());
}

/**
 * `connections` clients, each sending its next request when the previous answer is in, for
 * `seconds`, cycling over `jobs` (a path, or a function that runs several requests and resolves
 * to {status}). Latency per job to its last byte; CPU of the server meanwhile.
 */
async function measure(baseUrl, token, jobs, connections, seconds, pid) {
  const client = getter(baseUrl, token, connections);
  const times = [];
  let next = 0;
  let non200 = 0;
  let errors = 0;
  const cpuBefore = cpuSecondsOf(pid);
  const started = Date.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < deadline) {
        const job = jobs[next++ % jobs.length];
        try {
          const t0 = process.hrtime.bigint();
          const { status } = typeof job === 'string' ? await client.get(job) : await job(client);
          times.push(Number(process.hrtime.bigint() - t0) / 1e6);
          if (status !== 200) non200 += 1;
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  const cpuAfter = cpuSecondsOf(pid);
  client.close();
  times.sort((a, b) => a - b);
  return {
    connections,
    requests: times.length,
    per_s: round(times.length / elapsed, 0),
    p50_ms: round(percentile(times, 50)),
    p90_ms: round(percentile(times, 90)),
    p99_ms: round(percentile(times, 99)),
    max_ms: round(times.at(-1)),
    server_cpu_cores:
      cpuBefore === null || cpuAfter === null ? null : round((cpuAfter - cpuBefore) / elapsed),
    non_200: non200,
    errors,
  };
}

const qs = (params) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, String(v));
  return search.toString();
};
const isoDay = (day) => new Date(day * DAY * 1000).toISOString().slice(0, 10);

/** The paths of every measured row, built from `now` (seconds) like the dashboard builds them. */
function rowPaths(diag, chatty, now, walked) {
  const rand = prng(99);
  const sampleOf = (nodes) => {
    const picked = [];
    const pool = [...nodes];
    for (let i = 0; i < Math.min(SAMPLE_NODES, pool.length); i += 1) {
      const at = i + Math.floor(rand() * (pool.length - i));
      [pool[i], pool[at]] = [pool[at], pool[i]];
      picked.push(pool[i]);
    }
    return picked;
  };
  const sample = sampleOf(diag);
  const chattySample = sampleOf(chatty);
  // The Graphs tab: the last 24 h (graphWindow), limit 200 for a 1-day range (metricListLimit).
  const series = (seed, ids) =>
    `/insights/v1/node/metric/list?${qs({ node_id: seed.node_id, start: now - DAY, end: now, limit: 200, tz: TZ, id: ids })}`;
  // The device report's default window: Month, from the local midnight 29 days ago.
  const monthStart = Math.floor((now + TZ) / DAY) * DAY - TZ - 29 * DAY;
  const window = (seed) => ({ node_id: seed.node_id, time: 'Month', start: monthStart, tz: TZ });
  const today = Math.floor(now / DAY);
  const end = new Date(today * DAY * 1000);
  const startMonth = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 11, 1));
  const statsDaily = `/v1/admin/stats_info?${qs({ duration: 'daily', start_date: isoDay(today - 6), end_date: isoDay(today) })}`;
  const statsMonthly = `/v1/admin/stats_info?${qs({
    duration: 'monthly',
    start_month: startMonth.getUTCMonth() + 1,
    start_year: startMonth.getUTCFullYear(),
    end_month: end.getUTCMonth() + 1,
    end_year: end.getUTCFullYear(),
  })}`;
  const distribution = FAULT_DIMENSIONS.map(
    (dimension) =>
      `/insights/v1/param/byvalue/count?${qs({ dimensionname: dimension, datatype: 2, limit: 1000 })}`,
  );
  const catalogues = ['ac_faults', 'refrigerator_faults', 'washing_machine_faults'].map(
    (name) => `/v1/admin/common_custom_data?${qs({ name })}`,
  );
  const summary = '/v1/admin/stats_info/summary';
  // What the statistics dashboard asks for when it opens (stats-dashboard.tsx): all at once.
  const dashboard = [summary, statsDaily, ...distribution, ...catalogues];
  const dashboardJob = async (client) => {
    const answers = await Promise.all(dashboard.map((p) => client.get(p)));
    return { status: answers.every((a) => a.status === 200) ? 200 : 500 };
  };
  return {
    baseline: {
      what: 'an authenticated answer without a database query (deployment_capabilities): the noise floor of this machine and hour',
      paths: [`/v1/admin/deployment_capabilities?name=InsightsAPIUrl`],
      smoke: true,
    },
    metric_series_24h: {
      what: "one node's 24 h series of one metric (heap.free), as a graph card asks",
      target: 'metric_series_24h',
      paths: sample.map((seed) => series(seed, ['heap.free'])),
    },
    metric_series_24h_all: {
      what: "one node's 24 h series of its 3 metrics on one chart (the multigraph)",
      target: 'metric_series_24h',
      paths: sample.map((seed) => series(seed, ['heap.free', 'wifi.rssi', seed.typeMetric])),
    },
    log_page_first: {
      what: "a node's first log page (20 entries) of the Month window",
      target: 'log_page',
      paths: sample.map((seed) => `/insights/v1/node/log/list?${qs(window(seed))}`),
    },
    log_page_next: {
      what: 'pages 2–5 of the same list (the Next button, page_token)',
      target: 'log_page',
      paths: walked.any,
    },
    log_page_next_chatty: {
      what: 'pages 2–5 of a chatty node (1 % of the diagnostics nodes, half of the log lines)',
      target: 'log_page',
      paths: walked.chatty,
    },
    log_count_month: {
      what: "the report's log counts by type over the Month window (informative)",
      paths: sample.map((seed) => `/insights/v1/node/log/count?${qs(window(seed))}`),
    },
    log_count_month_chatty: {
      what: 'the same counts for a chatty node (informative)',
      paths: chattySample.map((seed) => `/insights/v1/node/log/count?${qs(window(seed))}`),
    },
    log_byinterval_month: {
      what: "the report's timeline, 30 daily bars (informative)",
      paths: sample.map((seed) => `/insights/v1/node/log/byinterval/count?${qs(window(seed))}`),
    },
    stats_summary: {
      what: 'online/offline/not activated and registration totals (counters + rollups)',
      target: 'stats',
      paths: [summary],
    },
    stats_daily_7d: {
      what: 'stats_info, daily, the last 7 days (the dashboard default): online/offline history',
      target: 'stats',
      paths: [statsDaily],
    },
    stats_monthly_12m: {
      what: 'stats_info, monthly, the last 12 months',
      target: 'stats',
      paths: [statsMonthly],
    },
    fault_distribution: {
      what: 'the fault distribution of one appliance type (insights byvalue/count), the 3 in turn',
      target: 'stats',
      paths: distribution,
    },
    stats_dashboard: {
      what: 'the statistics dashboard opening: summary, 7-day stats, 3 distributions and 3 catalogues at once, until the last answer',
      target: 'stats',
      paths: [dashboardJob],
    },
  };
}

/** Follows the first log pages' tokens of WALK_NODES random `diag` nodes: pages 2–5. */
async function walkLogPages(baseUrl, token, diag, now) {
  const client = getter(baseUrl, token, 1);
  const monthStart = Math.floor((now + TZ) / DAY) * DAY - TZ - 29 * DAY;
  const rand = prng(5);
  const paths = [];
  try {
    for (let n = 0; n < Math.min(WALK_NODES, diag.length); n += 1) {
      const seed = diag[Math.floor(rand() * diag.length)];
      const base = { node_id: seed.node_id, time: 'Month', start: monthStart, tz: TZ };
      let body = await getJson(client, `/insights/v1/node/log/list?${qs(base)}`);
      for (let page = 2; page <= 5 && body.pagetoken; page += 1) {
        const p = `/insights/v1/node/log/list?${qs({ ...base, page_token: body.pagetoken })}`;
        paths.push(p);
        body = await getJson(client, p);
      }
    }
  } finally {
    client.close();
  }
  return paths;
}

/** Answers read once before the load: the fixture is what the API serves. */
async function checks(baseUrl, token, rows, plan, seeded) {
  const client = getter(baseUrl, token, 1);
  try {
    const series = await getJson(client, rows.metric_series_24h_all.paths[0]);
    const logs = await getJson(client, rows.log_page_first.paths[0]);
    const counts = await getJson(client, rows.log_count_month.paths[0]);
    const summary = await getJson(client, rows.stats_summary.paths[0]);
    const daily = await getJson(client, rows.stats_daily_7d.paths[0]);
    const faults = [];
    for (const p of rows.fault_distribution.paths) faults.push(await getJson(client, p));
    const result = {
      series_points_per_metric: series.metrics.map((m) => m.points.length),
      series_limit: series.limit,
      log_page_entries: logs.list.length,
      log_page_has_next: Boolean(logs.pagetoken),
      log_count_month: ['crash', 'reboot', 'error', 'warning', 'event'].reduce(
        (sum, type) => sum + counts[type],
        0,
      ),
      summary,
      daily_online_points: daily.connectivity_history?.num_online_nodes?.data?.length ?? 0,
      fault_nodes: faults.map((f) => f.totalnodes),
    };
    const problems = [];
    if (result.series_points_per_metric.length !== METRICS_PER_NODE)
      problems.push('series: not 3 metrics');
    if (result.series_points_per_metric.some((n) => n === 0)) problems.push('series: no points');
    if (result.log_page_entries === 0) problems.push('log page empty');
    if (summary.num_registered_nodes !== plan.nodes) problems.push('summary: node count');
    if (result.fault_nodes.reduce((a, b) => a + b, 0) !== seeded.faults)
      problems.push('fault distribution: count');
    result.problems = problems;
    return result;
  } finally {
    client.close();
  }
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

    const plan = diagnosticsPlan({
      nodes: N,
      diagNodes: DIAG_NODES,
      logLines: LOG_LINES,
      metricPoints: METRIC_POINTS[dialect],
      metricSpanS: METRIC_SPAN_S,
      now: Math.floor(Date.now() / 1000),
    });
    log(
      `${dialect}: seeding ${N.toLocaleString('en')} nodes, ${plan.logLines.toLocaleString('en')} log lines, ${plan.metricPoints.toLocaleString('en')} metric points (${plan.diagNodes.toLocaleString('en')} diagnostics nodes)`,
    );
    const started = Date.now();
    const seeded =
      dialect === 'postgres' ? await seedPostgres(pgDb.url, plan) : await seedSqlite(dataDir, plan);
    const seedS = (Date.now() - started) / 1000;
    const target = dialect === 'postgres' ? pgDb.url : dataDir;

    const server = await startServer(env);
    try {
      // Start-up reset every online node to offline (ADR 0005); restore the intended 30 %, and
      // settle the tables that changed as background maintenance would.
      await runSql(dialect, target, [MARK_ONLINE_SQL, ...COUNTERS_SQL]);
      // (SQLite keeps no planner statistics, ADR 36.)
      if (dialect === 'postgres')
        await runSql(dialect, target, ['VACUUM ANALYZE nodes', 'VACUUM ANALYZE node_counters']);
      const token = await login(server.baseUrl);
      const now = Math.floor(Date.now() / 1000);
      log(`${dialect}: walking log pages`);
      const chatty = seeded.diag.filter((seed) => seed.chatty);
      const walked = {
        any: await walkLogPages(server.baseUrl, token, seeded.diag, now),
        chatty: await walkLogPages(server.baseUrl, token, chatty, now),
      };
      const rows = rowPaths(seeded.diag, chatty, now, walked);
      const check = await checks(server.baseUrl, token, rows, plan, seeded);
      if (check.problems.length) log(`${dialect}: CHECK FAILED ${check.problems.join('; ')}`);
      if (WARMUP_S > 0) {
        // JIT warm-up on nodes outside the sample's first part (unmeasured).
        const warm = [
          ...rows.metric_series_24h.paths.slice(-50),
          ...rows.log_page_first.paths.slice(-50),
        ];
        await measure(server.baseUrl, token, warm, 1, WARMUP_S, server.pid);
      }
      const loadBefore = os.loadavg().map((l) => round(l));
      const results = [];
      for (const [name, row] of Object.entries(rows)) {
        // Smoke keeps the judged rows only (both dialects within its 60 s).
        if (row.paths.length === 0 || (SMOKE && !row.target && !row.smoke)) continue;
        if (ONLY && !ONLY.includes(name)) continue;
        for (const connections of CONCURRENCY) {
          const measured = await measure(
            server.baseUrl,
            token,
            row.paths,
            connections,
            DURATION_S,
            server.pid,
          );
          const targetMs = row.target ? TARGETS_MS[row.target] : undefined;
          const result = { query: name, ...measured };
          if (targetMs !== undefined) {
            result.target_p99_ms = targetMs;
            // Judged with one client (one operator); more clients are reported, not judged.
            if (connections === 1)
              result.pass =
                measured.p99_ms <= targetMs && measured.non_200 === 0 && measured.errors === 0;
          }
          results.push(result);
          log(
            `${dialect} ${name} c=${connections}: p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms, ${result.per_s}/s${result.pass === undefined ? '' : result.pass ? ' pass' : ' MISS'}`,
          );
        }
      }
      const judged = results.filter((r) => r.pass !== undefined);
      return {
        dialect,
        fixture: {
          nodes: plan.nodes,
          diagnostics_nodes: plan.diagNodes,
          log_lines: plan.logLines,
          logs_per_node: plan.logsPerNode,
          chatty_nodes: plan.chattyNodes,
          logs_per_chatty_node: plan.logsPerChattyNode,
          log_step_s: plan.logStepS,
          metric_points: plan.metricPoints,
          points_per_series: plan.pointsPerSeries,
          metric_step_s: plan.metricStepS,
          metric_span_h: round(plan.metricSpanS / 3600, 1),
          current_faults: seeded.faults,
          fault_history_rows: seeded.history,
        },
        seed_s: round(seedS, 1),
        seed_times_s: seeded.times,
        server_start_ms: server.startMs,
        server_rss_mib: round((rssOf(server.pid) ?? 0) / 2 ** 20, 1),
        // 1, 5 and 15 min load averages (2 cores) when the rows began and ended: other work on
        // the machine shows here.
        load_avg: { before: loadBefore, after: os.loadavg().map((l) => round(l)) },
        checks: check,
        rows: results.map((r) => ({ ...r, what: rows[r.query].what })),
        pass: {
          metric_series_24h: judged
            .filter((r) => rows[r.query].target === 'metric_series_24h')
            .every((r) => r.pass),
          stats: judged.filter((r) => rows[r.query].target === 'stats').every((r) => r.pass),
          log_page: judged.filter((r) => rows[r.query].target === 'log_page').every((r) => r.pass),
          checks: check.problems.length === 0,
        },
        failing_rows: judged.filter((r) => !r.pass).map((r) => r.query),
      };
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (pgDb) await pgDb.drop();
  }
}

async function main() {
  requireBuilt();
  const started = Date.now();
  const results = [];
  for (const dialect of DIALECTS) results.push(await benchDialect(dialect));
  const full = {
    nodes: 1_000_000,
    log_lines: 10_000_000,
    metric_points: { sqlite: 10_000_000, postgres: 100_000_000 },
  };
  console.log(
    JSON.stringify({
      benchmark: 'B9 diagnostics-queries',
      mode: SMOKE ? 'smoke' : 'full',
      commit: gitCommit(),
      machine: machine(),
      workload: {
        nodes: N,
        diagnostics_nodes: DIAG_NODES,
        log_lines: LOG_LINES,
        metric_points: METRIC_POINTS,
        b9_size: full,
        below_b9_size:
          N < full.nodes ||
          LOG_LINES < full.log_lines ||
          DIALECTS.some((d) => METRIC_POINTS[d] < full.metric_points[d]),
        fixture:
          "diagnostics from 10 % of the fleet (activated nodes): the simulator's 3 metrics per node, points evenly spaced over the last 24 h with a phase per node; log lines over the last 30 days, half of them from 1 % of the diagnostics nodes (chatty), the rest evenly over the others (~93 % report events, 5 % warnings, 2 % errors, 0.2 % crashes with core-dump data, 0.2 % reboots); rows inserted in arrival (time) order across nodes; 5 % of activated nodes with a current fault (codes of the default catalogues); daily registration rollups and online/offline snapshots for every day since the first registration",
        requests:
          "each row cycles over distinct random diagnostics nodes (SAMPLE_NODES), the dashboard's exact calls (raw access token), latency to the last byte",
        duration_s_per_row: DURATION_S,
        concurrency: CONCURRENCY,
        warmup_s: WARMUP_S,
        tz_offset_s: TZ,
      },
      targets: {
        metric_series_24h_p99_ms: TARGETS_MS.metric_series_24h,
        fleet_statistics_p99_ms: TARGETS_MS.stats,
        log_page_p99_ms: TARGETS_MS.log_page,
        judged_at: '1 client (one operator); rows at more clients are informative',
      },
      results,
      elapsed_s: round((Date.now() - started) / 1000, 1),
    }),
  );
}

main().catch(failed);
