// B1: telemetry ingest through the embedded broker. Registers nodes over the API, connects them
// with their own credentials from publisher processes, publishes params/local at QoS 1 for a fixed
// time, then checks through the API that each node's last acknowledged message was persisted.
// The same publish load then runs against a bare Aedes for the ratio.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  SMOKE,
  benchTempDir,
  cpuSecondsOf,
  endOnSignal,
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
const NODES = Number(process.env.BENCH_NODES ?? (SMOKE ? 1_000 : 10_000));
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? (SMOKE ? 8 : 30));
// One process may hold ~19,900 sockets on the reference machine; stay well below. At least two
// publisher processes, so one mqtt.js event loop is not the only bottleneck.
const WORKERS = Math.max(2, Math.ceil(NODES / 5_000));
const NODES_PER_WORKER = Math.ceil(NODES / WORKERS);
const DRAIN_TIMEOUT_MS = 30_000;
// The paced phase: the fleet publishes at B1's target rate on its own clock (open loop).
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 25_000);
const PACED_S = Number(process.env.BENCH_PACED_S ?? (SMOKE ? 5 : 15));

/** Runs the publish load from worker processes against `url`; samples the broker process. */
async function publishLoad(url, nodes, brokerPid) {
  const workers = [];
  for (let i = 0; i < nodes.length; i += NODES_PER_WORKER) {
    const child = endOnSignal(fork(path.join(HERE, 'ingest-worker.mjs'), [], { stdio: 'inherit' }));
    const messages = [];
    const waiters = [];
    child.on('message', (m) => {
      const waiter = waiters.shift();
      if (waiter) waiter(m);
      else messages.push(m);
    });
    const nextMessage = () =>
      messages.length ? Promise.resolve(messages.shift()) : new Promise((r) => waiters.push(r));
    child.send({
      url,
      nodes: nodes.slice(i, i + NODES_PER_WORKER),
      durationS: DURATION_S,
      connectConcurrency: 100,
    });
    workers.push({ child, nextMessage });
  }
  // Each worker reports its connect time and then the time its nodes took to publish their config.
  const connected = await Promise.all(workers.map((w) => w.nextMessage()));
  const rssBefore = rssOf(brokerPid);
  const cpuBefore = cpuSecondsOf(brokerPid);
  let rssMax = rssBefore ?? 0;
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, rssOf(brokerPid) ?? 0);
  }, 250);
  const started = Date.now();
  for (const w of workers) w.child.send('go');
  const done = await Promise.all(workers.map((w) => w.nextMessage()));
  const publishEnd = Date.now();
  const cpuAfter = cpuSecondsOf(brokerPid);
  clearInterval(sampler);
  const latencies = done.flatMap((d) => d.latencies).sort((a, b) => a - b);
  const acked = done.reduce((sum, d) => sum + d.acked, 0);
  const elapsedS = (publishEnd - started) / 1000;
  return {
    workers,
    publishEnd,
    lastAcked: Object.assign({}, ...done.map((d) => d.lastAcked)),
    figures: {
      connected: connected.reduce((sum, c) => sum + c.connected, 0),
      connect_failures: connected.reduce((sum, c) => sum + c.connectFailures, 0),
      connects_per_s: round(nodes.length / Math.max(...connected.map((c) => c.connectS)), 0),
      config_failures: connected.reduce((sum, c) => sum + c.configFailures, 0),
      config_publish_s: round(Math.max(...connected.map((c) => c.configS)), 2),
      acked,
      publish_failures: done.reduce((sum, d) => sum + d.failed, 0),
      payload_bytes_avg: round(done.reduce((s, d) => s + d.bytes, 0) / Math.max(1, acked), 0),
      elapsed_s: round(elapsedS, 2),
      acked_msgs_per_s: round(acked / elapsedS, 0),
      puback_latency_ms: {
        p50: round(percentile(latencies, 50)),
        p99: round(percentile(latencies, 99)),
        max: round(latencies[latencies.length - 1] ?? null),
      },
      broker_rss_mib_before: rssBefore === null ? null : round(rssBefore / 2 ** 20, 1),
      broker_rss_mib_max: round(rssMax / 2 ** 20, 1),
      broker_cpu_cores_used:
        cpuBefore === null || cpuAfter === null ? null : round((cpuAfter - cpuBefore) / elapsedS),
    },
  };
}

/**
 * Every connected node publishes PACED_RATE / nodes messages a second for PACED_S, not waiting
 * for its PUBACK (at most 20 in flight; a send that would exceed that is counted as skipped).
 * The PUBACK latency here is publish → durable at the target rate.
 */
async function pacedLoad(workers, nodeCount, brokerPid, api) {
  const ratePerNode = PACED_RATE / nodeCount;
  const cpuBefore = cpuSecondsOf(brokerPid);
  const started = Date.now();
  for (const w of workers) w.child.send({ type: 'paced', ratePerNode, durationS: PACED_S });
  const probing = { done: false };
  const probe = api ? probeApi(api, probing) : undefined;
  const done = await Promise.all(workers.map((w) => w.nextMessage()));
  probing.done = true;
  const apiDuringLoad = await probe;
  const elapsedS = (Date.now() - started) / 1000;
  const cpuAfter = cpuSecondsOf(brokerPid);
  const latencies = done.flatMap((d) => d.latencies).sort((a, b) => a - b);
  const sum = (key) => done.reduce((total, d) => total + d[key], 0);
  return {
    target_msgs_per_s: PACED_RATE,
    duration_s: PACED_S,
    sent: sum('sent'),
    acked: sum('acked'),
    failed: sum('failed'),
    skipped_over_20_in_flight: sum('skipped'),
    // Over the window plus the wait for the last acknowledgements.
    acked_msgs_per_s: round(sum('acked') / elapsedS, 0),
    elapsed_s: round(elapsedS, 2),
    puback_latency_ms: {
      p50: round(percentile(latencies, 50)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies[latencies.length - 1] ?? null),
    },
    broker_cpu_cores_used:
      cpuBefore === null || cpuAfter === null ? null : round((cpuAfter - cpuBefore) / elapsedS),
    ...(apiDuringLoad ? { api_during_load: apiDuringLoad } : {}),
  };
}

/**
 * What an operator sees meanwhile: the devices page's call (`GET /v1/admin/nodes`, 10 rows),
 * one request every API_PROBE_INTERVAL_MS (the next starts when both the interval has passed and
 * the previous answer is in), timed from request to the whole body.
 */
const API_PROBE_INTERVAL_MS = 100;
async function probeApi({ baseUrl, token }, probing) {
  const latencies = [];
  let failed = 0;
  while (!probing.done) {
    const started = performance.now();
    try {
      const response = await fetch(`${baseUrl}/v1/admin/nodes?num_records=10`, {
        headers: { authorization: token },
      });
      await response.arrayBuffer();
      if (!response.ok) failed += 1;
    } catch {
      failed += 1;
    }
    const took = performance.now() - started;
    latencies.push(took);
    await sleep(Math.max(0, API_PROBE_INTERVAL_MS - took));
  }
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    failed,
    latency_ms: {
      p50: round(percentile(latencies, 50)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies[latencies.length - 1] ?? null),
    },
  };
}

async function closeWorkers(workers) {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise((resolve) => {
          w.child.once('exit', resolve);
          w.child.send('close');
          setTimeout(() => {
            if (w.child.exitCode === null) w.child.kill('SIGKILL');
          }, 10_000).unref();
        }),
    ),
  );
}

/** Nodes whose stored params do not yet carry their last acknowledged seq (via the API). */
async function unpersisted(baseUrl, token, lastAcked) {
  const missing = new Set(Object.keys(lastAcked));
  let startId;
  for (;;) {
    const query = new URLSearchParams({ num_records: '100', node_details: 'true' });
    if (startId) query.set('start_id', startId);
    const response = await fetch(`${baseUrl}/v1/admin/nodes?${query}`, {
      headers: { authorization: token },
    });
    const body = await response.json();
    for (const info of body.node_info) {
      const seq = info.params?.Washer?.seq;
      if (seq !== undefined && seq >= lastAcked[info.node_id]) missing.delete(info.node_id);
    }
    if (!body.next_id) break;
    startId = body.next_id;
  }
  return missing.size;
}

async function fleetdeckRun() {
  const dataDir = benchTempDir();
  const server = await startServer({ DATA_DIR: dataDir });
  try {
    const token = await login(server.baseUrl);
    const registerStarted = Date.now();
    const nodes = await registerNodes(server.baseUrl, token, NODES, 'B1');
    const registerS = (Date.now() - registerStarted) / 1000;
    const run = await publishLoad(server.mqttUrl, nodes, server.pid);
    // Persisted = the node's last acknowledged params document is readable through the API.
    let left = await unpersisted(server.baseUrl, token, run.lastAcked);
    while (left > 0 && Date.now() - run.publishEnd < DRAIN_TIMEOUT_MS) {
      await sleep(100);
      left = await unpersisted(server.baseUrl, token, run.lastAcked);
    }
    const drainMs = Date.now() - run.publishEnd;
    const rssAfter = rssOf(server.pid);
    const paced = await pacedLoad(run.workers, NODES, server.pid, {
      baseUrl: server.baseUrl,
      token,
    });
    await closeWorkers(run.workers);
    const figures = run.figures;
    const totalS = figures.elapsed_s + drainMs / 1000;
    return {
      ...figures,
      register_s: round(registerS, 2),
      nodes_last_message_not_persisted: left,
      drain_ms_upper_bound: drainMs,
      persisted_msgs_per_s: left === 0 ? round(figures.acked / totalS, 0) : null,
      server_rss_mib_after: rssAfter === null ? null : round(rssAfter / 2 ** 20, 1),
      paced,
    };
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function aedesRun(nodes) {
  const child = endOnSignal(fork(path.join(HERE, 'aedes-bare.mjs'), [], { stdio: 'inherit' }));
  try {
    const { port } = await new Promise((resolve) => child.once('message', resolve));
    const run = await publishLoad(`mqtt://127.0.0.1:${port}`, nodes, child.pid);
    const paced = await pacedLoad(run.workers, nodes.length, child.pid);
    await closeWorkers(run.workers);
    return { ...run.figures, paced };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(child.pid, 'SIGTERM');
    await exited;
  }
}

async function main() {
  requireBuilt();
  const started = Date.now();
  const fleetdeck = await fleetdeckRun();
  const fakeNodes = Array.from({ length: NODES }, (_, i) => ({
    node_id: `B${String(i).padStart(11, '0')}`,
    mqtt_password: 'unused',
  }));
  const aedes = await aedesRun(fakeNodes);
  const ratio = (a, b) => (a && b ? round(a / b, 3) : null);
  console.log(
    JSON.stringify({
      benchmark: 'B1 ingest',
      mode: SMOKE ? 'smoke' : 'full',
      commit: gitCommit(),
      machine: machine(),
      workload: {
        nodes: NODES,
        publisher_processes: WORKERS,
        duration_s: DURATION_S,
        topic: 'node/<id>/params/local',
        payload_bytes: '150-249 (JSON params document with a per-node sequence number)',
        qos: 1,
        in_flight_per_node: 1,
        database: 'SQLite (fresh DATA_DIR)',
      },
      semantics: {
        acknowledged:
          'PUBACK received by the node. The embedded broker sends the PUBACK of a QoS 1 publish only after the batch holding it has committed (group commit every 50 ms or 2,000 nodes; ADR 0005), so an acknowledged message is durable.',
        persisted:
          "after the publish window, every node's LAST acknowledged params document is read back through GET /v1/admin/nodes?node_details=true. Ingest coalesces per node, so intermediate messages are merged, not stored one by one; persisted_msgs_per_s = acknowledged messages / (publish time + time until the last one was visible), null if some never were. drain_ms_upper_bound includes the API polling time.",
        publish_to_durable_p99_ms:
          'the PUBACK follows the commit, so the PUBACK latency percentiles are the publish → durable latency. Judged in the paced phase (the fleet publishing at the target rate on its own clock); in the closed-loop phase, where every node sends its next message on the PUBACK, latency is nodes / throughput by construction.',
      },
      targets: {
        persisted_msgs_per_s: 25000,
        publish_to_durable_p99_ms: 100,
        server_rss_mib: 1024,
      },
      fleetdeck,
      bare_aedes: aedes,
      ratio_to_bare_aedes: {
        acked: ratio(fleetdeck.acked_msgs_per_s, aedes.acked_msgs_per_s),
        persisted: ratio(fleetdeck.persisted_msgs_per_s, aedes.acked_msgs_per_s),
        paced_p99: ratio(fleetdeck.paced.puback_latency_ms.p99, aedes.paced.puback_latency_ms.p99),
      },
      pass: {
        persisted_msgs_per_s: (fleetdeck.persisted_msgs_per_s ?? 0) >= 25000,
        ack_after_commit: true,
        publish_to_durable_p99:
          fleetdeck.paced.puback_latency_ms.p99 !== null &&
          fleetdeck.paced.puback_latency_ms.p99 <= 100 &&
          fleetdeck.paced.skipped_over_20_in_flight === 0,
        server_rss: fleetdeck.broker_rss_mib_max <= 1024,
      },
      elapsed_s: round((Date.now() - started) / 1000, 1),
    }),
  );
}

main().catch(failed);
