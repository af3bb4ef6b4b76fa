// Download process of firmware-download.mjs: runs its share of concurrent range downloads of one
// image (each on its own connection), cuts the chosen ones mid-transfer and resumes them with
// `Range: bytes=<received>-`, and checks the SHA-256 of every completed download.
import { createHash } from 'node:crypto';
import http from 'node:http';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One HTTP range request from `offset`; hashes the body into `hash`. Resolves with
 * { status, contentRange, ttfbMs, firstByteMs, received, error? }. With `cutAt`, the connection is
 * destroyed once exactly `cutAt` bytes (absolute offset) have been hashed.
 */
function rangeRequest(url, offset, hash, cutAt, deadline, pace) {
  return new Promise((resolve) => {
    const started = performance.now();
    let ttfbMs = null;
    let firstByteMs = null;
    let received = offset;
    let done = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ttfbMs, firstByteMs, received, ...result });
    };
    const request = http.get(url, { agent: false, headers: { range: `bytes=${offset}-` } });
    const timer = setTimeout(
      () => {
        request.destroy();
        finish({ status: null, error: 'timeout' });
      },
      Math.max(1, deadline - Date.now()),
    );
    request.once('error', (error) => finish({ status: null, error: error.code ?? error.message }));
    request.once('response', (response) => {
      ttfbMs = performance.now() - started;
      const status = response.statusCode;
      const contentRange = response.headers['content-range'] ?? null;
      response.on('data', (chunk) => {
        if (done) return;
        if (firstByteMs === null) firstByteMs = performance.now() - started;
        if (cutAt !== undefined && received + chunk.length >= cutAt) {
          hash.update(chunk.subarray(0, cutAt - received));
          received = cutAt;
          request.destroy();
          finish({ status, contentRange, cut: true });
          return;
        }
        hash.update(chunk);
        received += chunk.length;
        if (pace) {
          // Paced like a device on a slow link: no faster than pace.rate bytes/s since its start.
          const ahead = pace.started + (received / pace.rate) * 1000 - Date.now();
          if (ahead > 5) {
            response.pause();
            setTimeout(() => response.resume(), ahead);
          }
        }
      });
      response.once('end', () => finish({ status, contentRange }));
      response.once('error', (error) =>
        finish({ status, contentRange, error: error.code ?? error.message }),
      );
    });
  });
}

/** One download: a range request from 0, cut and resumed when `cutAt` is set; verifies SHA-256. */
async function download(job, cutAt, deadline) {
  const hash = createHash('sha256');
  const pace = job.rate ? { rate: job.rate, started: Date.now() } : undefined;
  const first = await rangeRequest(job.url, 0, hash, cutAt, deadline, pace);
  const result = {
    ttfb: [first.ttfbMs],
    firstByte: [first.firstByteMs],
    resumed: false,
    resumeOk: null,
    bytes: first.received,
    ok: false,
    error: first.error ?? null,
  };
  if (first.error || first.status !== 206) {
    result.error ??= `status ${first.status}`;
    return result;
  }
  let last = first;
  if (first.cut) {
    result.resumed = true;
    await sleep(job.resumeDelayMs);
    const second = await rangeRequest(job.url, first.received, hash, undefined, deadline, pace);
    result.ttfbResume = second.ttfbMs;
    result.bytes += second.received - first.received;
    const expectedRange = `bytes ${first.received}-${job.size - 1}/${job.size}`;
    result.resumeOk = second.status === 206 && second.contentRange === expectedRange;
    if (second.error || !result.resumeOk) {
      result.error = second.error ?? `resume status ${second.status} ${second.contentRange}`;
      return result;
    }
    last = second;
  }
  result.ok = last.received === job.size && hash.digest('hex') === job.sha256;
  if (!result.ok) result.error = `verify failed (${last.received} of ${job.size} bytes)`;
  return result;
}

process.once('message', async (job) => {
  // job: { url, size, sha256, cuts: [byte offset | null per download], timeoutMs, resumeDelayMs,
  //        rate: bytes/s per download or null for as fast as possible }
  process.send({ type: 'ready' });
  await new Promise((resolve) => process.once('message', resolve)); // "go"
  const startedAt = Date.now();
  const deadline = startedAt + job.timeoutMs;
  const results = await Promise.all(
    job.cuts.map((cutAt) => download(job, cutAt ?? undefined, deadline)),
  );
  const endedAt = Date.now();
  const errors = {};
  for (const r of results) if (r.error) errors[r.error] = (errors[r.error] ?? 0) + 1;
  process.send({
    type: 'done',
    startedAt,
    endedAt,
    downloads: results.length,
    ok: results.filter((r) => r.ok).length,
    resumed: results.filter((r) => r.resumed).length,
    resumedOk: results.filter((r) => r.resumed && r.ok).length,
    bytes: results.reduce((s, r) => s + r.bytes, 0),
    ttfb: results.map((r) => r.ttfb[0]).filter((x) => x !== null),
    firstByte: results.map((r) => r.firstByte[0]).filter((x) => x !== null),
    ttfbResume: results.map((r) => r.ttfbResume).filter((x) => x !== undefined && x !== null),
    errors,
  });
  process.exit(0);
});
