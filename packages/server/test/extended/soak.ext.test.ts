import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, startBuiltServer, type BuiltServer } from './built-server.js';

/**
 * QUALITY R7 (tier B, `npm run test:extended`): soak. The built server (SQLite, a fresh data
 * directory, the Node flags `npm start` gives it) runs SOAK_MINUTES (default 30) of moderate,
 * steady load: MQTT nodes publishing params at QoS 1, API clients paging the fleet list and
 * reading jobs, groups and statistics, and an OTA job every OTA_PERIOD_MS for a group of nodes
 * that answer it (every other job cancelled at once). It is not a speed test (bench/soak.mjs,
 * B10, is): the rates are far below what the server carries. Pass: memory drift < 5 % and no
 * file-descriptor growth.
 *
 * Windows. The server's RSS (VmRSS) and open files (/proc/<pid>/fd) are sampled every 5 s. The
 * first WARMUP of the run is not judged: JIT compilation, V8's young generation and SQLite's page
 * cache grow to their working size there, and a drift measured from a cold start would only
 * show that. The rest is cut into consecutive windows (WINDOW long; with 30 minutes, minutes
 * 3–6, 6–9, … 27–30; with SOAK_MINUTES=5, one-minute windows from minute 1 on), each summed up by
 * the median of its samples: no GC is forced (that would change what is measured), and the
 * median of a dozen or more samples is not moved by where one sample fell in the garbage
 * collector's sawtooth. Drift = (last window − first window) / first window. Memory also settles
 * downwards after the warm-up (a 5-minute run on 2026-11-25 went 277 → 165 MiB as V8 shrank its
 * young generation once the connect and registration burst was over), and a settling first window
 * could hide a leak that grows back from the low point; so the last window is also compared with
 * the lowest window before it, and both must be under 5 %.
 */
const ADMIN = { user_name: 'soak@fleetdeck.test', password: 'Lantern-Quarry-2031' };
const SOAK_MS = Number(process.env.SOAK_MINUTES ?? 30) * 60_000;
const WARMUP_MS = Math.max(60_000, SOAK_MS * 0.1);
const WINDOW_MS = Math.max(60_000, SOAK_MS * 0.1);
const SAMPLE_MS = 5_000;
const NODES = 200;
const OTA_NODES = 20; // the first OTA_NODES nodes, model FD-WM-R7, found by an automatic group
const PUBLISH_PER_NODE_PER_S = 1; // 200 msg/s over the fleet
const MAX_IN_FLIGHT = 10; // per node; a publish beyond it is skipped (counted)
const API_CLIENTS = 2;
const API_PAUSE_MS = 100;
const OTA_PERIOD_MS = 30_000;
const MAX_DRIFT = 0.05;
/**
 * Open files that may come and go between two samples without anything leaking: each API
 * client's keep-alive socket (opened per request burst, closed when idle) and SQLite's WAL and
 * journal handles. Everything else the server holds (listening sockets, the database, the nodes'
 * connections) is the same at both ends.
 */
const FD_SLACK = API_CLIENTS + 2;

let server: BuiltServer;
let dataDir: string;
let token: string;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** VmRSS and its parts (anonymous memory, mapped files, shared memory) from /proc, in bytes. */
function memory(pid: number): { rss: number; anon: number; file: number; shmem: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) =>
    Number(new RegExp(`${field}:\\s+(\\d+)\\s+kB`).exec(status)![1]) * 1024;
  return { rss: kib('VmRSS'), anon: kib('RssAnon'), file: kib('RssFile'), shmem: kib('RssShmem') };
}

/** The database's size on disk (main file and WAL), in bytes. */
function databaseBytes(dir: string): number {
  return fs
    .readdirSync(dir)
    .filter((name) => /\.(db|sqlite)(-wal)?$/.test(name))
    .reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);
}

const openFiles = (pid: number) => fs.readdirSync(`/proc/${pid}/fd`).length;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const expectAlive = () => server.expectAlive();

const call = (method: string, url: string, body?: unknown, auth: string | null = token) =>
  callApi(server.url, method, url, body, auth);

async function signIn(): Promise<void> {
  const answer = await call('POST', '/v1/login', ADMIN, null);
  expect(answer.status).toBe(200);
  token = answer.body.accesstoken as string;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-r7-'));
  server = await startBuiltServer({ dataDir, admin: ADMIN, outputLimit: 20_000 });
  await signIn();
});

afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Node {
  node_id: string;
  mqtt_password: string;
}

/** The fleet, registered through the API: the first OTA_NODES with the OTA group's model. */
async function registerFleet(): Promise<Node[]> {
  const answer = await call('POST', '/v1/admin/node_ids', {
    nodes: Array.from({ length: NODES }, (_, i) => ({
      type: 'Washing Machine',
      model: i < OTA_NODES ? 'FD-WM-R7' : 'FD-WM-9',
      fw_version: '3.1.2',
      tags: ['location:Pune', `esp.serial_num:R7S${String(i).padStart(6, '0')}`],
    })),
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.nodes as Node[];
}

/** MQTT load: every node publishes params once a second (QoS 1) and answers OTA offers. */
function mqttLoad(clients: MqttClient[], nodes: Node[]) {
  const figures = { sent: 0, acked: 0, failed: 0, skipped: 0, offers: 0, reports: 0 };
  const inFlight = new Array<number>(clients.length).fill(0);
  const answered = new Set<string>();
  clients.forEach((client, i) => {
    const nodeId = nodes[i]!.node_id;
    client.on('message', (topic, payload) => {
      if (!topic.endsWith('/otaurl')) return;
      figures.offers += 1;
      const jobId = (JSON.parse(payload.toString()) as { ota_job_id: string }).ota_job_id;
      if (answered.has(`${jobId}/${i}`)) return;
      answered.add(`${jobId}/${i}`);
      void (async () => {
        // Like firmware: progress, then the verdict, each on the previous one's PUBACK.
        for (const status of ['in-progress', 'in-progress', 'in-progress', 'success']) {
          await client.publishAsync(
            `node/${nodeId}/otastatus`,
            JSON.stringify({
              ota_job_id: jobId,
              status,
              additional_info: status === 'success' ? 'OTA finished' : 'Downloading',
              ts: Math.floor(Date.now() / 1000),
            }),
            { qos: 1 },
          );
          figures.reports += 1;
        }
      })().catch(() => (figures.failed += 1));
    });
  });
  // A tick every 50 ms publishes for the next nodes in turn: NODES × rate messages a second,
  // spread evenly, not waiting for the PUBACKs (at most MAX_IN_FLIGHT unacknowledged per node).
  const perTick = (NODES * PUBLISH_PER_NODE_PER_S) / 20;
  let cursor = 0;
  let seq = 0;
  const timer = setInterval(() => {
    for (let k = 0; k < perTick; k += 1) {
      const i = cursor;
      cursor = (cursor + 1) % clients.length;
      if (inFlight[i]! >= MAX_IN_FLIGHT) {
        figures.skipped += 1;
        continue;
      }
      inFlight[i]! += 1;
      figures.sent += 1;
      seq += 1;
      const body = JSON.stringify({
        Washer: { seq, Power: true, Speed: seq % 5, Temperature: 30 + (seq % 30), Mode: 'Cotton' },
      });
      clients[i]!.publishAsync(`node/${nodes[i]!.node_id}/params/local`, body, { qos: 1 }).then(
        () => {
          inFlight[i]! -= 1;
          figures.acked += 1;
        },
        () => {
          inFlight[i]! -= 1;
          figures.failed += 1;
        },
      );
    }
  }, 50);
  return { figures, stop: () => clearInterval(timer) };
}

/** API load: the devices page walked by cursor, and the dashboard's other reads. */
function apiLoad(groupId: string, lastJob: () => string | undefined) {
  const figures = { requests: 0, failures: 0 as number, failed: [] as string[] };
  let stopped = false;
  const failedCall = () => ({ status: 0, body: {} as Record<string, unknown> });
  const get = async (url: string) => {
    let answer = await call('GET', url).catch(failedCall);
    if (answer.status === 401) {
      await signIn(); // the access token expired during a long soak
      answer = await call('GET', url).catch(failedCall);
    }
    figures.requests += 1;
    if (answer.status !== 200) {
      figures.failures += 1;
      if (figures.failed.length < 20) figures.failed.push(`${answer.status} ${url}`);
    }
    return answer.body;
  };
  const client = async (index: number) => {
    let cursor: string | undefined;
    for (let step = index; !stopped; step += 1) {
      if (step % 2 === 0) {
        const size = step % 4 === 0 ? 10 : 50;
        const page = await get(
          `/v1/admin/nodes?num_records=${size}${cursor ? `&start_id=${cursor}` : ''}`,
        );
        cursor = page.next_id as string | undefined;
      } else {
        const job = lastJob();
        const reads = [
          '/v1/admin/stats_info/summary',
          '/v1/admin/node_group?num_records=10',
          `/v1/admin/node_group?group_id=${groupId}&node_details=true&num_records=10`,
          '/v1/admin/nodes?num_records=10&node_status=online&node_details=true',
          ...(job
            ? [
                '/v1/admin/otajob?num_records=10',
                `/v1/admin/otajob/status/summary?ota_job_id=${job}`,
                `/v1/admin/otajob/status?ota_job_id=${job}&num_records=10`,
              ]
            : []),
        ];
        await get(reads[step % reads.length]!);
      }
      await sleep(API_PAUSE_MS);
    }
  };
  const running = Array.from({ length: API_CLIENTS }, (_, i) => client(i));
  return {
    figures,
    stop: async () => {
      stopped = true;
      await Promise.all(running);
    },
  };
}

/** OTA load: a force-pushed job for the group every OTA_PERIOD_MS, every other one cancelled. */
function otaLoad(groupId: string, imageId: string) {
  const figures = {
    created: 0,
    cancelled: 0,
    finishedBeforeCancel: 0,
    failures: [] as string[],
    last: undefined as string | undefined,
  };
  let n = 0;
  const once = async () => {
    const job = await call('POST', '/v1/admin/otajob?force_push=true', {
      ota_job_name: `r7-${n}`,
      ota_image_id: imageId,
      groups: [groupId],
    });
    if (job.status !== 200) {
      figures.failures.push(`create ${job.status} ${JSON.stringify(job.body)}`);
      return;
    }
    figures.created += 1;
    figures.last = job.body.ota_job_id as string;
    if (n % 2 === 1) {
      const cancel = await call('PUT', '/v1/admin/otajob', { ota_job_id: figures.last });
      if (cancel.status === 200) figures.cancelled += 1;
      // Its 20 nodes may all have answered before the PUT (a finished job is not cancelled).
      else if (cancel.status === 400) figures.finishedBeforeCancel += 1;
      else figures.failures.push(`cancel ${cancel.status} ${JSON.stringify(cancel.body)}`);
    }
    n += 1;
  };
  let running = once();
  const timer = setInterval(() => {
    running = running.then(once, once);
  }, OTA_PERIOD_MS);
  return {
    figures,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

describe('soak: API, MQTT and OTA load without memory drift or fd growth (QUALITY R7)', () => {
  it(
    `runs ${SOAK_MS / 60_000} min of load with RSS drift < 5 % and no fd growth`,
    async () => {
      const pid = server.pid;
      const nodes = await registerFleet();
      const group = await call('POST', '/v1/admin/node_group', {
        group_name: 'r7-ota',
        node_model: 'FD-WM-R7',
      });
      expect(group.status, JSON.stringify(group.body)).toBe(200);
      const groupId = group.body.group_id as string;
      const image = await call('POST', '/v1/admin/otaimage', {
        image_name: 'r7-image',
        type: 'Washing Machine',
        fw_version: '9.9.9',
        model: 'FD-WM-R7',
        base64_fwimage: Buffer.alloc(32 * 1024, 0x5a).toString('base64'),
      });
      expect(image.status, JSON.stringify(image.body)).toBe(200);
      const fdsBeforeConnect = openFiles(pid);

      const clients = await Promise.all(
        nodes.map(async (node) => {
          const client = await mqtt.connectAsync(server.mqttUrl, {
            clientId: node.node_id,
            username: node.node_id,
            password: node.mqtt_password,
            keepalive: 60,
            reconnectPeriod: 0,
          });
          await client.subscribeAsync(`node/${node.node_id}/otaurl`, { qos: 1 });
          return client;
        }),
      );
      const publishing = mqttLoad(clients, nodes);
      const ota = otaLoad(groupId, image.body.ota_image_id as string);
      const api = apiLoad(groupId, () => ota.figures.last);

      const samples: Array<{
        at: number;
        rss: number;
        anon: number;
        file: number;
        fds: number;
        db: number;
      }> = [];
      const started = Date.now();
      try {
        while (Date.now() - started < SOAK_MS) {
          await sleep(SAMPLE_MS);
          expectAlive();
          const { rss, anon, file } = memory(pid);
          const at = Date.now() - started;
          samples.push({ at, rss, anon, file, fds: openFiles(pid), db: databaseBytes(dataDir) });
        }
      } finally {
        publishing.stop();
        await Promise.all([api.stop(), ota.stop()]);
      }

      const inWindow = (from: number) =>
        samples.filter((s) => s.at > from && s.at <= from + WINDOW_MS);
      const windows: Array<typeof samples> = [];
      for (let from = WARMUP_MS; from + WINDOW_MS <= SOAK_MS + 1; from += WINDOW_MS)
        windows.push(inWindow(from));
      const first = windows[0]!;
      const last = inWindow(SOAK_MS - WINDOW_MS);
      const windowRss = windows.map((w) => median(w.map((s) => s.rss)));
      const rssFirst = windowRss[0]!;
      const rssLast = median(last.map((s) => s.rss));
      const rssLowest = Math.min(...windowRss.slice(0, -1), rssFirst);
      const driftFromLowest = (rssLast - rssLowest) / rssLowest;
      const fdsFirst = median(first.map((s) => s.fds));
      const fdsLast = median(last.map((s) => s.fds));
      const drift = (rssLast - rssFirst) / rssFirst;

      // Once the load has stopped and the nodes are gone, the server holds what it held before
      // they connected (plus the same slack).
      await Promise.all(clients.map((client) => client.endAsync()));
      await sleep(2_000);
      expectAlive();
      const fdsAfter = openFiles(pid);

      const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
      /** The median of each minute's samples of one figure. */
      const perMinute = (figure: (sample: (typeof samples)[number]) => number) =>
        Array.from({ length: Math.ceil(SOAK_MS / 60_000) }, (_, m) => {
          const minute = samples.filter((s) => Math.floor((s.at - 1) / 60_000) === m);
          return minute.length ? median(minute.map(figure)) : null;
        });
      const report = {
        minutes: SOAK_MS / 60_000,
        window_s: WINDOW_MS / 1000,
        warmup_s: WARMUP_MS / 1000,
        rss_mib_first_window: mib(rssFirst),
        rss_mib_last_window: mib(rssLast),
        rss_mib_max: mib(Math.max(...samples.map((s) => s.rss))),
        drift_percent: Math.round(drift * 10_000) / 100,
        rss_mib_lowest_window: mib(rssLowest),
        drift_from_lowest_percent: Math.round(driftFromLowest * 10_000) / 100,
        rss_mib_per_window: windowRss.map(mib),
        fds_before_connect: fdsBeforeConnect,
        fds_first_window: fdsFirst,
        fds_last_window: fdsLast,
        fds_after_disconnect: fdsAfter,
        mqtt: publishing.figures,
        api: api.figures,
        ota: ota.figures,
        rss_mib_per_minute: perMinute((s) => mib(s.rss)),
        anon_mib_per_minute: perMinute((s) => mib(s.anon)),
        file_mib_per_minute: perMinute((s) => mib(s.file)),
        database_mib_per_minute: perMinute((s) => mib(s.db)),
        fds_per_minute: perMinute((s) => s.fds),
      };
      console.info(`R7 soak: ${JSON.stringify(report)}`);

      // The load ran: messages acknowledged, API answers, OTA jobs created and answered.
      expect(first.length).toBeGreaterThanOrEqual(WINDOW_MS / SAMPLE_MS - 1);
      expect(last.length).toBeGreaterThanOrEqual(WINDOW_MS / SAMPLE_MS - 1);
      expect(publishing.figures.acked).toBeGreaterThan(0.9 * publishing.figures.sent);
      expect(publishing.figures.failed).toBe(0);
      expect(api.figures.failures, api.figures.failed.join('\n')).toBe(0);
      expect(ota.figures.failures).toEqual([]);
      expect(ota.figures.created).toBeGreaterThanOrEqual(Math.floor(SOAK_MS / OTA_PERIOD_MS));
      expect(publishing.figures.reports).toBeGreaterThan(0);
      // R7's figures.
      expect(drift, JSON.stringify(report)).toBeLessThan(MAX_DRIFT);
      expect(driftFromLowest, JSON.stringify(report)).toBeLessThan(MAX_DRIFT);
      expect(fdsLast, JSON.stringify(report)).toBeLessThanOrEqual(fdsFirst + FD_SLACK);
      expect(fdsAfter, JSON.stringify(report)).toBeLessThanOrEqual(fdsBeforeConnect + FD_SLACK);
    },
    SOAK_MS + 300_000,
  );
});
