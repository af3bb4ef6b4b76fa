// B4 (scaled): OTA fan-out. Registers R nodes over the API, T of them with a model of their own
// that an automatic group selects, connects L of the targets as live MQTT nodes from worker
// processes, then creates a force-pushed OTA job for the group and measures: POST → response
// (executions created), POST → the last live target's offer, progress ingest (every live node
// sends 10 in-progress reports and a verdict, 2 % failed) until the summary shows the final
// counts, summary latency while progress flows; then a second force-pushed job cancelled at once,
// and the last offer of it that arrives after the cancel response.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  SMOKE,
  benchTempDir,
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
const REGISTERED = Number(process.env.BENCH_NODES ?? (SMOKE ? 20_000 : 100_000));
const TARGETS_N = Number(process.env.BENCH_TARGETS ?? (SMOKE ? 5_000 : 20_000));
const LIVE = Math.min(TARGETS_N, Number(process.env.BENCH_LIVE ?? (SMOKE ? 2_000 : 18_000)));
// One process may hold ~19,900 sockets on the reference machine: ≥ 2 workers, ≤ 9,000 each.
const WORKERS = Math.max(2, Math.ceil(LIVE / 9_000));
const PER_WORKER = Math.ceil(LIVE / WORKERS);
const REGISTER_PARALLEL = 4; // registration requests in flight (1,000 nodes each)
const TARGET_MODEL = 'FD-WM-OTA';
const PROGRESS_MESSAGES_PER_NODE = 11; // 10 in-progress + success/failed
const DEADLINE_MS = SMOKE ? 25_000 : 120_000; // for offers, and again for progress
const CANCEL_WATCH_MS = SMOKE ? 3_000 : 5_000;
const FULL = { registered: 1_000_000, targets: 100_000, live: 18_000 };
const TARGETS = {
  executions_created_s: 2,
  all_live_notified_s: 30,
  progress_msgs_per_s: 20_000,
  summary_p99_ms: 100,
  cancel_stops_offers_s: 1,
};

const children = new Set(); // worker processes this script started, ended by PID on the way out

async function api(server, token, method, url, body, retries = method === 'GET' ? 3 : 0) {
  const started = performance.now();
  let response;
  try {
    response = await fetch(`${server.baseUrl}${url}`, {
      method,
      headers: {
        authorization: token,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    // A kept-alive connection the server closed meanwhile: GETs are safe to send again.
    if (retries > 0) return api(server, token, method, url, body, retries - 1);
    throw error;
  }
  const json = await response.json();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(json)}`);
  return { json, ms, at: Date.now() };
}

/** Registers `count` nodes with `model`, REGISTER_PARALLEL requests at a time. */
async function register(server, token, count, prefix, model) {
  const chunks = [];
  for (let i = 0; i < count; i += 1000) chunks.push(Math.min(1000, count - i));
  const out = new Array(chunks.length);
  let cursor = 0;
  await Promise.all(
    Array.from({ length: REGISTER_PARALLEL }, async () => {
      while (cursor < chunks.length) {
        const k = cursor++;
        out[k] = await registerNodes(server.baseUrl, token, chunks[k], `${prefix}-${k}`, model);
      }
    }),
  );
  return out.flat();
}

const stats = (workers) => Promise.all(workers.map((w) => w.request({ type: 'stats' }, 'stats')));

async function run(server) {
  const token = await login(server.baseUrl);
  const workers = [];
  try {
    // Fleet: T targets (own model, found by an automatic group) and R − T others.
    const registerStarted = Date.now();
    const targets = await register(server, token, TARGETS_N, 'B4T', TARGET_MODEL);
    await register(server, token, REGISTERED - TARGETS_N, 'B4R', 'FD-WM-9');
    const registerS = (Date.now() - registerStarted) / 1000;
    console.error(`ota-fanout: ${REGISTERED} nodes registered in ${registerS.toFixed(1)} s`);
    const group = await api(server, token, 'POST', '/v1/admin/node_group', {
      group_name: 'bench-b4-targets',
      node_model: TARGET_MODEL,
    });
    const groupId = group.json.group_id;
    const image = await api(server, token, 'POST', '/v1/admin/otaimage', {
      image_name: 'bench-b4',
      type: 'Washing Machine',
      fw_version: '9.9.9',
      model: TARGET_MODEL,
      base64_fwimage: Buffer.alloc(64 * 1024, 0xa5).toString('base64'),
    });
    const imageId = image.json.ota_image_id;

    // L live targets over the workers.
    const live = targets.slice(0, LIVE).map((n, i) => ({ ...n, fleet_index: i }));
    const {
      connected: liveConnected,
      failures: connectFailures,
      connectS,
    } = await connectThroughWorkers({
      script: path.join(HERE, 'ota-fanout-worker.mjs'),
      workers,
      children,
      url: server.mqttUrl,
      nodes: live,
      perWorker: PER_WORKER,
    });
    console.error(`ota-fanout: ${liveConnected}/${LIVE} live nodes connected in ${connectS} s`);
    // The connectivity of the last connects must be committed before the job looks for online nodes.
    await sleep(1500);

    // Job 1: force push to the group; live nodes report progress.
    await Promise.all(workers.map((w) => w.request({ type: 'progress', on: true }, 'progress')));
    const rssBefore = rssOf(server.pid);
    const cpuBefore = cpuSecondsOf(server.pid);
    let rssMax = rssBefore ?? 0;
    const rssSampler = setInterval(() => {
      rssMax = Math.max(rssMax, rssOf(server.pid) ?? 0);
    }, 250);
    const postAt = Date.now();
    const job = await api(server, token, 'POST', '/v1/admin/otajob?force_push=true', {
      ota_job_name: 'bench-b4',
      ota_image_id: imageId,
      groups: [groupId],
    });
    const jobId = job.json.ota_job_id;
    console.error(
      `ota-fanout: job ${jobId} for ${job.json.total_count} targets created in ${job.ms.toFixed(0)} ms`,
    );

    // Sample the summary (one request at a time) until every live node's verdict is counted.
    const summaryUrl = `/v1/admin/otajob/status/summary?ota_job_id=${jobId}`;
    const summaryLatencies = [];
    let summary = null;
    let finalAt = null;
    let allOfferedAt = null;
    let offersSeen = 0;
    let lastStats = null;
    const deadline = Date.now() + 2 * DEADLINE_MS;
    while (Date.now() < deadline) {
      const answer = await api(server, token, 'GET', summaryUrl);
      summary = answer.json;
      if (summary.in_progress + summary.success + summary.failed > 0)
        summaryLatencies.push(answer.ms);
      if (allOfferedAt === null) {
        lastStats = await stats(workers);
        offersSeen = lastStats.reduce((s, w) => s + (w.offers[jobId]?.count ?? 0), 0);
        if (offersSeen >= liveConnected)
          allOfferedAt = Math.max(...lastStats.map((w) => w.offers[jobId]?.last ?? 0));
      }
      if (summaryLatencies.length % 100 === 1)
        console.error(`ota-fanout: summary ${JSON.stringify(summary)}`);
      if (summary.success + summary.failed >= liveConnected) {
        finalAt = answer.at;
        break;
      }
      await sleep(20);
    }
    clearInterval(rssSampler);
    const cpuAfter = cpuSecondsOf(server.pid);
    const progressStats = await stats(workers);
    if (allOfferedAt === null) {
      offersSeen = progressStats.reduce((s, w) => s + (w.offers[jobId]?.count ?? 0), 0);
      if (offersSeen >= liveConnected)
        allOfferedAt = Math.max(...progressStats.map((w) => w.offers[jobId]?.last ?? 0));
    }
    const firstOfferAt = Math.min(...progressStats.map((w) => w.offers[jobId]?.first ?? Infinity));
    const sum = (key) => progressStats.reduce((s, w) => s + w[key], 0);
    const firstPublishAt = Math.min(...progressStats.map((w) => w.firstPublishAt ?? Infinity));
    const lastAckAt = Math.max(...progressStats.map((w) => w.lastAckAt ?? 0));
    const progressSent = sum('sent');
    const committedS = finalAt === null ? null : (finalAt - firstPublishAt) / 1000;
    const sortedSummary = summaryLatencies.sort((a, b) => a - b);
    const fanout = {
      post_to_response_s: round(job.ms / 1000, 3),
      total_count: job.json.total_count,
      live_connected: liveConnected,
      live_offered: offersSeen,
      post_to_first_offer_s: Number.isFinite(firstOfferAt)
        ? round((firstOfferAt - postAt) / 1000, 3)
        : null,
      post_to_all_live_offered_s:
        allOfferedAt === null ? null : round((allOfferedAt - postAt) / 1000, 3),
      progress_messages_sent: progressSent,
      progress_messages_acked: sum('acked'),
      progress_publish_failures: sum('failed'),
      progress_acked_msgs_per_s:
        lastAckAt > firstPublishAt
          ? round(sum('acked') / ((lastAckAt - firstPublishAt) / 1000), 0)
          : null,
      progress_committed_s: round(committedS, 2),
      progress_committed_msgs_per_s: committedS ? round(progressSent / committedS, 0) : null,
      final_summary: summary,
      expected_failed: live.filter(
        (n) => n.fleet_index < liveConnected && n.fleet_index % 50 === 49,
      ).length,
      summary_samples: sortedSummary.length,
      summary_ms: {
        p50: round(percentile(sortedSummary, 50), 1),
        p99: round(percentile(sortedSummary, 99), 1),
        max: round(sortedSummary[sortedSummary.length - 1] ?? null, 1),
      },
      server_cpu_cores:
        cpuBefore === null || cpuAfter === null || finalAt === null
          ? null
          : round((cpuAfter - cpuBefore) / ((finalAt - postAt) / 1000), 2),
      server_rss_mib_before: rssBefore === null ? null : round(rssBefore / 2 ** 20, 1),
      server_rss_mib_max: round(rssMax / 2 ** 20, 1),
    };
    console.error(`ota-fanout: progress final after ${fanout.progress_committed_s} s`);

    // Job 2: force push to the same group, cancelled as soon as the POST answers.
    await Promise.all(workers.map((w) => w.request({ type: 'progress', on: false }, 'progress')));
    const job2 = await api(server, token, 'POST', '/v1/admin/otajob?force_push=true', {
      ota_job_name: 'bench-b4-cancel',
      ota_image_id: imageId,
      groups: [groupId],
    });
    const job2Id = job2.json.ota_job_id;
    const cancel = await api(server, token, 'PUT', '/v1/admin/otajob', { ota_job_id: job2Id });
    await sleep(CANCEL_WATCH_MS);
    const cancelStats = await stats(workers);
    const offers2 = cancelStats.map((w) => w.offers[job2Id]).filter(Boolean);
    const lastOffer2 = offers2.length ? Math.max(...offers2.map((o) => o.last)) : null;
    const cancelFigures = {
      post_ms: round(job2.ms, 1),
      cancel_request_ms: round(cancel.ms, 1),
      offers_received: offers2.reduce((s, o) => s + o.count, 0),
      last_offer_after_cancel_response_s:
        lastOffer2 === null ? 0 : round(Math.max(0, lastOffer2 - cancel.at) / 1000, 3),
      last_offer_minus_cancel_response_s:
        lastOffer2 === null ? null : round((lastOffer2 - cancel.at) / 1000, 3),
      watched_s: CANCEL_WATCH_MS / 1000,
    };
    return {
      setup: {
        register_s: round(registerS, 1),
        live_connect_s: round(connectS, 2),
        connect_failures: connectFailures,
      },
      fanout,
      cancel: cancelFigures,
    };
  } finally {
    await closeWorkers(workers);
  }
}

async function main() {
  requireBuilt();
  const started = Date.now();
  const dataDir = benchTempDir();
  let result;
  const server = await startServer({ DATA_DIR: dataDir });
  try {
    result = await run(server);
  } finally {
    await server.stop();
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const { fanout, cancel } = result;
  const scale = (n, full) =>
    `${n.toLocaleString('en')} (B4: ${full.toLocaleString('en')}, ×${round(n / full, 3)})`;
  console.log(
    JSON.stringify({
      benchmark: 'B4 OTA fan-out (scaled)',
      mode: SMOKE ? 'smoke' : 'full',
      commit: gitCommit(),
      machine: machine(),
      scaled: {
        note: 'SCALED DOWN from B4: fewer registered nodes and targets than the benchmark names, so the figures are not a B4 verdict at full size (executions created, summary counting and dispatch scans grow with the targets)',
        registered: scale(REGISTERED, FULL.registered),
        targets: scale(TARGETS_N, FULL.targets),
        live: scale(LIVE, FULL.live),
      },
      workload: {
        registered: REGISTERED,
        targets: TARGETS_N,
        live_targets: LIVE,
        worker_processes: WORKERS,
        targeting: `automatic group node_model = ${TARGET_MODEL} (the targets only), POST /v1/admin/otajob?force_push=true {groups: [group]}`,
        live_node:
          'mqtt.js, clientId = username = node_id, subscribed to node/<id>/otaurl (QoS 1); on an offer 10 in-progress reports then success (every 50th node failed) on node/<id>/otastatus, QoS 1, each sent when the previous was acknowledged; no image download',
        cancel:
          'a second force-pushed job for the same group, PUT /v1/admin/otajob as soon as the POST answered, offers watched for a few seconds after',
        database: 'SQLite (fresh DATA_DIR)',
      },
      semantics: {
        post_to_response_s:
          'POST /otajob → response: the job and its executions (one per target) are committed',
        post_to_all_live_offered_s:
          'POST sent → the last live target received its otaurl (same machine clock)',
        progress_committed_msgs_per_s:
          'progress messages sent / (first progress publish → summary poll that shows success + failed = live nodes)',
        summary_ms:
          'GET /otajob/status/summary latency, one request at a time every 20 ms, samples taken once progress was counted until the final counts',
        last_offer_after_cancel_response_s:
          'time from the PUT (cancel) response to the last otaurl of the cancelled job any node received (0 when none came after)',
      },
      targets: TARGETS,
      ...result,
      pass: {
        executions_created: fanout.post_to_response_s <= TARGETS.executions_created_s,
        all_live_notified:
          fanout.post_to_all_live_offered_s !== null &&
          fanout.post_to_all_live_offered_s <= TARGETS.all_live_notified_s,
        progress_ingest: (fanout.progress_committed_msgs_per_s ?? 0) >= TARGETS.progress_msgs_per_s,
        summary_p99:
          fanout.summary_ms.p99 !== null && fanout.summary_ms.p99 <= TARGETS.summary_p99_ms,
        final_counts_exact:
          fanout.final_summary?.success + fanout.final_summary?.failed === fanout.live_connected &&
          fanout.final_summary?.failed === fanout.expected_failed,
        cancel_stops_offers:
          cancel.last_offer_after_cancel_response_s <= TARGETS.cancel_stops_offers_s,
      },
      elapsed_s: round((Date.now() - started) / 1000, 1),
    }),
  );
}

main().catch(failed);
