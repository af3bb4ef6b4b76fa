// B6: the fleet list API (GET /v1/admin/nodes) over a large registry, per filter, page size and
// concurrency. Nodes are bulk-inserted with SQL into a fresh database; the built server serves them.
import fs from 'node:fs';
import path from 'node:path';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
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
  requireBuilt,
  round,
  rssOf,
  sleep,
  startServer,
} from './lib.mjs';
import {
  GROUP_ID,
  createPgDatabase,
  loadFleet,
  markOnline,
  postgresStore,
  sqliteStore,
} from './seed-nodes.mjs';

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
    await loadFleet(store, N);
    const insertS = (Date.now() - started) / 1000;

    const server = await startServer(env);
    try {
      // Start-up reset every online node to offline; restore the intended 30 % online.
      started = Date.now();
      await markOnline(store);
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
        // The dashboard's status link, then the type dropdown (total from its counter, ADR 34).
        status_type: { node_status: 'online', type: 'Refrigerator' },
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
