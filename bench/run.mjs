// `npm run bench` runs every benchmark, `npm run bench -- <name>` one, `npm run bench:smoke`
// (or `--smoke`) each one small and within 60 s. Each benchmark prints one JSON object on stdout.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const BENCHMARKS = {
  'node-list': 'node-list.mjs', // B6
  ingest: 'ingest.mjs', // B1
  connections: 'connections.mjs', // B2 + B3
  'connections-scaleout': 'connections-scaleout.mjs', // B2 on Mosquitto (MQTT_URL)
  'ota-fanout': 'ota-fanout.mjs', // B4 (scaled)
  'firmware-download': 'firmware-download.mjs', // B5
  'first-load': 'first-load.mjs', // B7 (headless Chromium)
  'browser-lists': 'browser-lists.mjs', // B8 (headless Chromium)
  'diagnostics-queries': 'diagnostics-queries.mjs', // B9
  soak: 'soak.mjs', // B10 (soak and overload)
};
const SMOKE_LIMIT_MS = 60_000;

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const names = args.filter((a) => !a.startsWith('--'));
for (const name of names) {
  if (!BENCHMARKS[name]) {
    console.error(`unknown benchmark "${name}"; known: ${Object.keys(BENCHMARKS).join(', ')}`);
    process.exit(2);
  }
}
if (!fs.existsSync(path.join(HERE, '../packages/server/dist/main.js'))) {
  console.error('packages/server/dist is missing: run `npm run build` first');
  process.exit(2);
}

/** Sends `signal` to the benchmark's process group (it and everything it started), if any is left. */
function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is gone
  }
}

let failed = false;
let current = null;
// Ctrl-C or a SIGTERM to the runner reaches the benchmark, which ends what it started.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (current) current.kill(signal);
    else process.exit(1);
  });
}
for (const name of names.length ? names : Object.keys(BENCHMARKS)) {
  const started = Date.now();
  // Each benchmark leads a process group of its own, so that whatever it leaves behind (a server,
  // a worker) can be ended after it exits.
  const child = spawn(process.execPath, [path.join(HERE, BENCHMARKS[name])], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...(smoke ? { BENCH_SMOKE: '1' } : {}) },
    detached: true,
  });
  current = child;
  // A smoke run that overruns gets SIGTERM (it stops its servers and drops its databases), and
  // its group SIGKILL if it is still there 45 s later.
  let killTimer;
  const timer = smoke
    ? setTimeout(() => {
        console.error(`${name}: smoke run over ${SMOKE_LIMIT_MS / 1000} s, stopping it`);
        child.kill('SIGTERM');
        killTimer = setTimeout(() => signalGroup(child, 'SIGKILL'), 45_000);
      }, SMOKE_LIMIT_MS + 15_000)
    : undefined;
  const code = await new Promise((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
  clearTimeout(timer);
  clearTimeout(killTimer);
  current = null;
  if (signalGroup(child, 'SIGKILL')) {
    console.error(`${name}: ended processes it left running`);
    failed = true;
  }
  const seconds = (Date.now() - started) / 1000;
  if (code !== 0) failed = true;
  if (smoke && seconds * 1000 > SMOKE_LIMIT_MS) {
    console.error(`${name}: smoke run took ${seconds.toFixed(1)} s (limit 60 s)`);
    failed = true;
  }
  console.error(`${name}: exit ${code} after ${seconds.toFixed(1)} s`);
}
process.exit(failed ? 1 : 0);
