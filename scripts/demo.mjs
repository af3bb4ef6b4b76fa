// `npm run demo`: Fleetdeck plus 200 simulated appliances, on free ports, with its data in
// ./data/demo (kept between runs; DEMO_DATA_DIR to choose another). Ctrl+C stops the simulator
// first, then the server. When the simulator stops by itself (killed, crashed), the server keeps
// running so its nodes are seen going offline; Enter starts the simulator again.
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { root, serverCommand } from './build-state.mjs';
// Builds contract, server, simulator and web app when any of them is missing or stale.
import './ensure-built.mjs';

const DEMO_NODES = 200;
/**
 * Connection drops per hour per 1000 nodes: the simulator's default (3) is ~0.6 an hour over 200
 * appliances, so the demo asks for 20, a drop (and its return) every quarter of an hour or so.
 */
const DEMO_FLAP_RATE = 20;
const ADMIN_EMAIL = 'demo-admin@fleetdeck.example';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = { simulator: 10_000, server: 25_000 };

// DEMO_DATA_DIR puts a demo elsewhere (a second demo, or a test's own directory).
const dataDir = path.resolve(root, process.env.DEMO_DATA_DIR ?? path.join('data', 'demo'));
/** A path as the operator reads it: relative inside the project, absolute elsewhere. */
const shown = (p) => (p.startsWith(root + path.sep) ? path.relative(root, p) : p);
const shownDataDir = shown(dataDir);
const credentialsFile = path.join(dataDir, 'credentials.json');
const stateFile = path.join(dataDir, 'fleet.json');
const serverLog = path.join(dataDir, 'server.log');
const serverEntry = await serverCommand();
const simulatorCli = path.join(root, 'packages/simulator/dist/cli.js');

function fail(line) {
  console.error(`demo: ${line}`);
  process.exit(1);
}

/** A TCP port nobody listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function ports() {
  const http = process.env.PORT ? Number(process.env.PORT) : await freePort();
  let mqtt = process.env.MQTT_PORT ? Number(process.env.MQTT_PORT) : await freePort();
  while (mqtt === http) mqtt = await freePort();
  return { http, mqtt };
}

/** 20 random characters with upper, lower and digits, never containing the e-mail's name. */
function strongPassword() {
  const sets = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789'];
  const all = sets.join('');
  const name = ADMIN_EMAIL.split('@')[0].toLowerCase();
  for (;;) {
    const chars = sets.map((set) => set[randomInt(set.length)]);
    while (chars.length < 20) chars.push(all[randomInt(all.length)]);
    for (let i = chars.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [chars[i], chars[j]] = [chars[j], chars[i]];
    }
    const password = chars.join('');
    if (!password.toLowerCase().includes(name)) return password;
  }
}

/** The demo's admin account: generated on the first run, read back afterwards. */
function credentials() {
  if (fs.existsSync(credentialsFile)) {
    const stored = JSON.parse(fs.readFileSync(credentialsFile, 'utf8'));
    if (typeof stored.email !== 'string' || typeof stored.password !== 'string')
      fail(`${shown(credentialsFile)} is damaged; delete ${shownDataDir} to start afresh.`);
    return stored;
  }
  const leftovers = fs.existsSync(dataDir) ? fs.readdirSync(dataDir) : [];
  if (leftovers.some((name) => name.startsWith('fleetdeck.db') || name === 'fleet.json')) {
    fail(
      `${shownDataDir} holds an earlier demo whose credentials.json is gone; delete ${shownDataDir} to start afresh.`,
    );
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const created = { email: ADMIN_EMAIL, password: strongPassword() };
  fs.writeFileSync(credentialsFile, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
  return created;
}

function lastLines(file, count) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-count).join('\n');
  } catch {
    return '';
  }
}

function exited(child) {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Resolves when the child has exited; after `ms` it is killed outright. */
function waitForExit(child, ms) {
  if (!child || exited(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      if (!exited(child)) process.kill(child.pid, 'SIGKILL');
    }, ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

const admin = credentials();
const { http: httpPort, mqtt: mqttPort } = await ports();
const host = process.env.HOST ?? '127.0.0.1';
const mqttUrl = process.env.MQTT_URL ?? `mqtt://127.0.0.1:${mqttPort}`;
const apiUrl = `http://127.0.0.1:${httpPort}`;
const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${httpPort}`;

const children = { server: undefined, simulator: undefined };
let stopping = false;

/** Stops the simulator (so its nodes say goodbye), then the server, then exits. */
async function shutdown(signal, code) {
  if (stopping) return;
  stopping = true;
  const { server, simulator } = children;
  if (simulator && !exited(simulator)) process.kill(simulator.pid, signal);
  await waitForExit(simulator, STOP_TIMEOUT_MS.simulator);
  if (server && !exited(server)) process.kill(server.pid, signal);
  await waitForExit(server, STOP_TIMEOUT_MS.server);
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => void shutdown(signal === 'SIGHUP' ? 'SIGTERM' : signal, 0));
}
// Children run in their own process groups (so Ctrl+C reaches only us and we can stop them in
// order); never leave them behind if this process ends some other way.
process.on('exit', () => {
  for (const child of Object.values(children)) {
    if (child && !exited(child)) process.kill(child.pid, 'SIGTERM');
  }
});

fs.mkdirSync(dataDir, { recursive: true });
const log = fs.createWriteStream(serverLog, { flags: 'a' });
const server = spawn(process.execPath, [...serverEntry.nodeArgs, serverEntry.main], {
  cwd: root,
  detached: true,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: {
    ...process.env,
    PORT: String(httpPort),
    MQTT_PORT: String(mqttPort),
    HOST: host,
    DATA_DIR: dataDir,
    FLEETDECK_ADMIN_EMAIL: admin.email,
    FLEETDECK_ADMIN_PASSWORD: admin.password,
  },
});
children.server = server;
let announced = false;
let recent = '';
server.stdout.on('data', (chunk) => {
  log.write(chunk);
  // Printed once the first admin exists, which /readyz alone does not promise.
  // Looked for before trimming: one chunk may hold the line and more than 400 characters after it.
  const text = recent + chunk.toString();
  if (text.includes('Fleetdeck is running at')) announced = true;
  recent = text.slice(-400);
});
let errors = '';
server.stderr.on('data', (chunk) => {
  log.write(chunk);
  errors = (errors + chunk.toString()).slice(-2000);
});
/** What the server said on stderr (its one-line reasons), else the end of its log. */
function serverLastWords() {
  return errors.trim() || lastLines(serverLog, 15);
}
server.on('exit', (code, signal) => {
  if (stopping) return;
  console.error(`demo: the server stopped (${signal ?? `exit code ${code}`}):`);
  console.error(serverLastWords());
  console.error(`(full log: ${shown(serverLog)})`);
  void shutdown('SIGTERM', code || 1);
});

/** Starts the simulated fleet; it reuses its nodes from the state file on every start. */
function startSimulator() {
  const simulator = spawn(
    process.execPath,
    [
      simulatorCli,
      '--server',
      apiUrl,
      '--mqtt',
      mqttUrl,
      '--nodes',
      String(DEMO_NODES),
      '--state',
      stateFile,
      '--flap-rate',
      String(DEMO_FLAP_RATE),
    ],
    {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'inherit', 'inherit'],
      // The admin password travels in the environment, not in the process list.
      env: {
        ...process.env,
        FLEETDECK_ADMIN_EMAIL: admin.email,
        FLEETDECK_ADMIN_PASSWORD: admin.password,
      },
    },
  );
  children.simulator = simulator;
  simulator.on('exit', (code, signal) => {
    if (stopping) return;
    // The server stays: the operator sees the appliances go offline, as a real outage would show.
    console.error(
      [
        '',
        `demo: the simulator stopped (${signal ?? `exit code ${code}`}). Fleetdeck keeps running at ${publicUrl}:`,
        `      its ${DEMO_NODES} appliances show offline (red) within seconds.`,
        `      Press Enter to start the simulated fleet again, or Ctrl+C to stop everything.`,
        '',
      ].join('\n'),
    );
    awaitingRestart = true;
  });
}

/** Enter on the demo's input starts the simulator again once it has stopped. */
let awaitingRestart = false;
let typed = '';
process.stdin.on('data', (chunk) => {
  typed += chunk.toString();
  if (!typed.includes('\n')) return;
  typed = '';
  if (!awaitingRestart || stopping) return;
  awaitingRestart = false;
  console.log(`demo: starting the ${DEMO_NODES} simulated appliances again.`);
  startSimulator();
});
// An input that cannot be read (closed, or not a stream) only means no restart by Enter.
process.stdin.on('error', () => undefined);

async function waitUntilReady() {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (stopping) return false;
    try {
      // A server that accepts but does not answer must not hold the wait past its deadline.
      const response = await fetch(`${apiUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok && announced) return true;
    } catch {
      // not listening yet, or not answering
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

if (!(await waitUntilReady())) {
  if (!stopping) {
    console.error(`demo: the server was not ready within ${READY_TIMEOUT_MS / 1000} s.`);
    console.error(serverLastWords());
    await shutdown('SIGTERM', 1);
  }
} else {
  console.log(
    [
      '',
      'Fleetdeck demo is running',
      `  Dashboard:  ${publicUrl}`,
      `  User name:  ${admin.email}`,
      `  Password:   ${admin.password}`,
      `  MQTT:       ${mqttUrl}`,
      `  Data:       ${shownDataDir} (credentials in ${shown(credentialsFile)}, server log in ${shown(serverLog)})`,
      '',
    ].join('\n'),
  );
  console.log(`Starting ${DEMO_NODES} simulated appliances; Ctrl+C stops everything.\n`);
  startSimulator();
}
