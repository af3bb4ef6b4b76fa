import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  ConnectionPayloadSchema,
  NodeConfigPayloadSchema,
  ParamsPayloadSchema,
  parseNodeTopic,
} from '@fleetdeck/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APPLIANCE_PROFILES, isValidParamValue } from './appliance-profiles.js';
import { endUserCount } from './end-users.js';
import { FakeBroker, FakeServer } from './fake-network.test-support.js';
import { Fleet, FleetSetupError, type FleetOptions } from './fleet.js';
import { loadFleetState } from './fleet-state.js';

const ADMIN = { email: 'admin@fleetdeck.test', password: 'Admin12345' };

let dir: string;
let broker: FakeBroker;
let server: FakeServer;
let logs: string[];
const running: Fleet[] = [];

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-'));
  broker = new FakeBroker();
  server = new FakeServer(broker, ADMIN);
  logs = [];
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((fleet) => fleet.stop()));
  await fs.rm(dir, { recursive: true, force: true });
});

/** A fleet wired to the fakes, with quick timings unless a test says otherwise. */
function fleet(options: Partial<FleetOptions> = {}): Fleet {
  const created = new Fleet({
    serverUrl: 'http://fleetdeck.test',
    mqttUrl: 'mqtt://broker.test:1883',
    nodes: 10,
    admin: ADMIN,
    statePath: path.join(dir, 'fleet.json'),
    flapRatePerHour: 0,
    claimShare: 0,
    connectRatePerSecond: 100_000,
    tickMs: 5,
    claimPollMs: 5,
    log: (line) => logs.push(line),
    linkFactory: broker.factory,
    fetch: server.fetch,
    ...options,
  });
  running.push(created);
  return created;
}

const all = (f: Fleet) => (stats: ReturnType<Fleet['stats']>) =>
  stats.total > 0 && stats.connected === f.nodeIds().length;

describe('a simulated fleet', () => {
  it('registers in batches of at most 1000 and keeps the one-time credentials', async () => {
    const f = fleet({ nodes: 1001 });
    await f.start();
    expect(server.calls.filter((call) => call === 'POST /v1/admin/node_ids')).toHaveLength(2);
    await f.waitUntil(all(f), 10_000);
    const state = await loadFleetState(path.join(dir, 'fleet.json'));
    expect(state?.nodes).toHaveLength(1001);
    expect(
      state?.nodes.every((node) => broker.passwords.get(node.node_id) === node.mqtt_password),
    ).toBe(true);
    expect(state?.nodes[0]?.tags[0]).toMatch(/^location:/);
    expect(state?.nodes[0]?.tags[1]).toMatch(/^esp\.serial_num:/);
  });

  it('connects each node in firmware order: birth, config, full params, subscriptions', async () => {
    const f = fleet({ nodes: 24 });
    await f.start();
    await f.waitUntil(all(f), 5_000);
    await f.waitUntil((stats) => stats.messagesSent >= 24 * 3, 5_000);
    const forms = new Set<string>();
    for (const nodeId of f.nodeIds()) {
      const messages = broker.messagesOf(nodeId);
      expect(messages.slice(0, 3).map((message) => message.suffix)).toEqual([
        'connection',
        'config',
        'params/local/init',
      ]);
      const [birth, config, init] = messages;
      expect(birth?.topic).toBe(`node/${nodeId}/connection`);
      expect(birth?.retain).toBe(true);
      expect(ConnectionPayloadSchema.parse(JSON.parse(birth?.payload ?? ''))).toMatchObject({
        connected: true,
        session: 1,
      });
      expect(NodeConfigPayloadSchema.parse(JSON.parse(config?.payload ?? '')).node_id).toBe(nodeId);
      expect(ParamsPayloadSchema.safeParse(JSON.parse(init?.payload ?? '')).success).toBe(true);
      for (const message of messages) {
        expect(parseNodeTopic(message.topic)?.nodeId).toBe(nodeId);
        forms.add(message.topic.startsWith('$aws/rules/') ? 'basic-ingest' : 'plain');
      }
      expect(config?.topic.startsWith('$aws/rules/')).toBe(f.node(nodeId)?.basicIngest);
      expect(broker.clients.get(nodeId)?.subscriptions).toEqual([
        `node/${nodeId}/params/remote`,
        `node/${nodeId}/otaurl`,
      ]);
    }
    expect(forms).toEqual(new Set(['basic-ingest', 'plain']));
  });

  it('reports small parameter changes that stay within bounds', async () => {
    const f = fleet({ nodes: 12, paramIntervalMs: [10, 20] });
    await f.start();
    await f.waitUntil(all(f), 5_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const nodeId of f.nodeIds()) {
      const changes = broker.messagesOf(nodeId).filter((m) => m.suffix === 'params/local');
      expect(changes.length).toBeGreaterThan(3);
      const view = f.node(nodeId);
      const type = view ? (Object.keys(view.params ?? {})[0] ?? '') : '';
      const profile = Object.values(APPLIANCE_PROFILES).find((p) => p.device.name === type);
      if (!profile) throw new Error(`no profile for ${type}`);
      for (const change of changes) {
        const document = ParamsPayloadSchema.parse(JSON.parse(change.payload));
        expect(Object.keys(document)).toEqual([profile.device.name]);
        for (const [name, value] of Object.entries(document[profile.device.name] ?? {})) {
          const definition = profile.device.params.find((param) => param.name === name);
          expect(definition && isValidParamValue(definition, value)).toBe(true);
        }
      }
    }
  });

  it('applies remote writes and reports exactly what it applied', async () => {
    const f = fleet({ nodes: 30 });
    await f.start();
    await f.waitUntil(all(f), 5_000);
    const ac = f.nodeIds().find((id) => f.node(id)?.params?.['Air Conditioner']);
    if (!ac) throw new Error('no air conditioner in the fleet');
    const before = broker.messagesOf(ac).length;
    expect(
      broker.deliver(`node/${ac}/params/remote`, {
        'Air Conditioner': { Setpoint: 18, 'Room Temperature': 5, Bogus: 1 },
        Elsewhere: { Power: true },
      }),
    ).toBe(true);
    await f.waitUntil((stats) => stats.remoteWrites === 1, 2_000);
    await f.waitUntil(() => broker.messagesOf(ac).length > before, 2_000);
    const report = broker.messagesOf(ac).at(-1);
    expect(report?.suffix).toBe('params/local');
    expect(JSON.parse(report?.payload ?? '')).toEqual({ 'Air Conditioner': { Setpoint: 18 } });
    expect(f.node(ac)?.params?.['Air Conditioner']?.Setpoint).toBe(18);
    // Without OTA settings, offers are only counted.
    broker.deliver(`node/${ac}/otaurl`, { ota_job_id: 'j1', url: 'http://x', file_size: 1 });
    expect(f.stats().otaOffers).toBe(1);
  });

  it('flaps by dropping the socket, so the will fires, and comes back with a new session', async () => {
    const f = fleet({ nodes: 5, flapDowntimeMs: [10, 20] });
    await f.start();
    await f.waitUntil(all(f), 5_000);
    const nodeId = f.nodeIds()[0] ?? '';
    expect(f.flapNode(nodeId)).toBe(true);
    await f.waitUntil(
      () => f.node(nodeId)?.session === 2 && f.node(nodeId)?.status === 'online',
      2_000,
    );
    const connection = broker.messagesOf(nodeId).filter((m) => m.suffix === 'connection');
    const seen = connection.map((m) => {
      const payload = ConnectionPayloadSchema.parse(JSON.parse(m.payload));
      return [m.will, payload.connected, payload.session];
    });
    expect(seen).toEqual([
      [false, true, 1],
      [true, false, 1],
      [false, true, 2],
    ]);
    expect(f.stats().flaps).toBe(1);
  });

  it('flaps at the configured rate per hour per 1000 nodes', async () => {
    // 10 nodes at 3.6M/h per 1000 nodes = 10 flaps per second.
    const f = fleet({ nodes: 10, flapRatePerHour: 3_600_000, flapDowntimeMs: [5, 10] });
    await f.start();
    await f.waitUntil(all(f), 5_000);
    await f.waitUntil((stats) => stats.flaps >= 3, 3_000);
    expect(broker.messages.filter((m) => m.will).length).toBeGreaterThanOrEqual(3);
  });

  it('spreads connections over time at the configured rate', async () => {
    const f = fleet({ nodes: 40, connectRatePerSecond: 100 });
    const started = Date.now();
    await f.start();
    await f.waitUntil(all(f), 5_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('claims its share of nodes for a few end users through the secret-key flow', async () => {
    const f = fleet({ nodes: 40, claimShare: 0.5 });
    await f.start();
    await f.waitUntil(all(f), 5_000);
    const candidates = f.stats().claimCandidates;
    expect(candidates).toBeGreaterThan(10);
    await f.waitUntil((stats) => stats.claimed === candidates, 10_000);
    const endUsers = [...server.users.values()].filter((user) => !user.superAdmin);
    expect(endUsers).toHaveLength(endUserCount(candidates));
    for (const nodeId of f.nodeIds()) {
      const view = f.node(nodeId);
      const owner = server.nodes.get(nodeId)?.owner;
      if (!view?.claimCandidate) {
        expect(owner).toBeUndefined();
        continue;
      }
      expect(endUsers.find((user) => user.userId === owner)?.userName).toBe(view.claimedBy);
      const mapping = broker.messagesOf(nodeId).find((m) => m.suffix === 'user/mapping');
      expect(JSON.parse(mapping?.payload ?? '')).toMatchObject({ node_id: nodeId, user_id: owner });
    }
    await f.stop();
    const state = await loadFleetState(path.join(dir, 'fleet.json'));
    expect(state?.nodes.filter((node) => node.claimed_by)).toHaveLength(candidates);
    expect(state?.users).toHaveLength(endUsers.length);
  });

  it('claims later, without spending attempts, what the server refused as too many open requests', async () => {
    // More refusals than a node has attempts: only deferral, not failure, lets every claim land.
    server.mappingRefusals = 12;
    const f = fleet({ nodes: 12, claimShare: 1, claimRetryMs: 20 });
    await f.start();
    await f.waitUntil(all(f), 5_000);
    await f.waitUntil((stats) => stats.claimed === stats.claimCandidates, 10_000);
    expect(server.mappingRefusals).toBe(0);
    expect(f.stats().claimFailures).toBe(0);
    expect(logs.filter((line) => /Claiming skipped/.test(line))).toEqual([]);
  });

  it('goes on claiming the other nodes when the server no longer knows one', async () => {
    server.forgetNextMappedNode = true;
    const f = fleet({ nodes: 16, claimShare: 1, claimRetryMs: 20 });
    await f.start();
    await f.waitUntil(all(f), 5_000);
    const candidates = f.stats().claimCandidates;
    await f.waitUntil((stats) => stats.claimed === candidates - 1, 10_000);
    expect(f.stats().claimFailures).toBe(1);
    // Asked once for each node, the forgotten one included: it is not tried again.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.calls.filter((call) => call === 'PUT /v1/user/nodes/mapping')).toHaveLength(
      candidates,
    );
    expect(logs.filter((line) => /Claiming skipped/.test(line))).toEqual([]);
  });

  it('skips claiming with one clear line when the server cannot create end users', async () => {
    server.missing.add('POST /v1/admin/user2');
    const f = fleet({ nodes: 10, claimShare: 1 });
    await f.start();
    await f.waitUntil(all(f), 5_000);
    expect(logs.filter((line) => /^Claiming skipped: .*404/.test(line))).toHaveLength(1);
    expect(f.stats().claimed).toBe(0);
  });

  it('reuses the state file: no registration, no admin needed, sessions continue', async () => {
    const first = fleet({ nodes: 8, claimShare: 0.5 });
    await first.start();
    await first.waitUntil(all(first), 5_000);
    await first.waitUntil((stats) => stats.claimed === stats.claimCandidates, 5_000);
    await first.stop();
    const registrations = server.calls.filter((call) => call === 'POST /v1/admin/node_ids').length;

    const second = fleet({ nodes: 8, claimShare: 0.5, admin: undefined });
    await second.start();
    await second.waitUntil(all(second), 5_000);
    expect(server.calls.filter((call) => call === 'POST /v1/admin/node_ids')).toHaveLength(
      registrations,
    );
    expect(second.nodeIds()).toEqual(first.nodeIds());
    for (const nodeId of second.nodeIds()) expect(second.node(nodeId)?.session).toBe(2);
    expect(second.stats().claimed).toBe(first.stats().claimed);
    expect(logs.some((line) => line.startsWith('Reusing 8 registered node(s)'))).toBe(true);
  });

  it('registers only the nodes the state file lacks when the fleet grows', async () => {
    const first = fleet({ nodes: 5 });
    await first.start();
    await first.stop();
    const second = fleet({ nodes: 9 });
    await second.start();
    expect(second.nodeIds().slice(0, 5)).toEqual(first.nodeIds());
    expect(server.nodes.size).toBe(9);
  });

  it('stops cleanly: offline on the retained topic, DISCONNECT, state written', async () => {
    const f = fleet({ nodes: 6 });
    await f.start();
    await f.waitUntil(all(f), 5_000);
    await f.stop();
    expect(broker.clients.size).toBe(0);
    expect(f.stats().connected).toBe(0);
    for (const nodeId of f.nodeIds()) {
      expect(JSON.parse(broker.retained.get(`node/${nodeId}/connection`) ?? '')).toMatchObject({
        connected: false,
        session: 1,
      });
      expect(broker.messagesOf(nodeId).some((m) => m.will)).toBe(false);
    }
    const state = await loadFleetState(path.join(dir, 'fleet.json'));
    expect(state?.nodes.map((node) => node.session)).toEqual(f.nodeIds().map(() => 1));
  });

  it('explains a refused admin sign-in in one line', async () => {
    const f = fleet({ admin: { email: ADMIN.email, password: 'Wrong12345' } });
    const error = await f.start().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FleetSetupError);
    expect((error as Error).message).toBe(
      `The server refused the admin sign-in for ${ADMIN.email} (401: Incorrect user name or password).`,
    );
  });

  it('explains nodes that an earlier run without its state file registered', async () => {
    await fleet({ nodes: 3, statePath: undefined }).start();
    const error = await fleet({ nodes: 3, statePath: undefined })
      .start()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FleetSetupError);
    expect((error as Error).message).toMatch(/already knows these nodes.*--state file.*--seed/);
  });

  it('needs admin credentials only when something must be registered', async () => {
    const error = await fleet({ admin: undefined })
      .start()
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(
      /^10 node\(s\) need registering, but no admin credentials/,
    );
  });

  it('counts refused connects and says once what to do', async () => {
    const f = fleet({ nodes: 4 });
    await f.start();
    await f.waitUntil(all(f), 5_000);
    await f.stop();
    broker.passwords.clear();
    const again = fleet({ nodes: 4 });
    await again.start();
    await again.waitUntil((stats) => stats.refused === 4, 2_000);
    expect(again.stats().connected).toBe(0);
    expect(logs.filter((line) => line.includes('delete the --state file'))).toHaveLength(1);
  });
});
