import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  NodeConfigPayloadSchema,
  OtaFetchPayloadSchema,
  OtaStatusPayloadSchema,
} from '@fleetdeck/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeBroker, FakeServer } from './fake-network.test-support.js';
import { Fleet, FleetSetupError, type FleetOptions } from './fleet.js';
import { loadFleetState, type StateNode } from './fleet-state.js';
import {
  imageBytes,
  signedOffer,
  signingKeyPair,
  startImageServer,
  type ImageServer,
} from './ota/image-server.test-support.js';
import { OTA_MESSAGES } from './ota/ota-agent.js';
import { publishTopic } from './payloads.js';

const ADMIN = { email: 'admin@fleetdeck.test', password: 'Admin12345' };
const install = signingKeyPair();
const image = imageBytes(128 * 1024, 3);

let dir: string;
let broker: FakeBroker;
let server: FakeServer;
let images: ImageServer;
let logs: string[];
const running: Fleet[] = [];

beforeAll(async () => {
  images = await startImageServer();
});
afterAll(async () => {
  await images.close();
});
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-ota-'));
  broker = new FakeBroker();
  server = new FakeServer(broker, ADMIN);
  server.signingKeyPem = install.publicPem;
  logs = [];
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((fleet) => fleet.stop()));
  await fs.rm(dir, { recursive: true, force: true });
});

function fleet(options: Partial<FleetOptions> = {}): Fleet {
  const created = new Fleet({
    serverUrl: 'http://fleetdeck.test',
    mqttUrl: 'mqtt://broker.test:1883',
    nodes: 6,
    admin: ADMIN,
    statePath: path.join(dir, 'fleet.json'),
    flapRatePerHour: 0,
    claimShare: 0,
    connectRatePerSecond: 100_000,
    tickMs: 5,
    log: (line) => logs.push(line),
    linkFactory: broker.factory,
    fetch: server.fetch,
    ota: { rebootDelayMs: [10, 20], retryDelayMs: 10 },
    ...options,
  });
  running.push(created);
  return created;
}

async function onlineFleet(options: Partial<FleetOptions> = {}) {
  const f = fleet(options);
  await f.start();
  await f.waitUntil((stats) => stats.total > 0 && stats.connected === stats.total, 5_000);
  const state = await loadFleetState(path.join(dir, 'fleet.json'));
  const node = state?.nodes[0] as StateNode;
  return { f, node, id: node.node_id };
}

function offerFor(node: StateNode, jobId = 'job-1') {
  return signedOffer(install.privateKey, image, {
    url: images.serve(`/blobs/${node.node_id}-${jobId}.bin`, { body: image }),
    type: node.type,
    model: node.model,
    fw_version: '9.0.0',
    ota_job_id: jobId,
  });
}

function otaStatuses(id: string): string[] {
  return broker
    .messagesOf(id)
    .filter((m) => m.suffix === 'otastatus')
    .map((m) => {
      const status = OtaStatusPayloadSchema.parse(JSON.parse(m.payload));
      return `${status.status}: ${status.additional_info ?? ''}`;
    });
}

describe('OTA in a simulated fleet', () => {
  it('asks for updates with otafetch after connecting, on the firmware topic', async () => {
    const { f } = await onlineFleet();
    await f.waitUntil(
      () => f.nodeIds().every((id) => broker.messagesOf(id).some((m) => m.suffix === 'otafetch')),
      2_000,
    );
    for (const id of f.nodeIds()) {
      const fetch = broker.messagesOf(id).find((m) => m.suffix === 'otafetch');
      expect(fetch?.topic).toBe(publishTopic(id, 'otafetch', f.node(id)?.basicIngest ?? false));
      expect(OtaFetchPayloadSchema.parse(JSON.parse(fetch?.payload ?? ''))).toEqual({
        node_id: id,
        fw_version: f.node(id)?.fwVersion,
      });
    }
  });

  it('takes an offer through download, verification and reboot, and comes back on the new version', async () => {
    const { f, node, id } = await onlineFleet();
    expect(broker.deliver(`node/${id}/otaurl`, offerFor(node))).toBe(true);
    await f.waitUntil((stats) => stats.otaSucceeded === 1, 5_000);

    expect(otaStatuses(id)).toEqual([
      `in-progress: ${OTA_MESSAGES.starting}`,
      'in-progress: Downloaded 25% Firmware Image',
      'in-progress: Downloaded 50% Firmware Image',
      'in-progress: Downloaded 75% Firmware Image',
      'in-progress: Downloaded 100% Firmware Image',
      `in-progress: ${OTA_MESSAGES.rebooting}`,
      `success: ${OTA_MESSAGES.success}`,
    ]);
    const messages = broker.messagesOf(id);
    const statuses = messages.filter((m) => m.suffix === 'otastatus');
    const basicIngest = f.node(id)?.basicIngest ?? false;
    expect(statuses.every((m) => m.topic === publishTopic(id, 'otastatus', basicIngest))).toBe(
      true,
    );
    expect(
      statuses.every(
        (m) => OtaStatusPayloadSchema.parse(JSON.parse(m.payload)).ota_job_id === 'job-1',
      ),
    ).toBe(true);

    // The reboot: the will fires, the node returns with a new session and reports the new version
    // in its config before it reports success.
    const rebooting = messages.findIndex((m) => m.payload.includes(OTA_MESSAGES.rebooting));
    const will = messages.findIndex((m, i) => i > rebooting && m.will);
    const configs = messages
      .map((m, i) => ({ m, i }))
      .filter(({ m }) => m.suffix === 'config')
      .map(({ m, i }) => ({
        i,
        fw: NodeConfigPayloadSchema.parse(JSON.parse(m.payload)).info.fw_version,
      }));
    const success = messages.findIndex((m) => m.payload.includes(OTA_MESSAGES.success));
    expect(will).toBeGreaterThan(rebooting);
    expect(configs.map((c) => c.fw)).toEqual([node.fw_version, '9.0.0']);
    expect(configs[1]?.i).toBeGreaterThan(will);
    expect(success).toBeGreaterThan(configs[1]?.i ?? Infinity);
    expect(f.node(id)).toMatchObject({ fwVersion: '9.0.0', otaJob: undefined, session: 2 });

    // The new version is remembered in the state file, as flash keeps the new image.
    await f.stop();
    const state = await loadFleetState(path.join(dir, 'fleet.json'));
    expect(state?.nodes.find((n) => n.node_id === id)?.fw_version).toBe('9.0.0');
  });

  it('rejects the same job again once it runs that version', async () => {
    const { f, node, id } = await onlineFleet();
    broker.deliver(`node/${id}/otaurl`, offerFor(node));
    await f.waitUntil((stats) => stats.otaSucceeded === 1, 5_000);
    broker.deliver(`node/${id}/otaurl`, offerFor(node));
    await f.waitUntil((stats) => stats.otaRejected === 1, 2_000);
    expect(otaStatuses(id).at(-1)).toBe(`rejected: ${OTA_MESSAGES.same}`);
  });

  it('fails every otherwise good update at fail rate 1, and stays on its version', async () => {
    const { f, node, id } = await onlineFleet({ ota: { failRate: 1 } });
    broker.deliver(`node/${id}/otaurl`, offerFor(node));
    await f.waitUntil((stats) => stats.otaFailed === 1, 5_000);
    expect(otaStatuses(id).at(-1)).toMatch(/^failed: .*(flash|partition)/i);
    expect(f.node(id)).toMatchObject({ fwVersion: node.fw_version, otaJob: undefined, session: 1 });
  });

  it('keeps a verdict the broker never acknowledged and sends it again, before asking, after reconnecting', async () => {
    const { f, node, id } = await onlineFleet({
      ota: { failRate: 1, retryDelayMs: 10 },
      flapDowntimeMs: [10, 20],
    });
    let withhold = true;
    broker.withholdAck = (message) => withhold && message.topic.endsWith('/otastatus');
    broker.deliver(`node/${id}/otaurl`, offerFor(node));
    await f.waitUntil((stats) => stats.otaFailed === 1, 5_000);
    expect(f.node(id)).toMatchObject({ verdictPending: true, otaJob: undefined });
    expect(f.node(id)?.lastVerdict).toMatchObject({ ota_job_id: 'job-1', status: 'failed' });

    // The server comes back: the node reconnects, says it again, and only then asks.
    withhold = false;
    const before = broker.messagesOf(id).length;
    expect(f.flapNode(id)).toBe(true);
    await f.waitUntil(() => f.node(id)?.session === 2 && !f.node(id)?.verdictPending, 5_000);
    await f.waitUntil(
      () =>
        broker
          .messagesOf(id)
          .slice(before)
          .some((m) => m.suffix === 'otafetch'),
      2_000,
    );
    const after = broker.messagesOf(id).slice(before);
    const verdict = after.findIndex((m) => m.suffix === 'otastatus');
    const ask = after.findIndex((m) => m.suffix === 'otafetch');
    expect(OtaStatusPayloadSchema.parse(JSON.parse(after[verdict]?.payload ?? ''))).toMatchObject({
      ota_job_id: 'job-1',
      status: 'failed',
    });
    expect(verdict).toBeLessThan(ask);
    expect(f.stats().otaFailed).toBe(1);
  });

  it('sends every unacknowledged verdict again in the order it was reported', async () => {
    const { f, node, id } = await onlineFleet({ flapDowntimeMs: [10, 20] });
    let withhold = true;
    broker.withholdAck = (message) => withhold && message.topic.endsWith('/otastatus');
    broker.deliver(`node/${id}/otaurl`, offerFor(node));
    await f.waitUntil((stats) => stats.otaSucceeded === 1, 5_000);
    // The same job offered again (the cloud never heard of the success): "Same version received".
    broker.deliver(`node/${id}/otaurl`, offerFor(node));
    await f.waitUntil((stats) => stats.otaRejected === 1, 2_000);
    expect(f.node(id)).toMatchObject({ verdictPending: true, lastVerdict: { status: 'rejected' } });

    withhold = false;
    const before = broker.messagesOf(id).length;
    const session = f.node(id)?.session ?? 0;
    f.flapNode(id);
    await f.waitUntil(
      () => f.node(id)?.session === session + 1 && !f.node(id)?.verdictPending,
      5_000,
    );
    const resent = broker
      .messagesOf(id)
      .slice(before)
      .filter((m) => m.suffix === 'otastatus')
      .map((m) => OtaStatusPayloadSchema.parse(JSON.parse(m.payload)).status);
    expect(resent).toEqual(['success', 'rejected']);
  });

  it('keeps at most 8 unacknowledged verdicts, the newest', async () => {
    const { f, node, id } = await onlineFleet({ flapDowntimeMs: [10, 20] });
    let withhold = true;
    broker.withholdAck = (message) => withhold && message.topic.endsWith('/otastatus');
    // Ten offers of jobs it cannot take (another model): ten rejections, none acknowledged.
    for (let i = 0; i < 10; i++)
      broker.deliver(`node/${id}/otaurl`, { ...offerFor(node, `job-${i}`), model: 'other' });
    await f.waitUntil((stats) => stats.otaRejected === 10, 2_000);
    withhold = false;
    const before = broker.messagesOf(id).length;
    f.flapNode(id);
    await f.waitUntil(() => f.node(id)?.session === 2 && !f.node(id)?.verdictPending, 5_000);
    const resent = broker
      .messagesOf(id)
      .slice(before)
      .filter((m) => m.suffix === 'otastatus')
      .map((m) => OtaStatusPayloadSchema.parse(JSON.parse(m.payload)).ota_job_id);
    expect(resent).toEqual([2, 3, 4, 5, 6, 7, 8, 9].map((i) => `job-${i}`));
  });

  it('loses a download to a power cycle, says nothing of it, and asks again after booting', async () => {
    const { f, node, id } = await onlineFleet({
      ota: { downloadBytesPerSecond: 64 * 1024, rebootDelayMs: [10, 20], retryDelayMs: 10 },
    });
    broker.deliver(`node/${id}/otaurl`, offerFor(node));
    await f.waitUntil(
      () => otaStatuses(id).includes('in-progress: Downloaded 25% Firmware Image'),
      5_000,
    );
    expect(f.node(id)?.otaJob).toBe('job-1');
    const fetches = broker.messagesOf(id).filter((m) => m.suffix === 'otafetch').length;
    expect(f.powerCycle(id)).toBe(true);
    await f.waitUntil(() => f.node(id)?.status === 'online' && f.node(id)?.session === 2, 5_000);
    await f.waitUntil(
      () => broker.messagesOf(id).filter((m) => m.suffix === 'otafetch').length > fetches,
      2_000,
    );
    // The 2 s download would have finished by now: it was dropped with the power.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(f.node(id)).toMatchObject({ otaJob: undefined, fwVersion: node.fw_version });
    expect(otaStatuses(id).filter((line) => !line.startsWith('in-progress'))).toEqual([]);
  });

  it("downloads no faster than the node's link speed", async () => {
    const { f, node, id } = await onlineFleet({ ota: { downloadBytesPerSecond: 128 * 1024 } });
    const started = Date.now();
    broker.deliver(`node/${id}/otaurl`, offerFor(node));
    await f.waitUntil(
      () => otaStatuses(id).includes('in-progress: Downloaded 100% Firmware Image'),
      5_000,
    );
    // 128 KiB at 128 KiB/s: about a second (the last chunk is due at the end).
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(f.node(id)?.imageBytesReceived).toBe(image.length);
  });

  it('resumes a download a short partition cut, with Range', async () => {
    const { f, node, id } = await onlineFleet({
      ota: { downloadBytesPerSecond: 64 * 1024, retryDelayMs: 100, downloadAttempts: 5 },
    });
    const offer = offerFor(node);
    broker.deliver(`node/${id}/otaurl`, offer);
    await f.waitUntil(
      () => otaStatuses(id).includes('in-progress: Downloaded 25% Firmware Image'),
      5_000,
    );
    expect(f.partition([id], 150)).toBe(1);
    await f.waitUntil((stats) => stats.otaSucceeded === 1, 10_000);
    const path = new URL(offer.url).pathname;
    const ranges = images.requests.filter((r) => r.path === path).map((r) => r.range);
    expect(ranges[0]).toBeUndefined();
    expect(ranges.slice(1).some((range) => /^bytes=[1-9]\d*-$/.test(range ?? ''))).toBe(true);
    // (Its "Resuming" report went out while the node was offline: lost, as on firmware.)
    expect(f.node(id)).toMatchObject({ fwVersion: '9.0.0', verdictPending: false });
    // The connection dropped with the network, and the node came back (then rebooted).
    expect(f.node(id)?.session).toBeGreaterThanOrEqual(3);
  }, 15_000);

  it('fails a download a long partition outlasts, and reports it once the network is back', async () => {
    const { f, node, id } = await onlineFleet({
      ota: { downloadBytesPerSecond: 64 * 1024, retryDelayMs: 50, downloadAttempts: 3 },
      connectRatePerSecond: 100_000,
    });
    broker.deliver(`node/${id}/otaurl`, offerFor(node));
    await f.waitUntil(
      () => otaStatuses(id).includes('in-progress: Downloaded 25% Firmware Image'),
      5_000,
    );
    f.partition([id], 1_500);
    await f.waitUntil((stats) => stats.otaFailed === 1, 5_000);
    // Decided while cut off: kept, not lost.
    expect(f.node(id)?.verdictPending).toBe(true);
    expect(f.node(id)?.status).not.toBe('online');
    await f.waitUntil(() => f.node(id)?.verdictPending === false, 10_000);
    expect(otaStatuses(id).at(-1)).toMatch(
      /^failed: Download failed: fetch failed \(ENETUNREACH\)$/,
    );
    expect(f.node(id)).toMatchObject({ fwVersion: node.fw_version, status: 'online' });
  });

  it('sends status reports twice, the copy after later ones, with a duplicate share of 1', async () => {
    const { f, node, id } = await onlineFleet({
      ota: {
        duplicateShare: 1,
        duplicateDelayMs: [1_500, 1_600],
        downloadBytesPerSecond: 64 * 1024,
        rebootDelayMs: [10, 20],
      },
    });
    broker.deliver(`node/${id}/otaurl`, offerFor(node));
    await f.waitUntil(
      () => otaStatuses(id).filter((line) => line.startsWith('success')).length === 2,
      8_000,
    );
    const statuses = otaStatuses(id);
    const starting = `in-progress: ${OTA_MESSAGES.starting}`;
    expect(statuses.filter((line) => line === starting)).toHaveLength(2);
    // The copy of the first report comes after later ones (the first 64 KiB chunk is due at 1 s).
    expect(statuses.lastIndexOf(starting)).toBeGreaterThan(
      statuses.indexOf('in-progress: Downloaded 25% Firmware Image'),
    );
    expect(f.stats().otaSucceeded).toBe(1);
  }, 10_000);

  it('uses a given public key without asking the server', async () => {
    server.signingKeyPem = undefined;
    const { f, node, id } = await onlineFleet({
      ota: { publicKey: install.publicKey, rebootDelayMs: [10, 20] },
    });
    expect(server.calls).not.toContain('GET /v1/otaimage/signing_key');
    broker.deliver(`node/${id}/otaurl`, offerFor(node));
    await f.waitUntil((stats) => stats.otaSucceeded === 1, 5_000);
  });

  it('does not start without the signing key, unless told to skip OTA', async () => {
    server.signingKeyPem = undefined;
    const error = await fleet()
      .start()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FleetSetupError);
    expect((error as Error).message).toMatch(/signing_key answered 404/);

    const { f, node, id } = await onlineFleet({ ota: { whenKeyUnavailable: 'skip' } });
    expect(logs.filter((line) => line.startsWith('OTA skipped ('))).toHaveLength(1);
    broker.deliver(`node/${id}/otaurl`, offerFor(node));
    expect(f.stats().otaOffers).toBe(1);
    expect(otaStatuses(id)).toEqual([]);
  });
});
