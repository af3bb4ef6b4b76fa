// Shared helpers of the benchmarks: machine facts, free ports, the built server as a child process.
import { execFileSync, fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverCommand } from '../scripts/build-state.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_MAIN = path.join(ROOT, 'packages/server/dist/main.js');
export const ADMIN_EMAIL = 'bench@fleetdeck.test';
export const ADMIN_PASSWORD = 'Qx7-tundra-Lamp-8841';
export const SMOKE = process.env.BENCH_SMOKE === '1';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Clean-ups to run when the benchmark is stopped by SIGTERM or SIGINT (the runner's smoke limit, or
 * Ctrl-C), newest first: servers and workers it started, their databases and data directories.
 * A normal run ends them in its own `finally` blocks; these cover the stop that skips them.
 */
const onStop = [];
let stopping = false;

/** Registers `fn` to run if the benchmark is stopped by a signal; returns a function that drops it. */
export function cleanUpOnSignal(fn) {
  if (onStop.length === 0 && !stopping) installSignalHandlers();
  onStop.push(fn);
  return () => {
    const at = onStop.indexOf(fn);
    if (at >= 0) onStop.splice(at, 1);
  };
}

let handlersInstalled = false;
function installSignalHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ]) {
    process.on(signal, async () => {
      if (stopping) return;
      stopping = true;
      console.error(`benchmark stopped by ${signal}: ending what it started`);
      // Work cut short fails as it goes (a load whose database is dropped under it): say so, go on.
      process.on('uncaughtException', (error) => console.error(`while stopping: ${error.message}`));
      process.on('unhandledRejection', (error) => console.error(`while stopping: ${error}`));
      for (const fn of onStop.splice(0).reverse()) {
        try {
          await Promise.race([fn(), sleep(35_000)]);
        } catch (error) {
          console.error(`clean-up failed: ${error.message}`);
        }
      }
      process.exit(code);
    });
  }
}

/** `main().catch(failed)`: prints the error and exits 1, unless a signal's clean-up is under way. */
export function failed(error) {
  console.error(error);
  if (!stopping) process.exit(1);
}

/** Ends `child` (SIGTERM, SIGKILL after 10 s) if the benchmark is stopped by a signal. */
export function endOnSignal(child) {
  const drop = cleanUpOnSignal(
    () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  );
  child.once('exit', drop);
  return child;
}

/** A fresh data directory under the system's temp dir, removed if the benchmark is stopped. */
export function benchTempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-bench-'));
  cleanUpOnSignal(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Cores, memory, Node version, and the fact that the load generator runs on the same machine. */
export function machine() {
  return {
    cores: os.cpus().length,
    cpu_model: os.cpus()[0]?.model ?? 'unknown',
    memory_gib: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    kernel: kernelSettings(),
    server_node_args: `npm start's SERVER_NODE_FLAGS (ADR 19)${
      process.env.BENCH_SERVER_NODE_ARGS ? ` + ${process.env.BENCH_SERVER_NODE_ARGS}` : ''
    }`,
    load_generator:
      'runs on the same machine as the server and shares its cores: figures are lower bounds',
  };
}

/** The Linux settings that bound a connection storm (README "Large fleets"). */
function kernelSettings() {
  const read = (name) => {
    try {
      return Number(fs.readFileSync(`/proc/sys/net/${name}`, 'utf8').trim());
    } catch {
      return null;
    }
  };
  return {
    somaxconn: read('core/somaxconn'),
    tcp_max_syn_backlog: read('ipv4/tcp_max_syn_backlog'),
  };
}

export function gitCommit() {
  try {
    const sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT }).toString().trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT }).toString().trim();
    return dirty ? `${sha}+dirty` : sha;
  } catch {
    return 'unknown';
  }
}

export function requireBuilt() {
  if (!fs.existsSync(SERVER_MAIN)) {
    throw new Error(`${SERVER_MAIN} is missing: run \`npm run build\` first`);
  }
}

/** A TCP port that was free a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resident set size of a process in bytes (Linux /proc), or null. */
export function rssOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** User + system CPU seconds of a process so far (Linux /proc), or null. */
export function cpuSecondsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * Starts the built server (`packages/server/dist/main.js`) with its own ports and data directory
 * and waits for /readyz. Fixed `ports` start it again where an earlier one ran (B3). Returns
 * { pid, baseUrl, mqttUrl, startMs, kill(signal), stop() }.
 */
export async function startServer(env, ports = {}) {
  requireBuilt();
  const port = ports.port ?? (await freePort());
  const mqttPort = ports.mqttPort ?? (await freePort());
  const started = Date.now();
  // The server runs with the flags npm start gives it (ADR 19); more with, e.g.,
  // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it (a later value wins).
  const { nodeArgs: serverFlags } = await serverCommand();
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...serverFlags, ...nodeArgs, SERVER_MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      MQTT_PORT: String(mqttPort),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      FLEETDECK_ADMIN_EMAIL: ADMIN_EMAIL,
      FLEETDECK_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  endOnSignal(child);
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = null;
  const exit = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve(exited);
    }),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (exited)
      throw new Error(`server exited during start (${JSON.stringify(exited)}):\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/readyz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready in time:\n${output}`);
    }
    await sleep(100);
  }
  return {
    pid: child.pid,
    baseUrl,
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    startMs: Date.now() - started,
    output: () => output,
    /** Sends `signal` to this PID only; SIGKILL after 30 s if it is still there. */
    async kill(signal) {
      if (exited) return exited;
      process.kill(child.pid, signal);
      const timer = setTimeout(() => {
        if (!exited) process.kill(child.pid, 'SIGKILL');
      }, 30_000);
      const result = await exit;
      clearTimeout(timer);
      return result;
    },
    /** SIGTERM to this PID only; SIGKILL after 30 s. */
    stop() {
      return this.kill('SIGTERM');
    },
  };
}

/**
 * Registers `count` washing machines through the API (1,000 per call); returns their credentials.
 * `model` defaults to FD-WM-9 (B4 registers its OTA targets with a model of their own).
 */
export async function registerNodes(baseUrl, token, count, serialPrefix, model = 'FD-WM-9') {
  const registered = [];
  for (let i = 0; i < count; i += 1000) {
    const size = Math.min(1000, count - i);
    const nodes = Array.from({ length: size }, (_, k) => ({
      type: 'Washing Machine',
      model,
      fw_version: '3.1.2',
      tags: ['location:Pune', `esp.serial_num:${serialPrefix}-${i + k}`],
    }));
    const response = await fetch(`${baseUrl}/v1/admin/node_ids`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({ nodes }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(`register: ${response.status} ${JSON.stringify(body)}`);
    registered.push(...body.nodes);
  }
  return registered;
}

/** Password login; returns the raw access token for the `authorization` header. */
export async function login(baseUrl) {
  const response = await fetch(`${baseUrl}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user_name: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  const body = await response.json();
  if (!response.ok || !body.accesstoken) {
    throw new Error(`login failed: ${response.status} ${JSON.stringify(body)}`);
  }
  return body.accesstoken;
}

/** A deterministic PRNG (mulberry32) so workloads are the same from run to run. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

export const round = (value, digits = 2) =>
  value === null || value === undefined ? null : Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Forks a worker script and tracks it in `children` (ended by PID on the way out). `request`
 * sends a message and resolves with the worker's next message of `replyType`.
 */
export function forkWorker(script, children) {
  const child = endOnSignal(fork(script, [], { stdio: 'inherit' }));
  children.add(child);
  child.once('exit', () => children.delete(child));
  const waiters = new Map();
  child.on('message', (m) => {
    const waiter = waiters.get(m.type);
    waiters.delete(m.type);
    waiter?.(m);
  });
  const request = (message, replyType) =>
    new Promise((resolve) => {
      waiters.set(replyType, resolve);
      child.send(message);
    });
  return { child, request };
}

/**
 * Forks one `script` worker per `perWorker` nodes (added to `workers` and `children`), sends each
 * its share with `{type: 'connect', url, nodes, concurrency, ...extra}` and waits for every 'connected'
 * answer. Resolves to the wall time and the summed `connected` / `failures` of the answers.
 */
export async function connectThroughWorkers({
  script,
  workers,
  children,
  url,
  nodes,
  perWorker,
  concurrency = 200,
  extra = {},
}) {
  for (let i = 0; i < nodes.length; i += perWorker) workers.push(forkWorker(script, children));
  const started = Date.now();
  const answers = await Promise.all(
    workers.map((w, i) =>
      w.request(
        {
          type: 'connect',
          url,
          nodes: nodes.slice(i * perWorker, (i + 1) * perWorker),
          concurrency,
          ...extra,
        },
        'connected',
      ),
    ),
  );
  return {
    connectS: (Date.now() - started) / 1000,
    connected: answers.reduce((sum, a) => sum + a.connected, 0),
    failures: answers.reduce((sum, a) => sum + (a.failures ?? 0), 0),
  };
}

/** Asks each `forkWorker` worker to close ({type: 'close'}); SIGKILLs one still there after 10 s. */
export async function closeWorkers(workers) {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise((resolve) => {
          if (w.child.exitCode !== null) return resolve();
          w.child.once('exit', resolve);
          w.child.send({ type: 'close' });
          setTimeout(() => {
            if (w.child.exitCode === null) w.child.kill('SIGKILL');
          }, 10_000).unref();
        }),
    ),
  );
}
