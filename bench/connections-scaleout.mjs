// B2 on the scale-out engine (ARCHITECTURE §1: MQTT_URL): the nodes connect to a Mosquitto 2
// this script starts with Fleetdeck's generated password and ACL files, and Fleetdeck consumes
// their births and wills through its external gateway. Registers N nodes over the API, rewrites
// the files and reloads Mosquitto (SIGHUP), connects the nodes from ≥ 2 worker processes (each
// with a Last Will, subscribed to its params/remote, then a retained birth on
// node/<id>/connection), and measures connects/s, RSS per node of Mosquitto and of Fleetdeck,
// idle CPU of both, and the time until the API shows every node online.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ROOT,
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
const IDLE_S = Number(process.env.BENCH_DURATION_S ?? (SMOKE ? 5 : 30));
const WORKERS = Math.max(2, Math.ceil(NODES / 9_000));
const NODES_PER_WORKER = Math.ceil(NODES / WORKERS);
const CONNECT_CONCURRENCY = 200;
const MOSQUITTO = process.env.MOSQUITTO_BIN ?? '/usr/sbin/mosquitto';
const AUTH_CLI = path.join(ROOT, 'packages/server/dist/gateway/mosquitto-auth-cli.js');
const TARGETS = {
  rss_kib_per_node: 12,
  connects_per_s: 3000,
  idle_cpu_percent_of_core: 3,
  reconnect_s: 10,
};
/** Every 50th node (2 %) goes away for good in each restart phase of B3. */
const STAY_DOWN_EVERY = 50;
const RECONNECT_DEADLINE_MS = SMOKE ? 25_000 : 120_000;

const children = new Set(); // worker processes, ended by PID on the way out

/** Writes Mosquitto's password and ACL files from the database (the project's own CLI). */
function writeAuthFiles(env, dir) {
  execFileSync(process.execPath, [AUTH_CLI, dir], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function onlineTotal(baseUrl, token, status = 'online') {
  const query = new URLSearchParams({ node_status: status, num_records: '1' });
  const response = await fetch(`${baseUrl}/v1/admin/nodes?${query}`, {
    headers: { authorization: token },
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`node list: ${response.status} ${JSON.stringify(body)}`);
  return body.total;
}

async function run(dataDir) {
  const mqttPort = await freePort();
  const account = { username: 'fleetdeck', password: randomBytes(16).toString('hex') };
  const mqttUrl = `mqtt://${account.username}:${account.password}@127.0.0.1:${mqttPort}`;
  const authDir = path.join(dataDir, 'mosquitto');
  fs.mkdirSync(authDir);
  const env = { DATA_DIR: dataDir, MQTT_URL: mqttUrl };
  writeAuthFiles(env, authDir);
  const { renderMosquittoConf } = await import(
    path.join(ROOT, 'packages/server/dist/gateway/mosquitto-config.js')
  );
  const confPath = path.join(authDir, 'mosquitto.conf');
  fs.writeFileSync(
    confPath,
    renderMosquittoConf({
      port: mqttPort,
      host: '127.0.0.1',
      passwordFilePath: path.join(authDir, 'password_file'),
      aclFilePath: path.join(authDir, 'acl_file'),
    }) +
      // Run as this user (as root Mosquitto would switch to "mosquitto" and lose the 0600 files).
      `log_type error\nmax_keepalive 300\nuser ${os.userInfo().username}\n`,
  );
  const startMosquitto = async () => {
    const child = endOnSignal(
      spawn(MOSQUITTO, ['-c', confPath], { stdio: ['ignore', 'ignore', 'inherit'] }),
    );
    children.add(child);
    child.once('exit', () => children.delete(child));
    await sleep(500);
    if (child.exitCode !== null) throw new Error(`mosquitto exited (${child.exitCode})`);
    return child;
  };
  let mosquitto = await startMosquitto();

  let server = await startServer(env);
  const workers = [];
  try {
    const token = await login(server.baseUrl);
    const nodes = await registerNodes(server.baseUrl, token, NODES, 'SO');
    writeAuthFiles(env, authDir);
    process.kill(mosquitto.pid, 'SIGHUP');
    await sleep(2000);
    const brokerRssBefore = rssOf(mosquitto.pid);
    const serverRssBefore = rssOf(server.pid);

    const started = Date.now();
    const connected = await connectThroughWorkers({
      script: path.join(HERE, 'connections-worker.mjs'),
      workers,
      children,
      url: `mqtt://127.0.0.1:${mqttPort}`,
      nodes,
      perWorker: NODES_PER_WORKER,
      concurrency: CONNECT_CONCURRENCY,
      extra: { birth: true },
    });
    console.error(
      `connections-scaleout: ${connected.connected}/${NODES} connected in ${connected.connectS} s`,
    );
    // The births are ingested asynchronously: wait until the API counts every node online.
    let online = 0;
    while (Date.now() - started < 120_000) {
      online = await onlineTotal(server.baseUrl, token);
      if (online === NODES) break;
      await sleep(100);
    }
    const apiAllOnlineS = online === NODES ? (Date.now() - started) / 1000 : null;

    await sleep(1000);
    const cpu0 = [cpuSecondsOf(mosquitto.pid), cpuSecondsOf(server.pid)];
    await sleep(IDLE_S * 1000);
    const cpu1 = [cpuSecondsOf(mosquitto.pid), cpuSecondsOf(server.pid)];
    const brokerRss = rssOf(mosquitto.pid);
    const serverRss = rssOf(server.pid);
    const perNode = (after, before) =>
      after === null || before === null || connected.connected === 0
        ? null
        : round((after - before) / 1024 / connected.connected, 2);
    const idle = (i) =>
      cpu0[i] === null || cpu1[i] === null ? null : round(((cpu1[i] - cpu0[i]) / IDLE_S) * 100, 2);
    const mosquittoKib = perNode(brokerRss, brokerRssBefore);
    const fleetdeckKib = perNode(serverRss, serverRssBefore);

    /** Polls the API until online/offline totals are as expected; seconds since `from`, or null. */
    const settle = async (baseUrl, apiToken, wantOnline, wantOffline, from) => {
      let last = { online: null, offline: null };
      while (Date.now() - from < RECONNECT_DEADLINE_MS) {
        const [on, off] = await Promise.all([
          onlineTotal(baseUrl, apiToken, 'online'),
          onlineTotal(baseUrl, apiToken, 'offline'),
        ]);
        last = { online: on, offline: off };
        if (on === wantOnline && off === wantOffline)
          return { s: round((Date.now() - from) / 1000, 2), ...last };
        await sleep(100);
      }
      return { s: null, ...last };
    };
    const dropAll = async (type, offset) => {
      const answers = await Promise.all(
        workers.map((w) => w.request({ type, every: STAY_DOWN_EVERY, offset }, type)),
      );
      return answers.reduce((sum, a) => sum + a.count, 0);
    };

    // B3 (a): Fleetdeck crashes; while it is down 2 % of the nodes vanish (their wills are
    // retained), then it starts again: the retained births and wills are the truth.
    await server.kill('SIGKILL');
    const killedAt = Date.now();
    const droppedWhileDown = await dropAll('drop', 0);
    server = await startServer(env);
    const readyAt = Date.now();
    const token2 = await login(server.baseUrl);
    const afterRestart = await settle(
      server.baseUrl,
      token2,
      NODES - droppedWhileDown,
      droppedWhileDown,
      killedAt,
    );
    const fleetdeckRestart = {
      nodes_gone_while_down: droppedWhileDown,
      server_restart_to_ready_s: round((readyAt - killedAt) / 1000, 2),
      right_state_s_from_kill: afterRestart.s,
      api_online: afterRestart.online,
      api_offline: afterRestart.offline,
      no_wrong_state: afterRestart.s !== null,
    };

    // B3 (b): Mosquitto crashes (SIGKILL: no wills, no retained messages kept) and starts again
    // on the same port; the nodes reconnect after 0–3 s with a new birth, except another 2 % that
    // stay away: only the sweep after Fleetdeck's new subscription can show those offline.
    const stayingAway = await dropAll('stayDown', 1);
    const brokerDown = droppedWhileDown + stayingAway;
    mosquitto.kill('SIGKILL');
    const brokerKilledAt = Date.now();
    await new Promise((resolve) =>
      mosquitto.exitCode !== null || mosquitto.signalCode !== null
        ? resolve()
        : mosquitto.once('exit', resolve),
    );
    mosquitto = await startMosquitto();
    const afterBroker = await settle(
      server.baseUrl,
      token2,
      NODES - brokerDown,
      brokerDown,
      brokerKilledAt,
    );
    const status = await Promise.all(workers.map((w) => w.request({ type: 'status' }, 'status')));
    const brokerRestart = {
      nodes_staying_away: stayingAway,
      right_state_s_from_kill: afterBroker.s,
      api_online: afterBroker.online,
      api_offline: afterBroker.offline,
      clients_connected: status.reduce((sum, x) => sum + x.online, 0),
      no_wrong_state: afterBroker.s !== null,
    };
    return {
      connected: connected.connected,
      connect_failures: connected.failures,
      connect_s: round(connected.connectS, 2),
      connects_per_s: round(connected.connected / connected.connectS, 0),
      api_all_online_s: apiAllOnlineS === null ? null : round(apiAllOnlineS, 2),
      api_online_total: online,
      rss_kib_per_node: {
        mosquitto: mosquittoKib,
        fleetdeck: fleetdeckKib,
        both:
          mosquittoKib === null || fleetdeckKib === null
            ? null
            : round(mosquittoKib + fleetdeckKib, 2),
      },
      rss_mib: {
        mosquitto: brokerRss === null ? null : round(brokerRss / 2 ** 20, 1),
        fleetdeck: serverRss === null ? null : round(serverRss / 2 ** 20, 1),
      },
      idle_cpu_percent_of_core: { mosquitto: idle(0), fleetdeck: idle(1) },
      b3: { fleetdeck_restart: fleetdeckRestart, broker_restart: brokerRestart },
    };
  } finally {
    await closeWorkers(workers);
    await server.stop();
    if (mosquitto.exitCode === null && mosquitto.signalCode === null)
      process.kill(mosquitto.pid, 'SIGTERM');
  }
}

async function main() {
  requireBuilt();
  if (!fs.existsSync(MOSQUITTO)) {
    console.error(`connections-scaleout: ${MOSQUITTO} not found (apt-get install mosquitto)`);
    process.exit(2);
  }
  const startedAt = Date.now();
  const dataDir = benchTempDir();
  let b2;
  try {
    b2 = await run(dataDir);
  } finally {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const both = b2.rss_kib_per_node.both;
  console.log(
    JSON.stringify({
      benchmark: 'B2 connections on the scale-out engine (Mosquitto via MQTT_URL)',
      mode: SMOKE ? 'smoke' : 'full',
      commit: gitCommit(),
      machine: machine(),
      workload: {
        nodes: NODES,
        worker_processes: WORKERS,
        connect_concurrency_per_worker: CONNECT_CONCURRENCY,
        broker: `Mosquitto (${MOSQUITTO}) with Fleetdeck's generated password_file (PBKDF2-SHA512) and acl_file, use_username_as_clientid`,
        client:
          'bench/mqtt-lite.mjs: clientId = username = node_id, Last Will (retained, QoS 1) on node/<id>/connection, SUBSCRIBE node/<id>/params/remote, retained birth (QoS 1)',
        idle_window_s: IDLE_S,
        database: 'SQLite (fresh DATA_DIR)',
      },
      semantics: {
        connects_per_s:
          'connected nodes / wall time until every worker has all CONNACKs, SUBACKs and birth PUBACKs',
        api_all_online_s:
          'from the first CONNECT until GET /v1/admin/nodes?node_status=online reports N (births ingested)',
        rss_kib_per_node:
          '(VmRSS after the idle window − VmRSS after registration and reload) / connected nodes, for Mosquitto and for Fleetdeck',
        b3_fleetdeck_restart:
          'SIGKILL Fleetdeck; while it is down every 50th node cuts its connection (Last Will, retained) and stays away; start Fleetdeck again; seconds from the kill until the API shows exactly those offline and every other node online',
        b3_broker_restart:
          'then every 50th node (another 2 %) is told to stay away, Mosquitto is SIGKILLed (no wills, no retained messages kept) and started on the same port; the others reconnect after 0–3 s (uniform), retrying every 0.5–1 s, each with a new retained birth; seconds from the kill until the API shows every node that stayed away offline and every other node online',
      },
      targets: TARGETS,
      b2,
      pass: {
        connects_per_s: b2.connects_per_s >= TARGETS.connects_per_s,
        rss_kib_per_node: both !== null && both <= TARGETS.rss_kib_per_node,
        idle_cpu:
          b2.idle_cpu_percent_of_core.mosquitto !== null &&
          b2.idle_cpu_percent_of_core.fleetdeck !== null &&
          b2.idle_cpu_percent_of_core.mosquitto + b2.idle_cpu_percent_of_core.fleetdeck <=
            TARGETS.idle_cpu_percent_of_core,
        api_online_total: b2.api_online_total === NODES,
        b3_fleetdeck_restart:
          b2.b3.fleetdeck_restart.no_wrong_state &&
          b2.b3.fleetdeck_restart.right_state_s_from_kill <= TARGETS.reconnect_s,
        b3_broker_restart:
          b2.b3.broker_restart.no_wrong_state &&
          b2.b3.broker_restart.right_state_s_from_kill <= TARGETS.reconnect_s,
      },
      elapsed_s: round((Date.now() - startedAt) / 1000, 1),
    }),
  );
}

main().catch(failed);
