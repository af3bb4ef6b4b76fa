// B5: firmware download. Starts the built server, uploads a 4 MiB image through the API, then
// runs N concurrent range downloads of its signed image_url from worker processes (10 % cut
// mid-transfer and resumed with `Range: bytes=<received>-`), each verified by SHA-256. The same
// load then runs against a bare Node http server streaming the same file (fs.createReadStream),
// for the ratio.
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
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
  prng,
  requireBuilt,
  round,
  rssOf,
  sleep,
  startServer,
} from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const IMAGE_BYTES = 4 * 1024 * 1024;
const CONCURRENCY = Number(process.env.BENCH_NODES ?? (SMOKE ? 200 : 1_000));
const CUT_SHARE = 0.1;
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const RUN_TIMEOUT_MS = SMOKE ? 40_000 : 180_000;
const RESUME_DELAY_MS = 100;
// The paced phase: the target rate spread over all downloads, as devices on slow links fetch.
const PACED_TOTAL_BYTES_PER_S = 125e6;
const TARGETS = {
  mb_per_s: 125,
  server_cpu_cores: 0.5,
  ttfb_p99_ms: 20,
  kib_per_active_download: 64,
  resumed_verified_percent: 100,
};

const children = new Set(); // processes this script started, ended by PID on the way out

function forkChild(script, args = []) {
  const child = endOnSignal(fork(path.join(HERE, script), args, { stdio: 'inherit' }));
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

const nextMessage = (child) => new Promise((resolve) => child.once('message', resolve));

/** Open file descriptors of a process (Linux /proc), or null. */
function openFiles(pid) {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return null;
  }
}

/** A deterministic 4 MiB "firmware" image. */
function makeImage() {
  const random = prng(0xb5);
  const image = Buffer.alloc(IMAGE_BYTES);
  for (let i = 0; i < IMAGE_BYTES; i += 4) image.writeUInt32LE((random() * 2 ** 32) >>> 0, i);
  return image;
}

/** Where download i is cut (absolute byte offset), or null: every 10th, at 10–90 % of the image. */
function cutPoints() {
  const random = prng(0x5eed);
  const every = Math.round(1 / CUT_SHARE);
  return Array.from({ length: CONCURRENCY }, (_, i) =>
    i % every === every - 1 ? Math.floor(IMAGE_BYTES * (0.1 + 0.8 * random())) : null,
  );
}

const PROBE_INTERVAL_MS = 20;
const PROBE_BYTES = 64 * 1024;

/**
 * TTFB as an unloaded client sees it while the load streams: one 64 KiB range request at a time
 * (fresh connection, random offset) from this process, whose event loop is otherwise idle, so the
 * figure is the server's and not the busy download workers'. Runs until `running()` is false.
 */
async function probeTtfb(url, running) {
  const random = prng(0x77fb);
  const samples = [];
  let failures = 0;
  while (running()) {
    const offset = Math.floor(random() * (IMAGE_BYTES - PROBE_BYTES));
    const ttfb = await new Promise((resolve) => {
      const started = performance.now();
      const request = http.get(url, {
        agent: false,
        headers: { range: `bytes=${offset}-${offset + PROBE_BYTES - 1}` },
      });
      request.setTimeout(10_000, () => request.destroy());
      request.once('error', () => resolve(null));
      request.once('response', (response) => {
        const at = performance.now() - started;
        response.resume();
        response.once('end', () => resolve(response.statusCode === 206 ? at : null));
        response.once('error', () => resolve(null));
      });
    });
    if (ttfb === null) failures += 1;
    else samples.push(ttfb);
    await sleep(PROBE_INTERVAL_MS);
  }
  return { samples: samples.sort((a, b) => a - b), failures };
}

const ms = (sorted, p) => round(percentile(sorted, p), 2);

/**
 * Runs the download load against `url`, served by process `serverPid`: as fast as the clients
 * can (rate null) or each download paced to `rate` bytes/s.
 */
async function downloadLoad(url, serverPid, sha256, rate) {
  const cuts = cutPoints();
  const perWorker = Math.ceil(CONCURRENCY / WORKERS);
  const workers = [];
  for (let i = 0; i < CONCURRENCY; i += perWorker) {
    const child = forkChild('firmware-download-worker.mjs');
    const ready = nextMessage(child);
    child.send({
      url,
      size: IMAGE_BYTES,
      sha256,
      cuts: cuts.slice(i, i + perWorker),
      timeoutMs: RUN_TIMEOUT_MS,
      resumeDelayMs: RESUME_DELAY_MS,
      rate,
    });
    await ready;
    workers.push(child);
  }
  await sleep(500);
  const rssIdle = rssOf(serverPid);
  const filesIdle = openFiles(serverPid);
  let rssPeak = rssIdle ?? 0;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssOf(serverPid) ?? 0);
  }, 50);
  const cpuBefore = cpuSecondsOf(serverPid);
  const done = workers.map((child) => nextMessage(child));
  for (const child of workers) child.send('go');
  let loadRunning = true;
  const probe = probeTtfb(url, () => loadRunning);
  const results = await Promise.all(done);
  loadRunning = false;
  const cpuAfter = cpuSecondsOf(serverPid);
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, rssOf(serverPid) ?? 0);
  const probed = await probe;
  await sleep(1000);
  const filesAfter = openFiles(serverPid);
  const startedAt = Math.min(...results.map((r) => r.startedAt));
  const endedAt = Math.max(...results.map((r) => r.endedAt));
  const wallS = (endedAt - startedAt) / 1000;
  const sum = (key) => results.reduce((s, r) => s + r[key], 0);
  const sorted = (key) => results.flatMap((r) => r[key]).sort((a, b) => a - b);
  const ttfb = sorted('ttfb');
  const firstByte = sorted('firstByte');
  const ttfbResume = sorted('ttfbResume');
  const errors = {};
  for (const r of results)
    for (const [k, v] of Object.entries(r.errors)) errors[k] = (errors[k] ?? 0) + v;
  const bytes = sum('bytes');
  const resumed = sum('resumed');
  const cpuS = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
  return {
    downloads: sum('downloads'),
    verified: sum('ok'),
    resumed,
    resumed_verified: sum('resumedOk'),
    resumed_verified_percent: resumed ? round((sum('resumedOk') / resumed) * 100, 1) : null,
    errors,
    bytes_received: bytes,
    wall_s: round(wallS, 2),
    mb_per_s: round(bytes / 1e6 / wallS, 1),
    server_cpu_cores: cpuS === null ? null : round(cpuS / wallS, 2),
    server_cpu_s_per_gb: cpuS === null ? null : round(cpuS / (bytes / 1e9), 2),
    ttfb_probe_ms: {
      samples: probed.samples.length,
      failures: probed.failures,
      p50: ms(probed.samples, 50),
      p99: ms(probed.samples, 99),
      max: ms(probed.samples, 100),
    },
    ttfb_burst_ms: { p50: ms(ttfb, 50), p99: ms(ttfb, 99), max: ms(ttfb, 100) },
    first_body_byte_ms: { p50: ms(firstByte, 50), p99: ms(firstByte, 99) },
    resume_ttfb_ms: { p50: ms(ttfbResume, 50), p99: ms(ttfbResume, 99) },
    server_rss_mib_idle: rssIdle === null ? null : round(rssIdle / 2 ** 20, 1),
    server_rss_mib_peak: round(rssPeak / 2 ** 20, 1),
    kib_per_active_download:
      rssIdle === null ? null : round((rssPeak - rssIdle) / 1024 / CONCURRENCY, 1),
    server_open_files_before: filesIdle,
    server_open_files_after: filesAfter,
  };
}

/** Both phases against one server: unpaced (throughput), then paced (cost, TTFB, memory). */
async function phases(url, pid, sha256) {
  console.error(`firmware-download: ${CONCURRENCY} downloads, unpaced`);
  const unpaced = await downloadLoad(url, pid, sha256, null);
  const rate = Math.floor(PACED_TOTAL_BYTES_PER_S / CONCURRENCY);
  console.error(`firmware-download: ${CONCURRENCY} downloads paced at ${rate} B/s each`);
  const paced = await downloadLoad(url, pid, sha256, rate);
  return { unpaced, paced };
}

async function fleetdeckRun(image, sha256) {
  const dataDir = benchTempDir();
  const server = await startServer({ DATA_DIR: dataDir });
  try {
    const token = await login(server.baseUrl);
    const uploadStarted = Date.now();
    const response = await fetch(`${server.baseUrl}/v1/admin/otaimage`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({
        image_name: 'bench-b5',
        type: 'Washing Machine',
        fw_version: '9.9.9',
        model: 'FD-WM-9',
        base64_fwimage: image.toString('base64'),
      }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(`otaimage: ${response.status} ${JSON.stringify(body)}`);
    const uploadMs = Date.now() - uploadStarted;
    console.error(`firmware-download: image uploaded in ${uploadMs} ms`);
    return {
      upload_ms: uploadMs,
      server_start_ms: server.startMs,
      ...(await phases(body.image_url, server.pid, sha256)),
    };
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function bareRun(image, sha256) {
  const dir = benchTempDir();
  const file = path.join(dir, 'firmware.bin');
  fs.writeFileSync(file, image);
  const child = forkChild('firmware-bare-http.mjs', [file]);
  try {
    const { port } = await nextMessage(child);
    console.error('firmware-download: bare Node http server');
    return await phases(`http://127.0.0.1:${port}/firmware.bin`, child.pid, sha256);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(child.pid, 'SIGTERM');
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  requireBuilt();
  const started = Date.now();
  const image = makeImage();
  const sha256 = createHash('sha256').update(image).digest('hex');
  let fleetdeck;
  let bare;
  try {
    fleetdeck = await fleetdeckRun(image, sha256);
    bare = await bareRun(image, sha256);
  } finally {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
    }
  }
  const ratio = (a, b) => (a !== null && b ? round(a / b, 3) : null);
  console.log(
    JSON.stringify({
      benchmark: 'B5 firmware download',
      mode: SMOKE ? 'smoke' : 'full',
      commit: gitCommit(),
      machine: machine(),
      workload: {
        image_bytes: IMAGE_BYTES,
        concurrent_downloads: CONCURRENCY,
        worker_processes: WORKERS,
        cut_and_resumed: `every ${Math.round(1 / CUT_SHARE)}th download (${Math.round(CONCURRENCY * CUT_SHARE)}), cut at 10–90 % of the image, resumed ${RESUME_DELAY_MS} ms later with Range: bytes=<received>-`,
        request:
          'GET image_url (signed, from POST /v1/admin/otaimage) with Range: bytes=0-, one connection per request (no keep-alive), all started at once',
        verify:
          'SHA-256 of the whole image at the end of every download; resumed ones must also get 206 with the exact Content-Range',
        bare_peer:
          'Node http.createServer + fs.createReadStream (64 KiB chunks) of the same file, single-range support, no signature check, no framework, same machine',
        database: 'SQLite (fresh DATA_DIR), local blob store',
      },
      semantics: {
        phases:
          'unpaced: every download reads as fast as its worker can (throughput, cost per byte); paced: every download limited to 125 MB/s / N (e.g. 125 KB/s at N = 1,000, a device on a slow link), so the server runs at the target rate without the load generator starving it of CPU (cores, TTFB, memory are judged there)',
        mb_per_s:
          'bytes received by all downloads (resumed parts included) / 1e6 / wall time from the first request to the last byte',
        server_cpu_cores:
          'server user+system CPU (/proc/<pid>/stat) over the same wall time / wall time',
        ttfb_probe_ms:
          'one 64 KiB range request at a time (fresh connection, random offset, every 20 ms) from the otherwise idle benchmark process while the load streams; http.get → response headers, TCP connect included',
        ttfb_burst_ms:
          'informative: the same for the first request of each of the N downloads, all started at once, measured in the busy download workers (their own event-loop delay of hashing the other streams is included)',
        resume_ttfb_ms: 'informative: the same for the resume requests, in the busy workers',
        kib_per_active_download:
          '(peak server VmRSS during the phase, sampled every 50 ms − VmRSS just before it) / concurrent downloads; judged on the worse phase',
        server_open_files:
          'entries of /proc/<pid>/fd before the phase and 1 s after it (a leak on cut downloads would show here)',
      },
      targets: TARGETS,
      fleetdeck,
      bare_node_http: bare,
      ratio_fleetdeck_to_bare: {
        unpaced_mb_per_s: ratio(fleetdeck.unpaced.mb_per_s, bare.unpaced.mb_per_s),
        unpaced_server_cpu_s_per_gb: ratio(
          fleetdeck.unpaced.server_cpu_s_per_gb,
          bare.unpaced.server_cpu_s_per_gb,
        ),
        paced_server_cpu_cores: ratio(
          fleetdeck.paced.server_cpu_cores,
          bare.paced.server_cpu_cores,
        ),
        paced_ttfb_probe_p99: ratio(
          fleetdeck.paced.ttfb_probe_ms.p99,
          bare.paced.ttfb_probe_ms.p99,
        ),
        paced_kib_per_active_download: ratio(
          fleetdeck.paced.kib_per_active_download,
          bare.paced.kib_per_active_download,
        ),
      },
      pass: {
        mb_per_s: fleetdeck.unpaced.mb_per_s >= TARGETS.mb_per_s,
        server_cpu_cores_at_125_mb_s:
          fleetdeck.paced.server_cpu_cores !== null &&
          fleetdeck.paced.server_cpu_cores <= TARGETS.server_cpu_cores,
        ttfb_p99:
          fleetdeck.paced.ttfb_probe_ms.p99 !== null &&
          fleetdeck.paced.ttfb_probe_ms.p99 <= TARGETS.ttfb_p99_ms,
        kib_per_active_download:
          Math.max(
            fleetdeck.unpaced.kib_per_active_download ?? Infinity,
            fleetdeck.paced.kib_per_active_download ?? Infinity,
          ) <= TARGETS.kib_per_active_download,
        resumed_verified:
          fleetdeck.unpaced.resumed_verified_percent === TARGETS.resumed_verified_percent &&
          fleetdeck.paced.resumed_verified_percent === TARGETS.resumed_verified_percent,
        all_verified:
          fleetdeck.unpaced.verified === fleetdeck.unpaced.downloads &&
          fleetdeck.paced.verified === fleetdeck.paced.downloads,
      },
      elapsed_s: round((Date.now() - started) / 1000, 1),
    }),
  );
}

main().catch(failed);
