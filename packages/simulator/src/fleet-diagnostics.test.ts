import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DiagnosticsMessageSchema, INSIGHTS_FRAME_KIND } from '@fleetdeck/contract';
import { decode } from 'cborg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeBroker, FakeServer, type BrokerMessage } from './fake-network.test-support.js';
import { Fleet, type FleetOptions } from './fleet.js';

const ADMIN = { email: 'admin@fleetdeck.test', password: 'Admin12345' };

let dir: string;
let broker: FakeBroker;
let server: FakeServer;
const running: Fleet[] = [];

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-diag-'));
  broker = new FakeBroker();
  server = new FakeServer(broker, ADMIN);
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((fleet) => fleet.stop()));
  await fs.rm(dir, { recursive: true, force: true });
});

/** A fleet on the fakes whose boot reports follow the connect at once. */
async function onlineFleet(options: Partial<FleetOptions> = {}): Promise<Fleet> {
  const f = new Fleet({
    serverUrl: 'http://fleetdeck.test',
    mqttUrl: 'mqtt://broker.test:1883',
    nodes: 40,
    admin: ADMIN,
    statePath: path.join(dir, 'fleet.json'),
    flapRatePerHour: 0,
    claimShare: 0,
    connectRatePerSecond: 100_000,
    tickMs: 5,
    diagBootDelayMs: [0, 10],
    log: () => undefined,
    linkFactory: broker.factory,
    fetch: server.fetch,
    ...options,
  });
  running.push(f);
  await f.start();
  await f.waitUntil((stats) => stats.total > 0 && stats.connected === stats.total, 5_000);
  return f;
}

const diagnosticsOf = (nodeId: string) =>
  broker.messagesOf(nodeId).filter((m) => m.suffix === 'diagnostics/from-node');

interface Frame {
  diag: { data: { boot?: { reason: number }; metrics: unknown[] } };
}

/** The CBOR body of an ESP Insights data frame, after checking its header. */
function frameBody(message: BrokerMessage): Frame {
  const bytes = message.bytes;
  expect(bytes[0]).toBe(INSIGHTS_FRAME_KIND.data);
  expect(bytes.readUInt16LE(1)).toBe(bytes.length - 3);
  return decode(bytes.subarray(3)) as Frame;
}

describe('diagnostics of a simulated fleet', () => {
  it('sends a boot report with the reset reason, then periodic reports, in JSON or binary frames', async () => {
    const f = await onlineFleet({ diagIntervalSeconds: 1, diagBinaryShare: 0.5 });
    await f.waitUntil(() => f.nodeIds().every((id) => diagnosticsOf(id).length >= 2), 8_000);
    const encodings = new Set<string>();
    for (const nodeId of f.nodeIds()) {
      const [boot, periodic] = diagnosticsOf(nodeId);
      if (!boot || !periodic) throw new Error(`${nodeId} sent too few reports`);
      for (const message of [boot, periodic]) {
        expect(message.topic).toBe(`node/${nodeId}/diagnostics/from-node`);
      }
      if (f.node(nodeId)?.diagBinary) {
        encodings.add('binary');
        expect(frameBody(boot).diag.data.boot?.reason).toBe(1);
        expect(frameBody(periodic).diag.data.metrics.length).toBeGreaterThan(0);
      } else {
        encodings.add('json');
        const first = DiagnosticsMessageSchema.parse(JSON.parse(boot.payload));
        expect(first.logs?.[0]).toMatchObject({
          type: 'reboot',
          data: { reason: 1, reset_reason: 'ESP_RST_POWERON' },
        });
        const next = DiagnosticsMessageSchema.parse(JSON.parse(periodic.payload));
        expect(next.metrics?.map((metric) => metric.id)).toContain('heap.free');
      }
    }
    expect(encodings).toEqual(new Set(['binary', 'json']));
    // Counted on PUBACK, which follows the publish.
    await f.waitUntil((stats) => stats.diagnosticsSent >= 80, 2_000);
  });

  it('lets the same nodes speak binary for the same seed, about the share asked for', async () => {
    const f = await onlineFleet({ nodes: 300, diagBinaryShare: 0.2 });
    const binary = f.nodeIds().filter((id) => f.node(id)?.diagBinary);
    expect(binary.length).toBeGreaterThan(300 * 0.12);
    expect(binary.length).toBeLessThan(300 * 0.28);
    await f.waitUntil(() => f.nodeIds().every((id) => diagnosticsOf(id).length >= 1), 5_000);
    for (const nodeId of f.nodeIds()) {
      const first = diagnosticsOf(nodeId)[0];
      expect(first?.bytes[0] === INSIGHTS_FRAME_KIND.data).toBe(binary.includes(nodeId));
    }
    await f.stop();

    // A second run from the state file keeps the nodes and so their encodings.
    const again = await onlineFleet({ nodes: 300, diagBinaryShare: 0.2 });
    expect(again.nodeIds().filter((id) => again.node(id)?.diagBinary)).toEqual(binary);
  });

  it('sends nothing with an interval of 0', async () => {
    const f = await onlineFleet({ nodes: 10, diagIntervalSeconds: 0, paramIntervalMs: [10, 20] });
    await f.waitUntil((stats) => stats.messagesSent > 10 * 6, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(f.nodeIds().flatMap(diagnosticsOf)).toEqual([]);
    expect(f.stats().diagnosticsSent).toBe(0);
  });

  it('sends a new boot report after a reconnect', async () => {
    const f = await onlineFleet({ nodes: 3, flapDowntimeMs: [10, 20] });
    const nodeId = f.nodeIds()[0] ?? '';
    await f.waitUntil(() => diagnosticsOf(nodeId).length === 1, 5_000);
    expect(f.flapNode(nodeId)).toBe(true);
    await f.waitUntil(() => diagnosticsOf(nodeId).length === 2, 5_000);
    expect(f.node(nodeId)?.session).toBe(2);
  });
});
