import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AdminNodesList, JobList, JobStatusList, JobSummary } from '@fleetdeck/contract';
import { Fleet, Rng, type SimulatedNodeView } from '@fleetdeck/simulator';
import { connect, type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import {
  E2E_ADMIN_EMAIL,
  E2E_ADMIN_PASSWORD,
  allPages,
  apiJson,
  apiToken,
  freePort,
  startServer,
  type RunningServer,
} from '../helpers/fleetdeck-server.js';
import {
  startOwnMosquitto,
  type OwnMosquitto,
} from '../../packages/server/test/helpers/mqtt-mosquitto.js';

/**
 * QUALITY R3: an OTA rollout converges under faults. The built server (SQLite, embedded broker;
 * and, for a few seeds, an external Mosquitto of our own) and a simulated fleet of real MQTT clients that download over HTTP, verify and report like
 * firmware. While a force-pushed job runs, a seeded nemesis:
 *
 * - power-cycles a tenth of the targets mid-download (the download is lost, the node asks again),
 * - cuts the network of a tenth of the fleet for a few seconds (connections drop, reconnects and
 *   download requests fail, downloads resume with Range or fail once their attempts are spent),
 * - kills the server with SIGKILL, restarts it, stops it with SIGTERM (a broker restart, the
 *   broker being embedded), restarts it, and kills it once more; with Mosquitto, Fleetdeck keeps
 *   its session there (`MQTT_SESSION_EXPIRY_SECONDS`), and the broker itself is restarted
 *   (SIGTERM, persistent) between the first two,
 * - and every node sends a share of its status reports twice, the copy up to 3 s later, so the
 *   server sees duplicates out of order.
 *
 * Pass: every execution ends final; `success` exactly for the nodes that run the new image, and
 * every other verdict the one the node reported; no node outside the job changed; the job's
 * counts equal a recount of its executions; the registry shows each node's real firmware; no node
 * received more than 3 images' worth of bytes (resumed downloads do not start over).
 *
 * `OTA_FAULTS_NODES` (default 500), `OTA_FAULTS_SEEDS` (default 1–10, comma-separated) and
 * `OTA_FAULTS_MOSQUITTO_SEEDS` (default 1–3; the Mosquitto here is open to any client, since the
 * simulator makes its nodes' credentials while the broker runs: the ACL is tested on its own in
 * the gateway tests) set the size.
 */
const NODES = Number(process.env.OTA_FAULTS_NODES ?? 500);
const seedsOf = (list: string) =>
  list
    .split(',')
    .filter((seed) => seed.trim() !== '')
    .map((seed) => Number(seed.trim()));
const SEEDS = seedsOf(process.env.OTA_FAULTS_SEEDS ?? '1,2,3,4,5,6,7,8,9,10');
const MOSQUITTO_SEEDS = seedsOf(process.env.OTA_FAULTS_MOSQUITTO_SEEDS ?? '1,2,3');
const TYPE = 'Air Conditioner';
const MODEL = 'FD-AC-1800';
const NEW_VERSION = '2.0.0';
const IMAGE_BYTES = 192 * 1024;
/** Each node downloads at 64 KiB/s, so a download takes 3 s and faults land in the middle. */
const DOWNLOAD_RATE = 64 * 1024;
const CONVERGE_MS = 150_000;
const FINAL = new Set(['success', 'failed', 'rejected']);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What happened during a run, for a failure message: the nemesis's steps and, through Mosquitto
 * (open to any client), every OTA and connection message of every node, with milliseconds since
 * the start. A failure shows the lines of its nodes.
 */
class Timeline {
  private readonly started = Date.now();
  private readonly lines: string[] = [];
  private spy: MqttClient | undefined;

  add(line: string): void {
    this.lines.push(`${Date.now() - this.started} ms ${line}`);
  }

  /** Listens to the nodes' OTA and connection topics, in both spellings. */
  watch(url: string): void {
    const spy = connect(url, { clientId: 'r3-spy', username: 'r3-spy', reconnectPeriod: 200 });
    const suffixes = ['otafetch', 'otaurl', 'otastatus', 'connection'];
    const filters = suffixes.flatMap((suffix) => [
      `node/+/${suffix}`,
      `$aws/rules/+/node/+/${suffix}`,
    ]);
    spy.on('connect', () => void spy.subscribeAsync(filters, { qos: 0 }).catch(() => undefined));
    spy.on('message', (topic, payload) => this.add(`${topic} ${payload.toString().slice(0, 120)}`));
    this.spy = spy;
  }

  /** The nemesis's lines and those naming one of `nodeIds`. */
  about(nodeIds: readonly string[]): string {
    return this.lines
      .filter((line) => line.includes('nemesis:') || nodeIds.some((id) => line.includes(id)))
      .join('\n');
  }

  async close(): Promise<void> {
    await this.spy?.endAsync(true);
  }
}

/** Where the nodes connect: the server's embedded broker, or a Mosquitto of our own. */
type BrokerKind = 'embedded' | 'mosquitto';

interface Run {
  server: RunningServer;
  fleet: Fleet | undefined;
  dataDir: string;
  logs: string[];
  /** How the server is started again: the same directory, ports and broker. */
  env: Record<string, string>;
  mqttPort: number;
  mosquitto: OwnMosquitto | undefined;
  timeline: Timeline;
}

let current: Run | undefined;

afterEach(async () => {
  const run = current;
  current = undefined;
  await run?.fleet?.stop();
  await run?.server.stop();
  await run?.timeline.close();
  await run?.mosquitto?.stop();
  if (run) fs.rmSync(run.dataDir, { recursive: true, force: true });
});

const api = <T>(run: Run, token: string, method: string, url: string, body?: unknown) =>
  apiJson<T>(run.server.url, token, method, url, body);

/** The job's node statuses, every page. */
async function jobStatuses(run: Run, token: string, jobId: string): Promise<Map<string, string>> {
  const rows = await allPages(
    run.server.url,
    token,
    `/v1/admin/otajob/status?ota_job_id=${jobId}`,
    (page: JobStatusList) => page.node_ota_status,
  );
  const statuses = new Map(rows.map((row) => [row.node_id, row.status as string]));
  expect(statuses.size, 'a node listed twice').toBe(rows.length);
  return statuses;
}

/** Every node's firmware version as the registry has it. */
async function registryVersions(run: Run, token: string): Promise<Map<string, string>> {
  const rows = await allPages(
    run.server.url,
    token,
    '/v1/admin/nodes?node_details=false',
    (page: AdminNodesList) => page.node_info,
  );
  return new Map(rows.map((node) => [node.node_id, node.fw_version]));
}

/** Restarts the server on the same data directory and ports after `signal`. */
async function restart(run: Run, signal: NodeJS.Signals): Promise<void> {
  run.timeline.add(`nemesis: server ${signal}`);
  await run.server.kill(signal);
  run.server = await startServer(run.env, {
    dataDir: run.dataDir,
    port: run.server.port,
    mqttPort: run.mqttPort,
  });
}

/** One seeded run: the fleet, the job, the nemesis, then the checks. */
async function convergesUnderFaults(seed: number, broker: BrokerKind): Promise<void> {
  const rng = new Rng(seed * 7919);
  const port = await freePort();
  const mqttPort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-r3-'));
  const run: Run = {
    server: undefined as unknown as RunningServer,
    fleet: undefined,
    dataDir,
    logs: [],
    env: {},
    mqttPort,
    mosquitto: undefined,
    timeline: new Timeline(),
  };
  current = run;
  let mqttUrl = `mqtt://127.0.0.1:${mqttPort}`;
  if (broker === 'mosquitto') {
    run.mosquitto = await startOwnMosquitto(
      { nodes: [], gateways: [] },
      { open: true, persistent: true },
    );
    mqttUrl = run.mosquitto.url;
    run.timeline.watch(mqttUrl);
    run.env = {
      MQTT_URL: `mqtt://fleetdeck@127.0.0.1:${run.mosquitto.port}`,
      MQTT_SESSION_EXPIRY_SECONDS: '600',
    };
  }
  const server = await startServer(run.env, { dataDir, port, mqttPort });
  run.server = server;
  let token = await apiToken(server.url);

  const fleet = new Fleet({
    serverUrl: server.url,
    mqttUrl,
    nodes: NODES,
    seed,
    admin: { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD },
    flapRatePerHour: 0,
    claimShare: 0,
    faultRatePerHour: 0,
    diagIntervalSeconds: 0,
    paramIntervalMs: [10_000, 30_000],
    connectRatePerSecond: 1_000,
    log: (line) => run.logs.push(line),
    ota: {
      failRate: 0.05,
      duplicateShare: 0.3,
      downloadBytesPerSecond: DOWNLOAD_RATE,
      rebootDelayMs: [300, 1_500],
      retryDelayMs: 500,
      downloadAttempts: 6,
      maxConcurrentDownloads: NODES,
    },
  });
  run.fleet = fleet;
  await fleet.start();
  await fleet.waitUntil((stats) => stats.connected === NODES, 60_000);
  const before = new Map(fleet.nodeIds().map((id) => [id, fleet.node(id)!]));
  const targets = [...before.values()].filter((node) => node.type === TYPE);
  const eligible = targets.filter((node) => node.model === MODEL);
  expect(eligible.length).toBeGreaterThan(0);

  const image = Buffer.alloc(IMAGE_BYTES);
  for (let i = 0; i < image.length; i += 4) image.writeUInt32LE(rng.int(0, 0xffffffff), i);
  const { ota_image_id: imageId } = await api<{ ota_image_id: string }>(
    run,
    token,
    'POST',
    '/v1/admin/otaimage',
    {
      image_name: `r3 ac ${seed}`,
      type: TYPE,
      model: MODEL,
      fw_version: NEW_VERSION,
      base64_fwimage: image.toString('base64'),
    },
  );
  const { group_id: groupId } = await api<{ group_id: string }>(
    run,
    token,
    'POST',
    '/v1/admin/node_group',
    { group_name: `r3 air conditioners ${seed}`, node_type: TYPE },
  );
  const job = await api<{ ota_job_id: string }>(
    run,
    token,
    'POST',
    '/v1/admin/otajob?force_push=true',
    { ota_job_name: `r3 seed ${seed}`, ota_image_id: imageId, groups: [groupId] },
  );
  const jobId = job.ota_job_id;

  // The nemesis.
  const faults = { powerCycled: 0, partitioned: 0, serverPids: [server.pid] };
  await sleep(rng.float(1_000, 2_000));
  const downloading = eligible.filter((node) => fleet.node(node.nodeId)?.otaJob === jobId);
  // A tenth of them (at least one), drawn by the seed.
  for (let left = Math.ceil(downloading.length / 10); left > 0; left--) {
    const [node] = downloading.splice(rng.int(0, downloading.length - 1), 1);
    if (node && fleet.powerCycle(node.nodeId)) {
      faults.powerCycled += 1;
      run.timeline.add(`power cycle ${node.nodeId}`);
    }
  }
  await sleep(rng.float(300, 1_000));
  for (const node of before.values()) {
    if (rng.chance(0.1)) {
      const ms = rng.float(2_000, 8_000);
      faults.partitioned += fleet.partition([node.nodeId], ms);
      run.timeline.add(`partition ${node.nodeId} for ${Math.round(ms)} ms`);
    }
  }
  await sleep(rng.float(500, 1_500));
  await restart(run, 'SIGKILL');
  faults.serverPids.push(run.server.pid);
  await sleep(rng.float(2_000, 4_000));
  if (run.mosquitto) {
    run.timeline.add('nemesis: Mosquitto SIGTERM and start');
    await run.mosquitto.restart('SIGTERM');
    await sleep(rng.float(1_000, 3_000));
  }
  await restart(run, 'SIGTERM');
  faults.serverPids.push(run.server.pid);
  await sleep(rng.float(2_000, 4_000));
  await restart(run, 'SIGKILL');
  faults.serverPids.push(run.server.pid);
  token = await apiToken(run.server.url);
  expect(faults.powerCycled).toBeGreaterThan(0);
  expect(faults.partitioned).toBeGreaterThan(0);

  // Convergence: every execution final, no verdict waiting in a node, no update under way.
  let summary: JobSummary | undefined;
  const deadline = Date.now() + CONVERGE_MS;
  for (;;) {
    summary = (await api<JobList>(run, token, 'GET', `/v1/admin/otajob?ota_job_id=${jobId}`))
      .otaJobs[0]?.summary;
    const open =
      (summary?.started ?? 1) +
      (summary?.triggered ?? 0) +
      (summary?.in_progress ?? 0) +
      (summary?.delayed ?? 0);
    const busy = targets.filter((node) => {
      const view = fleet.node(node.nodeId);
      return view?.otaJob !== undefined || view?.verdictPending;
    });
    if (open === 0 && busy.length === 0) break;
    if (Date.now() > deadline) {
      const statuses = await jobStatuses(run, token, jobId);
      const stuck = [...statuses].filter(([, status]) => !FINAL.has(status)).slice(0, 5);
      const detail = await Promise.all(
        stuck.map(async ([nodeId]) => ({
          node: fleet.node(nodeId),
          history: await api<JobStatusList>(
            run,
            token,
            'GET',
            `/v1/admin/otajob/status?ota_job_id=${jobId}&node_id=${nodeId}`,
          ),
        })),
      );
      throw new Error(
        `no convergence in ${CONVERGE_MS} ms: ${JSON.stringify({ summary, busy: busy.length, detail, stats: fleet.stats() }, null, 1)}\n${run.timeline.about(stuck.map(([nodeId]) => nodeId))}`,
      );
    }
    await sleep(500);
  }

  // Every execution is final and right.
  const statuses = await jobStatuses(run, token, jobId);
  expect([...statuses.keys()].sort()).toEqual(targets.map((node) => node.nodeId).sort());
  const after = new Map(fleet.nodeIds().map((id) => [id, fleet.node(id)!]));
  const wrong: string[] = [];
  for (const target of targets) {
    const status = statuses.get(target.nodeId);
    const node = after.get(target.nodeId) as SimulatedNodeView;
    const updated = node.fwVersion === NEW_VERSION;
    if (status === 'success') {
      if (!updated) wrong.push(`${target.nodeId}: success but runs ${node.fwVersion}`);
    } else if (updated) {
      wrong.push(`${target.nodeId}: ${status} but runs the new image`);
    } else if (
      node.lastVerdict?.ota_job_id !== jobId ||
      node.lastVerdict.status !== status ||
      node.fwVersion !== target.fwVersion
    ) {
      wrong.push(
        `${target.nodeId}: ${status}, node says ${JSON.stringify(node.lastVerdict)} on ${node.fwVersion}`,
      );
    }
    if (node.model !== MODEL && status !== 'rejected')
      wrong.push(`${target.nodeId}: ${status} for another model`);
    if (node.imageBytesReceived > 3 * IMAGE_BYTES)
      wrong.push(`${target.nodeId}: received ${node.imageBytesReceived} bytes of images`);
    if (updated && node.imageBytesReceived < IMAGE_BYTES)
      wrong.push(`${target.nodeId}: updated after receiving ${node.imageBytesReceived} bytes`);
  }
  for (const [nodeId, node] of after) {
    if (node.type !== TYPE && node.fwVersion !== before.get(nodeId)?.fwVersion)
      wrong.push(`${nodeId}: not a target, but its firmware changed`);
  }
  const histories = await Promise.all(
    wrong.slice(0, 5).map(async (line) => {
      const nodeId = line.split(':')[0] ?? '';
      const history = await api<JobStatusList>(
        run,
        token,
        'GET',
        `/v1/admin/otajob/status?ota_job_id=${jobId}&node_id=${nodeId}`,
      );
      return { node: after.get(nodeId), history: history.node_ota_status };
    }),
  );
  expect(
    wrong,
    `${JSON.stringify(histories, null, 1)}\n${run.timeline.about(wrong.map((line) => line.split(':')[0] ?? ''))}`,
  ).toEqual([]);

  // The job's counts equal a recount of its executions.
  const recount = { success: 0, failed: 0, rejected: 0 };
  for (const status of statuses.values()) recount[status as keyof typeof recount] += 1;
  const final = (await api<JobList>(run, token, 'GET', `/v1/admin/otajob?ota_job_id=${jobId}`))
    .otaJobs[0]!;
  expect(final.status).toBe('finished');
  expect(final.total_count).toBe(targets.length);
  expect(final.completed_count).toBe(targets.length);
  expect(final.summary).toEqual({
    total: targets.length,
    started: 0,
    triggered: 0,
    in_progress: 0,
    delayed: 0,
    cancelled: 0,
    ...recount,
  });
  expect(recount.success).toBeGreaterThan(0);

  // The registry shows each node's real firmware (the config a node sends after its reboot).
  const registryDeadline = Date.now() + 30_000;
  for (;;) {
    const versions = await registryVersions(run, token);
    const stale = [...after.values()].filter(
      (node) => versions.get(node.nodeId) !== node.fwVersion,
    );
    if (stale.length === 0) break;
    if (Date.now() > registryDeadline) {
      const ids = stale.slice(0, 5).map((n) => n.nodeId);
      throw new Error(`registry versions stale: ${ids.join(', ')}\n${run.timeline.about(ids)}`);
    }
    await sleep(500);
  }
  expect(new Set(faults.serverPids).size).toBe(4);
}

describe('QUALITY R3: an OTA rollout under faults', () => {
  for (const seed of SEEDS) {
    it(`converges to the nodes' real state with seed ${seed}`, async () => {
      await convergesUnderFaults(seed, 'embedded');
    }, 300_000);
  }
  for (const seed of MOSQUITTO_SEEDS) {
    it(`converges through an external Mosquitto with seed ${seed}`, async () => {
      await convergesUnderFaults(seed, 'mosquitto');
    }, 300_000);
  }
});
