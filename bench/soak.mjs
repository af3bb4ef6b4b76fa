// B10: soak and overload. One server (fresh SQLite DATA_DIR) under a steady mix for BENCH_SOAK_MIN
// minutes: MQTT nodes publishing params at QoS 1 at half of B1's rate (from worker processes,
// bench/soak-worker.mjs), API clients paging the fleet list and reading jobs, groups and statistics,
// OTA jobs created every period (every other one cancelled at once) with the target nodes
// answering. Then BENCH_OVERLOAD_MIN minutes at twice B1's rate, then BENCH_RECOVERY_S back at the
// soak rate. The server's RSS, open files, CPU, the API's latency and the PUBACK latency are
// sampled every second and summarised per window (a minute; 5 s in smoke): RSS drift, fd growth
// and the API p99 of the last soak window against the first; under overload the peak RSS, whether
// the server back-pressured the publishers (PUBACK latency up, acknowledged rate capped, bytes
// waiting in the kernel rather than in the server) and how long it took to be steady again.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  SMOKE,
  benchTempDir,
  cleanUpOnSignal,
  closeWorkers,
  connectThroughWorkers,
  cpuSecondsOf,
  failed,
  gitCommit,
  login,
  machine,
  percentile,
  registerNodes,
  requireBuilt,
  round,
  rssOf,
  sleep,
  startServer,
} from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const B1_RATE = 25_000; // msg/s persisted from 10,000 nodes (BENCHMARKS.md)
const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const NODES = num('BENCH_NODES', SMOKE ? 300 : 10_000);
const RATE = num('BENCH_RATE', B1_RATE / 2);
const OVERLOAD_RATE = num('BENCH_OVERLOAD_RATE', B1_RATE * 2);
const SOAK_S = num('BENCH_SOAK_MIN', SMOKE ? 20 / 60 : 30) * 60;
const OVERLOAD_S = num('BENCH_OVERLOAD_MIN', SMOKE ? 8 / 60 : 10) * 60;
const RECOVERY_S = num('BENCH_RECOVERY_S', SMOKE ? 10 : 120);
const WINDOW_S = num('BENCH_WINDOW_S', SMOKE ? 5 : 60);
// Not judged: JIT, the young generation and SQLite's page cache growing to their working size.
const WARMUP_S = num('BENCH_WARMUP_S', SMOKE ? 5 : 60);
const MAX_IN_FLIGHT = num('BENCH_MAX_IN_FLIGHT', 100); // unacknowledged publishes per node
const OTA_TARGETS = num('BENCH_OTA_TARGETS', Math.max(10, Math.round(NODES * 0.02)));
const OTA_PERIOD_S = num('BENCH_OTA_PERIOD_S', SMOKE ? 5 : 60);
const API_CLIENTS = num('BENCH_API_CLIENTS', 4);
const API_PAUSE_MS = num('BENCH_API_PAUSE_MS', 50); // per client, between its requests
const WORKERS = Math.max(2, Math.ceil(NODES / 5_000)); // ≤ 5,000 sockets per process
const PER_WORKER = Math.ceil(NODES / WORKERS);
const STEADY_RUN_S = SMOKE ? 3 : 5; // consecutive steady seconds that end the recovery
const TARGET_MODEL = 'FD-WM-SOAK';
const TARGETS = {
  rss_drift_percent: 5,
  fd_growth: 0,
  api_p99_ratio_last_to_first: 1.2,
  overload_rss_mib: 2048,
  back_to_steady_s: 60,
};
// Open files that may come and go between two samples without leaking: each API client's
// keep-alive socket (closed when idle, opened again), and SQLite's journal/WAL handles.
const FD_SLACK = API_CLIENTS + 2;

const children = new Set();

// ---------------------------------------------------------------------------------------------
// Latency histograms (the workers send PUBACK latencies as log buckets, mergeable exactly).
const bucketUpper = (i) => 0.1 * 1.04 ** i;
function mergeHist(into, from) {
  for (const [bucket, count] of Object.entries(from)) into[bucket] = (into[bucket] ?? 0) + count;
  return into;
}
function histPercentile(hist, p) {
  const entries = Object.entries(hist)
    .map(([b, c]) => [Number(b), c])
    .sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((s, [, c]) => s + c, 0);
  if (total === 0) return null;
  const rank = Math.ceil((p / 100) * total);
  let seen = 0;
  for (const [bucket, count] of entries) {
    seen += count;
    if (seen >= rank) return bucketUpper(bucket);
  }
  return null;
}
const median = (values) => {
  const sorted = values.filter((v) => v !== null && v !== undefined).sort((a, b) => a - b);
  return sorted.length ? percentile(sorted, 50) : null;
};
const mib = (bytes) => (bytes === null || bytes === undefined ? null : round(bytes / 2 ** 20, 1));

function fdCount(pid) {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return null;
  }
}

/** Bytes waiting in the kernel on the server's side of the MQTT connections (ss). */
function kernelQueues(mqttPort) {
  try {
    const out = execFileSync(
      'ss',
      ['-tnH', 'state', 'established', '(', 'sport', '=', `:${mqttPort}`, ')'],
      { maxBuffer: 64 * 2 ** 20 },
    ).toString();
    let recv = 0;
    let send = 0;
    let sockets = 0;
    for (const line of out.split('\n')) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 4) continue;
      recv += Number(fields[0]) || 0;
      send += Number(fields[1]) || 0;
      sockets += 1;
    }
    return { recv, send, sockets };
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// The API clients: the devices page walking cursor pages, and the other reads of a dashboard.
function apiLoad(server, state) {
  const samples = []; // {ms, ok} since the last drain
  const failuresByPath = {};
  let token = state.token;
  let stopped = false;
  async function get(url) {
    const started = performance.now();
    let status = 0;
    let body = null;
    try {
      let response = await fetch(`${server.baseUrl}${url}`, { headers: { authorization: token } });
      if (response.status === 401) {
        await response.arrayBuffer();
        token = await login(server.baseUrl); // the access token expired during a long soak
        response = await fetch(`${server.baseUrl}${url}`, { headers: { authorization: token } });
      }
      status = response.status;
      body = await response.json();
    } catch {
      status = 0;
    }
    const ms = performance.now() - started;
    const ok = status >= 200 && status < 300;
    samples.push({ ms, ok });
    if (!ok) {
      const key = `${url.split('?')[0]} ${status}`;
      failuresByPath[key] = (failuresByPath[key] ?? 0) + 1;
    }
    return body;
  }
  const pageQueries = [
    'num_records=10',
    'num_records=50',
    'num_records=10&node_status=online',
    `num_records=10&model=${TARGET_MODEL}`,
    'num_records=10&node_details=true',
  ];
  const client = async (index) => {
    let step = index;
    let cursor = null;
    let pages = 0;
    let query = pageQueries[index % pageQueries.length];
    while (!stopped) {
      const kind = ['page', 'page', 'other', 'page', 'other'][step % 5];
      step += 1;
      if (kind === 'page') {
        const url = `/v1/admin/nodes?${query}${cursor ? `&start_id=${cursor}` : ''}`;
        const body = await get(url);
        cursor = body?.next_id ?? null;
        pages += 1;
        if (!cursor || pages >= 20) {
          cursor = null;
          pages = 0;
          query = pageQueries[(pageQueries.indexOf(query) + 1) % pageQueries.length];
        }
      } else {
        const job = state.lastJobId;
        const others = [
          '/v1/admin/stats_info/summary',
          '/v1/admin/node_group?num_records=10',
          `/v1/admin/node_group?group_id=${state.groupId}&node_details=true&num_records=10`,
          ...(job
            ? [
                '/v1/admin/otajob?num_records=10',
                `/v1/admin/otajob/status/summary?ota_job_id=${job}`,
                `/v1/admin/otajob/status?ota_job_id=${job}&num_records=10`,
              ]
            : []),
        ];
        await get(others[step % others.length]);
      }
      await sleep(API_PAUSE_MS);
    }
  };
  const running = Array.from({ length: API_CLIENTS }, (_, i) => client(i));
  return {
    drain: () => samples.splice(0),
    failuresByPath,
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// OTA: every OTA_PERIOD_S a force-pushed job for the target group; every other one cancelled as
// soon as its POST answers (offers already sent are answered anyway, as devices would).
function otaLoad(server, state) {
  const figures = {
    jobs_created: 0,
    jobs_cancelled: 0,
    create_failures: 0,
    cancel_failures: 0,
    create_ms: [],
  };
  let stopped = false;
  let wake = null;
  const call = async (method, url, body) => {
    const response = await fetch(`${server.baseUrl}${url}`, {
      method,
      headers: { authorization: state.token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await response.json();
    if (!response.ok)
      throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const loop = (async () => {
    for (let n = 0; !stopped; n += 1) {
      const started = performance.now();
      try {
        const job = await call('POST', '/v1/admin/otajob?force_push=true', {
          ota_job_name: `soak-${n}`,
          ota_image_id: state.imageId,
          groups: [state.groupId],
        });
        figures.jobs_created += 1;
        figures.create_ms.push(performance.now() - started);
        state.lastJobId = job.ota_job_id;
        if (n % 2 === 1) {
          try {
            await call('PUT', '/v1/admin/otajob', { ota_job_id: job.ota_job_id });
            figures.jobs_cancelled += 1;
          } catch (error) {
            figures.cancel_failures += 1;
            console.error(`soak: cancel: ${error.message}`);
          }
        }
      } catch (error) {
        figures.create_failures += 1;
        console.error(`soak: OTA job: ${error.message}`);
      }
      await new Promise((resolve) => {
        wake = resolve;
        setTimeout(resolve, OTA_PERIOD_S * 1000);
      });
    }
  })();
  return {
    figures,
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}

// ---------------------------------------------------------------------------------------------

async function setRate(workers, total) {
  await Promise.all(
    workers.map((w) =>
      w.request(
        { type: 'rate', ratePerS: total / workers.length, maxInFlight: MAX_IN_FLIGHT },
        'rate',
      ),
    ),
  );
}

/** One sample a second: server RSS, fds, CPU, the workers' counters, the API's latencies. */
async function sampleSecond(ctx, phase, previous) {
  const at = Date.now();
  const cpu = cpuSecondsOf(ctx.server.pid);
  const stats = await Promise.all(ctx.workers.map((w) => w.request({ type: 'stats' }, 'stats')));
  const sum = (key) => stats.reduce((s, w) => s + w[key], 0);
  const dt = previous ? (at - previous.at) / 1000 : 1;
  const api = ctx.api.drain();
  const record = {
    at,
    phase,
    dt,
    offered_per_s: ctx.rate,
    rss: rssOf(ctx.server.pid),
    fds: fdCount(ctx.server.pid),
    cpu_cores:
      previous && cpu !== null && previous.cpuTotal !== null
        ? (cpu - previous.cpuTotal) / dt
        : null,
    cpuTotal: cpu,
    sent: sum('sent'),
    acked: sum('acked'),
    failed: sum('failed'),
    skipped: sum('skipped'),
    outstanding: sum('outstanding'),
    lost: sum('lost'),
    ota_offers: sum('otaOffers'),
    ota_sent: sum('otaSent'),
    ota_acked: sum('otaAcked'),
    ota_failed: sum('otaFailed'),
    max_tick_gap_ms: Math.max(...stats.map((w) => w.maxTickGapMs)),
    generator_cpu_s: stats.map((w) => (w.cpu.user + w.cpu.system) / 1e6),
    hist: stats.reduce((h, w) => mergeHist(h, w.hist), {}),
    api_ms: api.map((s) => s.ms),
    api_failures: api.filter((s) => !s.ok).length,
    kernel: ctx.secondIndex % 5 === 0 ? kernelQueues(ctx.mqttPort) : null,
  };
  ctx.secondIndex += 1;
  return record;
}

/** Runs `seconds` of one phase at `rate`, one sample a second; returns the samples. */
async function runPhase(ctx, phase, rate, seconds) {
  ctx.rate = rate;
  await setRate(ctx.workers, rate);
  const records = [];
  const end = Date.now() + seconds * 1000;
  let next = Date.now() + 1000;
  while (Date.now() < end) {
    await sleep(Math.max(0, next - Date.now()));
    const record = await sampleSecond(ctx, phase, ctx.last);
    // A sample that came late (a busy machine) does not make the next ones come early.
    next = Math.max(next + 1000, Date.now() + 500);
    ctx.last = record;
    records.push(record);
    if (!ctx.server.alive()) {
      // A crash is a B10 result ("no crash"): stop the load and report what led to it.
      ctx.crashed = { phase, at_s: round((record.at - ctx.startedAt) / 1000, 0) };
      ctx.crashOutput = ctx.server.output();
      console.error(`soak: server exited during ${phase}; its last output:\n${ctx.crashOutput}`);
      break;
    }
    if (ctx.secondIndex % (SMOKE ? 5 : 30) === 0) {
      console.error(
        `soak: ${phase} t=${Math.round((record.at - ctx.startedAt) / 1000)}s rss=${mib(record.rss)}MiB fds=${record.fds} acked/s=${Math.round(record.acked / record.dt)} outstanding=${record.outstanding} puback_p99=${round(histPercentile(record.hist, 99), 0)}ms api_p99=${round(
          percentile(
            [...record.api_ms].sort((a, b) => a - b),
            99,
          ),
          0,
        )}ms`,
      );
    }
  }
  return records;
}

/** Sums a run of one-second records into one window's figures. */
function summarise(records) {
  if (records.length === 0) return null;
  const seconds = records.reduce((s, r) => s + r.dt, 0);
  const total = (key) => records.reduce((s, r) => s + r[key], 0);
  const hist = records.reduce((h, r) => mergeHist(h, r.hist), {});
  const api = records.flatMap((r) => r.api_ms).sort((a, b) => a - b);
  const kernel = records.map((r) => r.kernel).filter(Boolean);
  const cpu = records.map((r) => r.cpu_cores).filter((v) => v !== null);
  return {
    seconds: round(seconds, 1),
    offered_msgs_per_s: records[0].offered_per_s,
    sent_msgs_per_s: round(total('sent') / seconds, 0),
    acked_msgs_per_s: round(total('acked') / seconds, 0),
    skipped_in_flight_cap: total('skipped'),
    publish_failures: total('failed'),
    outstanding_max: Math.max(...records.map((r) => r.outstanding)),
    puback_ms: {
      p50: round(histPercentile(hist, 50), 1),
      p99: round(histPercentile(hist, 99), 1),
    },
    api_requests: api.length,
    api_failures: total('api_failures'),
    api_ms: { p50: round(percentile(api, 50), 1), p99: round(percentile(api, 99), 1) },
    server_rss_mib: {
      median: mib(median(records.map((r) => r.rss))),
      max: mib(Math.max(...records.map((r) => r.rss ?? 0))),
    },
    server_fds: {
      median: median(records.map((r) => r.fds)),
      max: Math.max(...records.map((r) => r.fds ?? 0)),
    },
    server_cpu_cores: cpu.length ? round(cpu.reduce((a, b) => a + b, 0) / cpu.length, 2) : null,
    kernel_recv_q_bytes_max: kernel.length ? Math.max(...kernel.map((k) => k.recv)) : null,
    kernel_send_q_bytes_max: kernel.length ? Math.max(...kernel.map((k) => k.send)) : null,
    ota_offers: total('ota_offers'),
    ota_reports_acked: total('ota_acked'),
    generator_tick_gap_ms_max: round(Math.max(...records.map((r) => r.max_tick_gap_ms)), 0),
    connections_lost: total('lost'),
  };
}

function windows(records, size) {
  const out = [];
  for (let i = 0; i + Math.max(1, Math.floor(size * 0.8)) <= records.length; i += size)
    out.push(summarise(records.slice(i, i + size)));
  return out;
}

/** Generator CPU (cores per worker process) over a run of records. */
function generatorCores(records) {
  if (records.length < 2) return null;
  const first = records[0].generator_cpu_s;
  const last = records[records.length - 1].generator_cpu_s;
  const seconds = (records[records.length - 1].at - records[0].at) / 1000;
  return last.map((v, i) => round((v - first[i]) / seconds, 2));
}

async function main() {
  requireBuilt();
  const started = Date.now();
  const dataDir = benchTempDir();
  const server = await startServer({ DATA_DIR: dataDir });
  let exited = null;
  // The server's own child handle is inside lib.mjs; watch its PID instead.
  server.alive = () => {
    if (exited) return false;
    try {
      process.kill(server.pid, 0);
      return true;
    } catch {
      exited = true;
      return false;
    }
  };
  const workers = [];
  let result;
  try {
    result = await run(server, workers);
  } finally {
    await closeWorkers(workers);
    const alive = server.alive();
    await server.stop();
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (result) result.server_alive_at_end = alive;
  }
  printResult(result, started);
}

async function run(server, workers) {
  const state = { token: await login(server.baseUrl), lastJobId: null };
  const registerStarted = Date.now();
  const targets = await registerNodes(
    server.baseUrl,
    state.token,
    OTA_TARGETS,
    'B10T',
    TARGET_MODEL,
  );
  const rest = await registerNodes(server.baseUrl, state.token, NODES - OTA_TARGETS, 'B10R');
  const fleet = [
    ...targets.map((n, i) => ({ ...n, model: TARGET_MODEL, serial: `B10T-${i}` })),
    ...rest.map((n, i) => ({ ...n, model: 'FD-WM-9', serial: `B10R-${i}` })),
  ].map((n, i) => ({
    node_id: n.node_id,
    mqtt_password: n.mqtt_password,
    model: n.model,
    serial: n.serial,
    fleet_index: i,
  }));
  const registerS = (Date.now() - registerStarted) / 1000;
  const group = await postJson(server, state.token, '/v1/admin/node_group', {
    group_name: 'bench-soak-ota',
    node_model: TARGET_MODEL,
  });
  state.groupId = group.group_id;
  const image = await postJson(server, state.token, '/v1/admin/otaimage', {
    image_name: 'bench-soak',
    type: 'Washing Machine',
    fw_version: '9.9.9',
    model: TARGET_MODEL,
    base64_fwimage: Buffer.alloc(64 * 1024, 0xa5).toString('base64'),
  });
  state.imageId = image.ota_image_id;
  const fdsBeforeConnect = fdCount(server.pid);
  const rssBeforeConnect = rssOf(server.pid);
  const connect = await connectThroughWorkers({
    script: path.join(HERE, 'soak-worker.mjs'),
    workers,
    children,
    url: server.mqttUrl,
    nodes: fleet,
    perWorker: PER_WORKER,
    concurrency: 100,
  });
  console.error(
    `soak: ${connect.connected}/${NODES} nodes connected in ${connect.connectS} s (${connect.failures} failures); soak ${SOAK_S} s at ${RATE} msg/s, overload ${OVERLOAD_S} s at ${OVERLOAD_RATE} msg/s, recovery ${RECOVERY_S} s`,
  );
  const ctx = {
    server,
    workers,
    api: apiLoad(server, state),
    mqttPort: Number(new URL(server.mqttUrl).port),
    rate: 0,
    last: null,
    secondIndex: 0,
    startedAt: Date.now(),
  };
  const ota = otaLoad(server, state);
  // Stopped by a signal: quiet the load first (newest clean-up first), then lib.mjs ends the
  // workers and the server by PID and removes the data directory.
  const dropCleanUp = cleanUpOnSignal(async () => {
    ctx.rate = 0;
    await Promise.race([Promise.all([ctx.api.stop(), ota.stop()]), sleep(5_000)]);
  });
  let soak;
  let overload;
  let recovery;
  try {
    soak = await runPhase(ctx, 'soak', RATE, SOAK_S);
    overload = ctx.crashed ? [] : await runPhase(ctx, 'overload', OVERLOAD_RATE, OVERLOAD_S);
    recovery = ctx.crashed ? [] : await runPhase(ctx, 'recovery', RATE, RECOVERY_S);
  } finally {
    await setRate(workers, 0).catch(() => undefined);
    await Promise.all([ctx.api.stop(), ota.stop()]);
    dropCleanUp();
  }
  // Let the last acknowledgements and OTA reports in, then the open files with the nodes still
  // connected and no request under way.
  const drainEnd = Date.now() + (SMOKE || ctx.crashed ? 3_000 : 10_000);
  let tail;
  do {
    await sleep(500);
    tail = await sampleSecond(ctx, 'drain', ctx.last);
    ctx.last = tail;
  } while (tail.outstanding > 0 && Date.now() < drainEnd);
  await sleep(SMOKE ? 300 : 1000);
  const fdsIdleConnected = fdCount(server.pid);
  const readyz = await fetch(`${server.baseUrl}/readyz`).then(
    (r) => r.status,
    () => 0,
  );
  return {
    setup: {
      register_s: round(registerS, 1),
      connect_s: round(connect.connectS, 2),
      connected: connect.connected,
      connect_failures: connect.failures,
      server_start_ms: server.startMs,
      server_rss_mib_before_connect: mib(rssBeforeConnect),
      server_fds_before_connect: fdsBeforeConnect,
    },
    soak,
    overload,
    recovery,
    ota: ota.figures,
    api_failures_by_path: ctx.api.failuresByPath,
    fds_idle_connected_at_end: fdsIdleConnected,
    outstanding_at_end: tail.outstanding,
    crashed: ctx.crashed ?? null,
    crash_output_tail: ctx.crashed ? ctx.crashOutput.slice(-1500) : null,
    readyz_at_end: readyz,
  };
}

async function postJson(server, token, url, body) {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

function printResult(result, started) {
  const { soak, overload, recovery } = result;
  const warmupSamples = Math.min(soak.length, WARMUP_S);
  const judged = soak.slice(warmupSamples);
  const soakWindows = windows(judged, WINDOW_S);
  const first = soakWindows[0];
  const last = soakWindows[soakWindows.length - 1];
  const soakAll = summarise(judged);
  const overloadAll = summarise(overload);
  const overloadWindows = windows(overload, WINDOW_S);

  // Steady state after the overload: a run of STEADY_RUN_S seconds in which each second is like
  // the soak's judged seconds: the fleet's unacknowledged messages back to the soak's level, no
  // more sends refused by the nodes' windows than in the soak, the acknowledged rate within 15 %
  // of the soak's and the PUBACK p99 within 20 % of the soak's (or 20 ms, whichever is larger).
  const perSecond = (r) => ({
    acked: r.acked / r.dt,
    p99: histPercentile(r.hist, 99),
    outstanding: r.outstanding,
    skipped: r.skipped / r.dt,
  });
  const soakSeconds = judged.map(perSecond);
  const sortedOf = (key) =>
    soakSeconds
      .map((s) => s[key])
      .filter((v) => v !== null)
      .sort((a, b) => a - b);
  const soakAcked = median(soakSeconds.map((s) => s.acked));
  const soakP99 = median(soakWindows.map((w) => w.puback_ms.p99));
  const outstandingLimit = (percentile(sortedOf('outstanding'), 99) ?? 0) * 1.5 + 50;
  const skippedLimit = percentile(sortedOf('skipped'), 99) ?? 0;
  const p99Limit = soakP99 === null ? null : Math.max(soakP99 * 1.2, soakP99 + 20);
  const steady = recovery.map((r) => {
    const s = perSecond(r);
    return (
      s.outstanding <= outstandingLimit &&
      s.skipped <= skippedLimit &&
      Math.abs(s.acked - soakAcked) <= 0.15 * soakAcked &&
      (s.p99 === null || p99Limit === null || s.p99 <= p99Limit)
    );
  });
  let steadyAt = null;
  for (let i = 0; i + STEADY_RUN_S <= steady.length; i += 1) {
    if (steady.slice(i, i + STEADY_RUN_S).every(Boolean)) {
      steadyAt = i;
      break;
    }
  }
  const overloadEnd = overload.length ? overload[overload.length - 1].at : null;
  const recoveryS =
    steadyAt === null || overloadEnd === null
      ? null
      : round((recovery[steadyAt].at - 1000 - overloadEnd) / 1000, 1);

  const rssDrift =
    first && last
      ? round(
          ((last.server_rss_mib.median - first.server_rss_mib.median) /
            first.server_rss_mib.median) *
            100,
          2,
        )
      : null;
  const fdGrowth = first && last ? last.server_fds.median - first.server_fds.median : null;
  const p99Ratio =
    first && last && first.api_ms.p99 ? round(last.api_ms.p99 / first.api_ms.p99, 2) : null;
  const overloadRssPeak = Math.max(
    0,
    ...overload.map((r) => r.rss ?? 0),
    ...recovery.map((r) => r.rss ?? 0),
  );
  const soakRssMax = Math.max(...judged.map((r) => r.rss ?? 0));
  const backPressure = {
    offered_msgs_per_s: OVERLOAD_RATE,
    acked_msgs_per_s: overloadAll?.acked_msgs_per_s ?? null,
    soak_acked_msgs_per_s: soakAll?.acked_msgs_per_s ?? null,
    puback_p99_ms_soak: soakAll?.puback_ms.p99 ?? null,
    puback_p99_ms_overload: overloadAll?.puback_ms.p99 ?? null,
    skipped_in_flight_cap: overloadAll?.skipped_in_flight_cap ?? null,
    outstanding_max: overloadAll?.outstanding_max ?? null,
    outstanding_cap: NODES * MAX_IN_FLIGHT,
    kernel_recv_q_mib_max: mib(overloadAll?.kernel_recv_q_bytes_max),
    server_rss_mib_peak: mib(overloadRssPeak),
    server_rss_mib_soak_max: mib(soakRssMax),
    server_rss_growth_mib: mib(overloadRssPeak - soakRssMax),
  };
  // Back-pressure: the server acknowledged less than was offered (the publishers were slowed:
  // PUBACK latency up, sends refused by the nodes' windows) while its memory stayed bounded.
  // Buffering would show as RSS growing with the unacknowledged messages and nothing waiting in
  // the kernel's receive queues.
  const rateCapped = overloadAll && overloadAll.acked_msgs_per_s < 0.9 * OVERLOAD_RATE;
  const latencyUp =
    overloadAll && soakAll && overloadAll.puback_ms.p99 > 2 * (soakAll.puback_ms.p99 ?? Infinity);
  backPressure.observed = Boolean(
    rateCapped && (latencyUp || overloadAll.skipped_in_flight_cap > 0),
  );
  backPressure.note = rateCapped
    ? 'the server acknowledged less than was offered: the publishers were held back (PUBACK latency, nodes at their in-flight window) — the figures above say where the unacknowledged messages waited'
    : 'the server acknowledged (about) everything offered: this run did not overload it, so back-pressure was not exercised';
  const reached = (achieved, target) => achieved !== null && achieved >= 0.95 * target;

  console.log(
    JSON.stringify({
      benchmark: 'B10 soak and overload',
      mode: SMOKE ? 'smoke' : 'full',
      commit: gitCommit(),
      machine: machine(),
      workload: {
        nodes: NODES,
        worker_processes: WORKERS,
        soak_s: SOAK_S,
        warmup_s: WARMUP_S,
        overload_s: OVERLOAD_S,
        recovery_s: RECOVERY_S,
        window_s: WINDOW_S,
        soak_rate_msgs_per_s: RATE,
        overload_rate_msgs_per_s: OVERLOAD_RATE,
        b1_rate_msgs_per_s: B1_RATE,
        rates_note:
          'soak = BENCH_RATE (default half of B1, 12,500 msg/s), overload = BENCH_OVERLOAD_RATE (default 2× B1, 50,000 msg/s); compare achieved rates below with them',
        publish:
          'params/local, 150–249 B JSON, QoS 1, open loop: a 10 ms scheduler tick per worker sends what the rate makes due, round robin over the nodes, without waiting for PUBACKs; at most max_in_flight_per_node unacknowledged per node (a send beyond it is skipped and counted)',
        max_in_flight_per_node: MAX_IN_FLIGHT,
        api: `${API_CLIENTS} clients, ${API_PAUSE_MS} ms pause after each answer: the fleet list walked by cursor (page 10/50, online, model, node_details) 3 requests in 5, else stats summary, groups, a group page, jobs, a job summary and status page`,
        ota: `every ${OTA_PERIOD_S} s a force-pushed job for a group of ${OTA_TARGETS} nodes (automatic group on model ${TARGET_MODEL}); every other job cancelled as soon as its POST answers; offered nodes answer 3 in-progress + success (every 50th failed), each on the previous PUBACK`,
        database: 'SQLite (fresh DATA_DIR)',
        node_config:
          'each node publishes its config document once after connecting (like bench ingest)',
      },
      semantics: {
        windows: `one sample a second (server VmRSS, /proc/<pid>/fd count, CPU from /proc/<pid>/stat, the workers' counters, the API latencies); windows of ${WINDOW_S} s. The first ${WARMUP_S} s of the soak are warm-up and not judged; "first window" is the first window after it.`,
        rss_drift_percent: '(median RSS of the last soak window − that of the first) / the first',
        fd_growth: `median open files of the last soak window − that of the first (${FD_SLACK} of slack: the API clients' keep-alive sockets and SQLite's handles come and go between samples)`,
        api_p99_ratio: "API p99 of the last soak window / the first's",
        back_to_steady_s: `from the end of the overload to the start of the first ${STEADY_RUN_S} consecutive seconds like the soak: outstanding ≤ 1.5 × the soak's p99 + 50, skipped sends ≤ the soak's p99 per second, acknowledged rate within 15 % of the soak's median, PUBACK p99 ≤ max(1.2 × soak p99, soak p99 + 20 ms)`,
        kernel_queues:
          "bytes in the kernel's receive (and send) queues of the server's MQTT sockets (ss), every 5 s: data the server did not read yet is TCP back-pressure, not server memory",
      },
      targets: TARGETS,
      setup: result.setup,
      achieved: {
        soak_acked_msgs_per_s: soakAll?.acked_msgs_per_s ?? null,
        soak_rate_reached: reached(soakAll?.acked_msgs_per_s ?? null, RATE),
        overload_sent_msgs_per_s: overloadAll?.sent_msgs_per_s ?? null,
        overload_acked_msgs_per_s: overloadAll?.acked_msgs_per_s ?? null,
        overload_rate_reached: reached(overloadAll?.acked_msgs_per_s ?? null, OVERLOAD_RATE),
        generator_cpu_cores_per_worker_soak: generatorCores(judged),
        generator_cpu_cores_per_worker_overload: generatorCores(overload),
        generator_tick_gap_ms_max_overload: overloadAll?.generator_tick_gap_ms_max ?? null,
      },
      soak: {
        first_window: first,
        last_window: last,
        rss_drift_percent: rssDrift,
        fd_growth: fdGrowth,
        api_p99_ratio_last_to_first: p99Ratio,
        whole: soakAll,
        windows: soakWindows.map((w) => ({
          acked_msgs_per_s: w.acked_msgs_per_s,
          rss_mib: w.server_rss_mib.median,
          fds: w.server_fds.median,
          cpu: w.server_cpu_cores,
          puback_p99_ms: w.puback_ms.p99,
          api_p99_ms: w.api_ms.p99,
          api_failures: w.api_failures,
        })),
      },
      overload: {
        whole: overloadAll,
        windows: overloadWindows.map((w) => ({
          acked_msgs_per_s: w.acked_msgs_per_s,
          sent_msgs_per_s: w.sent_msgs_per_s,
          rss_mib_max: w.server_rss_mib.max,
          outstanding_max: w.outstanding_max,
          puback_p99_ms: w.puback_ms.p99,
          api_p99_ms: w.api_ms.p99,
          kernel_recv_q_mib_max: mib(w.kernel_recv_q_bytes_max),
        })),
        back_pressure: backPressure,
      },
      recovery: {
        whole: summarise(recovery),
        back_to_steady_s: recoveryS,
        steady_limits: {
          outstanding_max: round(outstandingLimit, 0),
          skipped_per_s_max: round(skippedLimit, 1),
          acked_msgs_per_s: round(soakAcked, 0),
          puback_p99_ms_max: round(p99Limit, 1),
        },
        rss_mib_end: mib(recovery[recovery.length - 1]?.rss),
      },
      ota: {
        ...result.ota,
        create_ms: {
          p50: round(
            percentile(
              [...result.ota.create_ms].sort((a, b) => a - b),
              50,
            ),
            1,
          ),
          max: round(Math.max(...result.ota.create_ms, 0), 1),
        },
      },
      api_failures_by_path: result.api_failures_by_path,
      end: {
        crashed: result.crashed,
        crash_output_tail: result.crash_output_tail,
        server_alive: result.server_alive_at_end,
        readyz: result.readyz_at_end,
        outstanding_after_drain: result.outstanding_at_end,
        fds_before_connect: result.setup.server_fds_before_connect,
        fds_idle_connected: result.fds_idle_connected_at_end,
      },
      pass: {
        rss_drift: rssDrift !== null && rssDrift <= TARGETS.rss_drift_percent,
        no_fd_growth: fdGrowth !== null && fdGrowth <= TARGETS.fd_growth + FD_SLACK,
        api_p99_within_20_percent:
          p99Ratio !== null && p99Ratio <= TARGETS.api_p99_ratio_last_to_first,
        overload_rss: !result.crashed && overloadRssPeak <= TARGETS.overload_rss_mib * 2 ** 20,
        no_crash: result.server_alive_at_end === true && result.readyz_at_end === 200,
        back_pressure:
          backPressure.observed && overloadRssPeak <= TARGETS.overload_rss_mib * 2 ** 20,
        back_to_steady: recoveryS !== null && recoveryS <= TARGETS.back_to_steady_s,
      },
      elapsed_s: round((Date.now() - started) / 1000, 1),
    }),
  );
}

main().catch(failed);
