// B2 + B3: device connections and reconnect storm. Registers N nodes over the API, connects them
// with their own credentials (each subscribed to its own params/remote) from ≥ 2 worker processes,
// measures connects/s, server RSS per connected node and idle server CPU, checks the online total
// through the API (B2); then SIGKILLs the server, starts it again on the same ports and DATA_DIR
// while the nodes reconnect with 0–3 s jitter, and times until the API shows all N online and none
// offline (B3).
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  SMOKE,
  benchTempDir,
  closeWorkers,
  connectThroughWorkers,
  cpuSecondsOf,
  endOnSignal,
  failed,
  freePort,
  gitCommit,
  login,
  machine,
  registerNodes,
  requireBuilt,
  round,
  rssOf,
  sleep,
  startServer,
} from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const NODES = Number(process.env.BENCH_NODES ?? (SMOKE ? 2_000 : 18_000));
// B2 holds the nodes 5 min. V8 gives back the young generation that the connect storm grew, and
// collects the storm's garbage, only once the heap has been quiet for a while (its memory
// reducer): RSS read right after the storm counts that garbage as per-node memory.
const IDLE_S = Number(process.env.BENCH_DURATION_S ?? (SMOKE ? 5 : 300));
// One process may hold ~19,900 sockets on the reference machine: at least two workers, ≤ 9,000 each.
const WORKERS = Math.max(2, Math.ceil(NODES / 9_000));
const NODES_PER_WORKER = Math.ceil(NODES / WORKERS);
const CONNECT_CONCURRENCY = 200; // in-flight connects per worker
const RECONNECT_DEADLINE_MS = SMOKE ? 25_000 : 120_000;
const TARGETS = {
  rss_kib_per_node: 12,
  connects_per_s: 3000,
  idle_cpu_percent_of_core: 3,
  reconnect_s: 10,
};

const children = new Set(); // PIDs this script started, ended on the way out

/** `total` of the node list for a status filter, through the API. */
async function totalWithStatus(baseUrl, token, status) {
  const query = new URLSearchParams({ node_status: status, num_records: '1' });
  const response = await fetch(`${baseUrl}/v1/admin/nodes?${query}`, {
    headers: { authorization: token },
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`node list: ${response.status} ${JSON.stringify(body)}`);
  return body.total;
}

/** Forks the workers and connects `nodes` through them; resolves when every worker is done. */
async function connectWorkers(workers, url, nodes) {
  const run = await connectThroughWorkers({
    script: path.join(HERE, 'connections-worker.mjs'),
    workers,
    children,
    url,
    nodes,
    perWorker: NODES_PER_WORKER,
    concurrency: CONNECT_CONCURRENCY,
  });
  return {
    connectS: run.connectS,
    connectedCount: run.connected,
    connectFailures: run.failures,
  };
}

/**
 * The peer: the same workers against a bare Aedes (no authentication, no ACL, no database) in its
 * own process; connects/s and RSS per connected node.
 */
async function bareAedesRun() {
  const child = endOnSignal(fork(path.join(HERE, 'aedes-bare.mjs'), [], { stdio: 'inherit' }));
  children.add(child);
  const workers = [];
  try {
    const { port } = await new Promise((resolve) => child.once('message', resolve));
    await sleep(500);
    const rssBefore = rssOf(child.pid);
    const nodes = Array.from({ length: NODES }, (_, i) => ({
      node_id: `B${String(i).padStart(11, '0')}`,
      mqtt_password: 'unused',
    }));
    const run = await connectWorkers(workers, `mqtt://127.0.0.1:${port}`, nodes);
    await sleep(1000);
    const rssAfterConnect = rssOf(child.pid);
    await sleep(IDLE_S * 1000);
    const rssAfter = rssOf(child.pid);
    return {
      connected: run.connectedCount,
      connect_s: round(run.connectS, 2),
      connects_per_s: round(run.connectedCount / run.connectS, 0),
      rss_kib_per_node_after_connect: kibPerNode(rssBefore, rssAfterConnect, run.connectedCount),
      rss_kib_per_node: kibPerNode(rssBefore, rssAfter, run.connectedCount),
    };
  } finally {
    await closeWorkers(workers);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(child.pid, 'SIGTERM');
    await exited;
  }
}

/** (RSS after − RSS before) per connected node in KiB, or null. */
function kibPerNode(before, after, connected) {
  return before === null || after === null || connected === 0
    ? null
    : round((after - before) / 1024 / connected, 2);
}

const servers = new Set(); // servers this script started, SIGKILLed on the way out if still up

/** The built server on fixed ports and DATA_DIR (B3 starts it again where it ran). */
async function startServerOn(ports, dataDir) {
  const server = await startServer({ DATA_DIR: dataDir }, ports);
  servers.add(server);
  return server;
}

async function run(dataDir) {
  const ports = { port: await freePort(), mqttPort: await freePort() };
  let server = await startServerOn(ports, dataDir);
  const workers = [];
  try {
    const nodes = await registerNodes(server.baseUrl, await login(server.baseUrl), NODES, 'B2');
    // Registering 18,000 nodes through the API grows the server's heap. A fresh start on the same
    // DATA_DIR is the baseline: what the server holds with the fleet registered and none connected.
    await server.kill('SIGTERM');
    server = await startServerOn(ports, dataDir);
    const token = await login(server.baseUrl);
    await sleep(2000);
    const rssBefore = rssOf(server.pid);

    // B2: connect, hold idle, count.
    const { connectS, connectedCount, connectFailures } = await connectWorkers(
      workers,
      server.mqttUrl,
      nodes,
    );
    console.error(`connections: ${connectedCount}/${NODES} connected in ${connectS.toFixed(2)} s`);

    await sleep(1000); // let the post-connect writes settle before the idle window
    const rssAfterConnect = rssOf(server.pid);
    const cpuBefore = cpuSecondsOf(server.pid);
    await sleep(IDLE_S * 1000);
    const cpuAfter = cpuSecondsOf(server.pid);
    const rssAfter = rssOf(server.pid);
    const onlineTotal = await totalWithStatus(server.baseUrl, token, 'online');
    const idleCpuPercent =
      cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) / IDLE_S) * 100;
    const rssKibPerNode = kibPerNode(rssBefore, rssAfter, connectedCount);
    const b2 = {
      connected: connectedCount,
      connect_failures: connectFailures,
      connect_s: round(connectS, 2),
      connects_per_s: round(connectedCount / connectS, 0),
      server_rss_mib_before: rssBefore === null ? null : round(rssBefore / 2 ** 20, 1),
      server_rss_mib_after_connect:
        rssAfterConnect === null ? null : round(rssAfterConnect / 2 ** 20, 1),
      server_rss_mib_connected: rssAfter === null ? null : round(rssAfter / 2 ** 20, 1),
      rss_kib_per_node_after_connect: kibPerNode(rssBefore, rssAfterConnect, connectedCount),
      rss_kib_per_node: rssKibPerNode,
      idle_window_s: IDLE_S,
      idle_cpu_percent_of_core: round(idleCpuPercent, 2),
      api_online_total: onlineTotal,
      api_online_total_matches: onlineTotal === NODES,
    };

    // B3: SIGKILL, restart on the same ports and DATA_DIR, wait for the API to show all online.
    console.error('connections: SIGKILL server, restarting');
    const killedAt = Date.now();
    await server.kill('SIGKILL');
    server = await startServerOn(ports, dataDir);
    const readyAt = Date.now();
    const token2 = await login(server.baseUrl);
    let online = 0;
    let offline = null;
    let allOnlineAt = null;
    let polls = 0;
    while (Date.now() - killedAt < RECONNECT_DEADLINE_MS) {
      [online, offline] = await Promise.all([
        totalWithStatus(server.baseUrl, token2, 'online'),
        totalWithStatus(server.baseUrl, token2, 'offline'),
      ]);
      polls += 1;
      if (online === NODES && offline === 0) {
        allOnlineAt = Date.now();
        break;
      }
      await sleep(100);
    }
    const status = await Promise.all(workers.map((w) => w.request({ type: 'status' }, 'status')));
    const b3 = {
      server_restart_to_ready_s: round((readyAt - killedAt) / 1000, 2),
      reconnect_s_from_kill:
        allOnlineAt === null ? null : round((allOnlineAt - killedAt) / 1000, 2),
      reconnect_s_from_ready:
        allOnlineAt === null ? null : round((allOnlineAt - readyAt) / 1000, 2),
      api_online: online,
      api_offline: offline,
      all_online_no_wrong_state: allOnlineAt !== null,
      clients_connected: status.reduce((s, x) => s + x.online, 0),
      reconnect_attempts: status.reduce((s, x) => s + x.reconnectAttempts, 0),
      reconnect_failed_attempts: status.reduce((s, x) => s + x.reconnectFailures, 0),
      api_polls: polls,
      deadline_s: RECONNECT_DEADLINE_MS / 1000,
    };
    return { b2, b3 };
  } finally {
    await closeWorkers(workers);
    await server.kill('SIGTERM');
  }
}

async function main() {
  requireBuilt();
  const started = Date.now();
  const dataDir = benchTempDir();
  let result;
  try {
    result = await run(dataDir);
  } finally {
    for (const server of servers) await server.kill('SIGKILL');
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const { b2, b3 } = result;
  const bare = await bareAedesRun();
  const ratio = (a, b) => (a && b ? round(a / b, 3) : null);
  console.log(
    JSON.stringify({
      benchmark: 'B2 connections + B3 reconnect storm',
      mode: SMOKE ? 'smoke' : 'full',
      commit: gitCommit(),
      machine: machine(),
      workload: {
        nodes: NODES,
        worker_processes: WORKERS,
        connect_concurrency_per_worker: CONNECT_CONCURRENCY,
        client:
          'bench/mqtt-lite.mjs (a device-sized MQTT 3.1.1 client), clientId = username = node_id, password = mqtt_password, keepalive 120',
        subscription: 'node/<id>/params/remote, QoS 1',
        idle_window_s: IDLE_S,
        hold: 'held for the idle window (B2: 5 min; smoke 5 s); RSS is read 1 s after the last connect and at the end of the window',
        restart:
          'SIGKILL, then the same ports and DATA_DIR; each node waits 0–3 s (uniform), retries every 0.5–1 s',
        database: 'SQLite (fresh DATA_DIR)',
      },
      semantics: {
        rss_kib_per_node:
          '(server VmRSS at the end of the idle window − VmRSS of the server started afresh after registration, 2 s after start, before any connect) / connected nodes; the bare Aedes peer: its VmRSS at the end of the same window − VmRSS 0.5 s after start. rss_kib_per_node_after_connect: the same, read 1 s after the last connect',
        connects_per_s:
          'connected nodes / wall time from the first CONNECT to the last SUBACK of all workers (CONNACK + SUBACK per node)',
        idle_cpu_percent_of_core:
          'server user+system CPU (/proc/<pid>/stat) over the idle window, starting 1 s after the last connect',
        reconnect_s_from_kill:
          'from SIGKILL until GET /v1/admin/nodes reports online total = N and offline total = 0 (includes the server start)',
      },
      targets: TARGETS,
      b2,
      b3,
      bare_aedes: bare,
      ratio_to_bare_aedes: {
        connects_per_s: ratio(b2.connects_per_s, bare.connects_per_s),
        rss_kib_per_node: ratio(b2.rss_kib_per_node, bare.rss_kib_per_node),
      },
      pass: {
        rss_kib_per_node:
          b2.rss_kib_per_node !== null && b2.rss_kib_per_node <= TARGETS.rss_kib_per_node,
        connects_per_s: b2.connects_per_s >= TARGETS.connects_per_s,
        idle_cpu:
          b2.idle_cpu_percent_of_core !== null &&
          b2.idle_cpu_percent_of_core <= TARGETS.idle_cpu_percent_of_core,
        api_online_total: b2.api_online_total_matches,
        reconnect_s:
          b3.reconnect_s_from_kill !== null && b3.reconnect_s_from_kill <= TARGETS.reconnect_s,
        no_wrong_state: b3.all_online_no_wrong_state,
      },
      elapsed_s: round((Date.now() - started) / 1000, 1),
    }),
  );
}

main().catch(failed);
