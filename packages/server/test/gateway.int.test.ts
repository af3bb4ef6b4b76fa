import net from 'node:net';
import type { MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { brokerWorker, startBrokerThread } from '../src/gateway/broker-thread.js';
import { startEmbeddedBroker, type EmbeddedBroker } from '../src/gateway/embedded-broker.js';
import { NODE_PAYLOAD_LIMIT } from '../src/gateway/node-acl.js';
import { createLogger } from '../src/logger.js';
import {
  closedWithin,
  collectMessages,
  connectNode,
  endAll,
  sleep,
  subscribeCodes,
  tryConnect,
  waitUntil,
} from './helpers/mqtt-clients.js';
import { RecordingNodePort } from './helpers/mqtt-recording-port.js';

const A = 'A0A0A0000001';
const B = 'B0B0B0000002';
const PASSWORD_A = 'node-a-secret-6e0c1f';
const PASSWORD_B = 'node-b-secret-91d2aa';

const config = (nodeId: string) =>
  JSON.stringify({
    node_id: nodeId,
    info: { name: 'Washer', fw_version: '1.0.0', type: 'washer' },
  });

/** A params document of exactly `bytes` bytes. */
function paramsOfSize(bytes: number): string {
  const empty = JSON.stringify({ Washer: { Blob: '' } });
  return JSON.stringify({ Washer: { Blob: 'x'.repeat(bytes - empty.length) } });
}

// QUALITY S10 on the embedded broker, plus ingest, connectivity and cloud → node publishing.
// Both ways the server runs the embedded broker: on the calling thread, and in a worker thread of
// its own with the port's calls crossing between the threads (ADR 23, what `npm start` runs).
describe.each([
  ['on the calling thread', startEmbeddedBroker],
  ['in a worker thread', startBrokerThread],
])('embedded MQTT broker %s', (_where, startBroker) => {
  let port: RecordingNodePort;
  let broker: EmbeddedBroker;
  let url: string;
  const clients: MqttClient[] = [];

  const node = async (nodeId: string, password: string, options = {}) => {
    const client = await connectNode(url, nodeId, password, options);
    clients.push(client);
    return client;
  };

  /** Ensures everything the broker did before now has reached `client` (same connection order). */
  const barrier = async (client: MqttClient, nodeId: string, received: { payload: string }[]) => {
    const marker = `barrier-${Math.random()}`;
    await broker.publishToNode(nodeId, 'params/remote', marker);
    await waitUntil(() => received.some((m) => m.payload === marker), 5000, 'the barrier');
    expect(client.connected).toBe(true);
  };

  beforeEach(async () => {
    port = new RecordingNodePort().addNode(A, PASSWORD_A).addNode(B, PASSWORD_B);
    broker = await startBroker(0, '127.0.0.1', port, createLogger('silent'));
    url = `mqtt://127.0.0.1:${broker.port}`;
  });
  afterEach(async () => {
    await endAll(clients.splice(0));
    await broker.close();
  });

  describe('listening', () => {
    it('listens on a free port when asked for port 0', () => {
      expect(broker.port).toBeGreaterThan(0);
    });

    it('reports a busy port to the caller instead of crashing', async () => {
      await expect(
        startBroker(broker.port, '127.0.0.1', port, createLogger('silent')),
      ).rejects.toMatchObject({ code: 'EADDRINUSE' });
    });
  });

  describe('sign-in', () => {
    it('accepts a node whose client id and user name are its node id, with its password', async () => {
      const client = await node(A, PASSWORD_A);
      expect(client.connected).toBe(true);
      const connected = await port.waitFor('connected', A);
      expect(connected.session).toBe(1);
      expect(port.isConnected(A)).toBe(true);
    });

    it('refuses a wrong password, an unknown node and an anonymous client with "bad user name or password"', async () => {
      for (const options of [
        { clientId: A, username: A, password: 'guess' },
        { clientId: 'C0C0C0000003', username: 'C0C0C0000003', password: PASSWORD_A },
        { clientId: A },
        { clientId: A, username: A },
      ]) {
        expect(await tryConnect(url, options)).toEqual({ connected: false, code: 4 });
      }
      expect(port.calls).toEqual([]);
    });

    it('refuses a client id that is not the user name with "not authorized", leaving that node alone', async () => {
      const victim = await node(B, PASSWORD_B);
      expect(await tryConnect(url, { clientId: B, username: A, password: PASSWORD_A })).toEqual({
        connected: false,
        code: 5,
      });
      expect(await tryConnect(url, { clientId: '', username: A, password: PASSWORD_A })).toEqual({
        connected: false,
        code: 5,
      });
      expect(await closedWithin(victim, 300)).toBe(false);
      expect(port.callsOf('disconnected', B)).toEqual([]);
      expect(port.callsOf('connected', A)).toEqual([]);
    });

    it('refuses MQTT 5 clients (Aedes speaks MQTT 3.1.1)', async () => {
      const outcome = await tryConnect(url, {
        clientId: A,
        username: A,
        password: PASSWORD_A,
        protocolVersion: 5,
      });
      expect(outcome.connected).toBe(false);
    });

    it('refuses a Last Will outside the node’s own topics with "not authorized"', async () => {
      for (const topic of [
        `node/${B}/params/local`,
        `$aws/rules/esp_set_params/node/${B}/params/local`,
        '$SYS/broker/clients',
        'alerts',
      ]) {
        const outcome = await tryConnect(url, {
          clientId: A,
          username: A,
          password: PASSWORD_A,
          will: { topic, payload: Buffer.from('{}'), qos: 1, retain: false },
        });
        expect(outcome, topic).toEqual({ connected: false, code: 5 });
      }
      expect(port.calls).toEqual([]);
    });

    it('delivers a Last Will on the node’s own topic to the port, and the disconnect', async () => {
      const client = await node(A, PASSWORD_A, {
        will: {
          topic: `node/${A}/params/local`,
          payload: Buffer.from(JSON.stringify({ Connectivity: { Connected: false } })),
          qos: 1,
          retain: false,
        },
      });
      await port.waitFor('connected', A);
      client.stream.destroy();
      const params = await port.waitFor('params', A);
      expect(params).toMatchObject({ params: { Connectivity: { Connected: false } }, init: false });
      await port.waitFor('disconnected', A);
      expect(port.callsOf('disconnected', A).map((c) => c.session)).toEqual([1]);
      expect(port.isConnected(A)).toBe(false);
    });
  });

  describe('publish ACL', () => {
    for (const topic of [`node/${B}/config`, `$aws/rules/esp_node_config/node/${B}/config`]) {
      it(`never delivers a publish to another node’s topic (${topic}) and ends that connection`, async () => {
        const victim = await node(B, PASSWORD_B);
        const received = collectMessages(victim);
        await victim.subscribeAsync(`node/${B}/#`, { qos: 1 });
        const attacker = await node(A, PASSWORD_A);
        attacker.publish(topic, config(B), { qos: 1 });
        expect(await closedWithin(attacker, 3000)).toBe(true);
        await barrier(victim, B, received);
        expect(received.filter((m) => !m.payload.startsWith('barrier-'))).toEqual([]);
        expect(port.calls.filter((c) => c.kind === 'config')).toEqual([]);
      });
    }

    it('refuses publishes to $SYS and to topics outside node/', async () => {
      for (const topic of ['$SYS/broker/uptime', 'alerts/all', `${A}/config`]) {
        const client = await node(A, PASSWORD_A);
        client.publish(topic, config(A), { qos: 1 });
        expect(await closedWithin(client, 3000), topic).toBe(true);
      }
      expect(port.calls.filter((c) => c.kind === 'config')).toEqual([]);
    });

    it('accepts the basic-ingest spelling of its own topic and rewrites it to node/<id>/<suffix>', async () => {
      const client = await node(A, PASSWORD_A);
      const received = collectMessages(client);
      await client.subscribeAsync(`node/${A}/config`, { qos: 1 });
      await client.publishAsync(`$aws/rules/esp_node_config/node/${A}/config`, config(A), {
        qos: 1,
      });
      const call = await port.waitFor('config', A);
      expect(call.config.info.name).toBe('Washer');
      await waitUntil(() => received.length > 0);
      expect(received[0]?.topic).toBe(`node/${A}/config`);
    });

    it('refuses a basic-ingest topic whose rule does not match the suffix', async () => {
      const client = await node(A, PASSWORD_A);
      client.publish(`$aws/rules/esp_set_params/node/${A}/config`, config(A), { qos: 1 });
      expect(await closedWithin(client, 3000)).toBe(true);
      const again = await node(A, PASSWORD_A);
      await again.publishAsync(`node/${A}/params/local`, '{"Washer":{"Power":true}}', { qos: 1 });
      await port.waitFor('params', A);
      expect(port.callsOf('config', A)).toEqual([]);
    });

    it('accepts a payload of exactly 64 KiB and refuses one byte more', async () => {
      const client = await node(A, PASSWORD_A);
      const exact = paramsOfSize(NODE_PAYLOAD_LIMIT);
      expect(Buffer.byteLength(exact)).toBe(NODE_PAYLOAD_LIMIT);
      await client.publishAsync(`node/${A}/params/local`, exact, { qos: 1 });
      await port.waitFor('params', A);

      const second = await node(A, PASSWORD_A);
      second.publish(`node/${A}/params/local`, paramsOfSize(NODE_PAYLOAD_LIMIT + 1), { qos: 1 });
      expect(await closedWithin(second, 3000)).toBe(true);
      expect(port.callsOf('params', A)).toHaveLength(1);
    });

    it('ends a connection whose packet is far over the limit, before it is buffered', async () => {
      const client = await node(A, PASSWORD_A);
      client.publish(`node/${A}/params/local`, paramsOfSize(4 * 1024 * 1024), { qos: 1 });
      expect(await closedWithin(client, 3000)).toBe(true);
      expect(port.callsOf('params', A)).toEqual([]);
    });

    it('ends a connection as soon as a packet header announces more than the limit', async () => {
      // Before CONNECT, a raw socket announcing a 10 MB packet: the broker must not wait for it.
      const socket = net.connect(broker.port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      const closed = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 3000);
        socket.once('close', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      socket.on('error', () => undefined);
      // CONNECT fixed header, remaining length 10,000,000 (varint 0x80 0xAD 0xE2 0x04), no body.
      socket.write(Buffer.from([0x10, 0x80, 0xad, 0xe2, 0x04]));
      expect(await closed).toBe(true);
    });
  });

  describe('subscribe ACL', () => {
    it('grants its own filters and refuses every other filter of one SUBSCRIBE, filter by filter', async () => {
      const client = await node(A, PASSWORD_A);
      const other = await node(B, PASSWORD_B);
      const received = collectMessages(client);
      const filters = [
        `node/${A}/params/remote`,
        `node/${B}/params/remote`,
        '#',
        `node/+/params/remote`,
        'node/#',
        '$SYS/#',
        `+/${A}/params/remote`,
        `$share/group/node/${A}/params/remote`,
        `node/${A}`,
        `node/${A}/#`,
      ];
      const codes = await subscribeCodes(client, filters);
      expect(filters.map((filter, index) => [filter, codes[index]])).toEqual([
        [`node/${A}/params/remote`, 1],
        [`node/${B}/params/remote`, 0x80],
        ['#', 0x80],
        [`node/+/params/remote`, 0x80],
        ['node/#', 0x80],
        ['$SYS/#', 0x80],
        [`+/${A}/params/remote`, 0x80],
        [`$share/group/node/${A}/params/remote`, 0x80],
        [`node/${A}`, 0x80],
        [`node/${A}/#`, 1],
      ]);
      await other.publishAsync(`node/${B}/params/local`, '{"Oven":{"Power":true}}', { qos: 1 });
      await broker.publishToNode(B, 'params/remote', { Oven: { Power: false } });
      await broker.publishToNode(A, 'params/remote', { Washer: { Power: true } });
      await waitUntil(() => received.length > 0);
      await sleep(100);
      expect(received.every((m) => m.topic.startsWith(`node/${A}/`))).toBe(true);
      expect(received.some((m) => m.payload.includes('Oven'))).toBe(false);
    });
  });

  describe('ingest', () => {
    it('hands every node message type to the port, parsed', async () => {
      const client = await node(A, PASSWORD_A);
      const publish = (suffix: string, payload: unknown) =>
        client.publishAsync(`node/${A}/${suffix}`, JSON.stringify(payload), { qos: 1 });
      await client.publishAsync(`node/${A}/config`, config(A), { qos: 1 });
      await publish('params/local/init', { Washer: { Power: false, Program: 'eco' } });
      await publish('params/local', { Washer: { Power: true } });
      await publish('alert', { 'esp.alert.str': 'Door open' });
      await publish('alert', { Washer: { Fault: 'E21' } });
      await publish('user/mapping', { node_id: A, user_id: 'u-1', secret_key: 'k-1' });
      await client.publishAsync(
        `$aws/rules/esp_init_params/node/${A}/params/local/init`,
        '{"W":{"P":1}}',
        {
          qos: 1,
        },
      );
      await waitUntil(() => port.calls.length >= 8);
      expect(port.calls.slice(1).map(({ at: _at, ...call }) => call)).toEqual([
        {
          kind: 'config',
          nodeId: A,
          config: { node_id: A, info: { name: 'Washer', fw_version: '1.0.0', type: 'washer' } },
        },
        {
          kind: 'params',
          nodeId: A,
          params: { Washer: { Power: false, Program: 'eco' } },
          init: true,
        },
        { kind: 'params', nodeId: A, params: { Washer: { Power: true } }, init: false },
        { kind: 'alert', nodeId: A, alert: { 'esp.alert.str': 'Door open' } },
        { kind: 'alert', nodeId: A, alert: { Washer: { Fault: 'E21' } } },
        {
          kind: 'mapping',
          nodeId: A,
          mapping: { node_id: A, user_id: 'u-1', secret_key: 'k-1' },
        },
        { kind: 'params', nodeId: A, params: { W: { P: 1 } }, init: true },
      ]);
    });

    it('drops bad JSON, payloads that do not match and payloads naming another node, and keeps the connection', async () => {
      const client = await node(A, PASSWORD_A);
      const bad: Array<[string, string]> = [
        ['config', '{not json'],
        ['config', JSON.stringify({ info: {} })],
        ['config', config(B)],
        ['params/local', '[1,2,3]'],
        ['params/local', '"text"'],
        ['alert', '{"esp.alert.str": 5}'],
        ['user/mapping', JSON.stringify({ node_id: B, user_id: 'u', secret_key: 'k' })],
        ['connection', '{"connected":false}'],
        ['otafetch', '{"fw_version":"1.0.0"}'],
      ];
      for (const [suffix, payload] of bad) {
        await client.publishAsync(`node/${A}/${suffix}`, payload, { qos: 1 });
      }
      await client.publishAsync(`node/${A}/params/local`, '{"Washer":{"Power":true}}', { qos: 1 });
      await port.waitFor('params', A);
      expect(client.connected).toBe(true);
      expect(port.calls.map((c) => c.kind)).toEqual(['connected', 'params']);
      expect(port.isConnected(A)).toBe(true);
    });

    it('acknowledges a QoS 1 publish only once the port says its batch is durable (ADR 31)', async () => {
      const held = new RecordingNodePort().addNode(A, PASSWORD_A);
      const heldBroker = await startBroker(0, '127.0.0.1', held, createLogger('silent'));
      try {
        const client = await connectNode(`mqtt://127.0.0.1:${heldBroker.port}`, A, PASSWORD_A);
        clients.push(client);
        held.holdCommits();
        let acked = false;
        const ack = client
          .publishAsync(`node/${A}/config`, config(A), { qos: 1 })
          .then((packet) => {
            acked = true;
            return packet;
          });
        // The message reached the port, but its batch has not committed: no PUBACK yet.
        await held.waitFor('config', A);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(acked).toBe(false);
        held.commit();
        expect((await ack)?.cmd).toBe('publish');
        expect(held.callsOf('config', A)).toHaveLength(1);
      } finally {
        await heldBroker.close();
      }
    });
  });

  describe('connectivity', () => {
    it('reports a connect and a disconnect with the session of that connection', async () => {
      const client = await node(A, PASSWORD_A);
      await port.waitFor('connected', A);
      await client.endAsync();
      const disconnected = await port.waitFor('disconnected', A);
      expect(disconnected.session).toBe(1);
      expect(port.isConnected(A)).toBe(false);
    });

    it('lets a second connection with the same id take over; the old disconnect cannot undo it', async () => {
      const first = await node(A, PASSWORD_A);
      await port.waitFor('connected', A);
      const second = await node(A, PASSWORD_A);
      expect(await closedWithin(first, 3000)).toBe(true);
      await port.waitFor('connected', A, (c) => c.session === 2);
      const disconnects = port.callsOf('disconnected', A);
      // The old connection's disconnect carries the old session, so it is stale whenever it lands.
      expect(disconnects.map((c) => c.session)).toEqual([1]);
      expect(port.callsOf('connected', A).map((c) => c.session)).toEqual([1, 2]);
      expect(second.connected).toBe(true);
      expect(port.isConnected(A)).toBe(true);
    });

    it('numbers sessions per node', async () => {
      const a1 = await node(A, PASSWORD_A);
      await node(B, PASSWORD_B);
      await a1.endAsync();
      await port.waitFor('disconnected', A);
      await node(A, PASSWORD_A);
      await port.waitFor('connected', A, (c) => c.session === 2);
      expect(port.callsOf('connected', B).map((c) => c.session)).toEqual([1]);
    });
  });

  describe('cloud → node', () => {
    it('publishToNode delivers with QoS 1 to the node’s subscription', async () => {
      const client = await node(A, PASSWORD_A);
      await client.subscribeAsync(`node/${A}/params/remote`, { qos: 1 });
      const message = new Promise<{ topic: string; payload: string; qos: number }>((resolve) =>
        client.once('message', (topic, payload, packet) =>
          resolve({ topic, payload: payload.toString(), qos: packet.qos }),
        ),
      );
      await broker.publishToNode(A, 'params/remote', { Washer: { Power: true } });
      expect(await message).toEqual({
        topic: `node/${A}/params/remote`,
        payload: '{"Washer":{"Power":true}}',
        qos: 1,
      });
      // The broker's own publish is no node message: nothing reaches the port.
      expect(port.calls.map((c) => c.kind)).toEqual(['connected']);
    });

    it('publishToNode rejects a malformed node id or suffix', async () => {
      await expect(broker.publishToNode('node/+', 'params/remote', {})).rejects.toThrow();
      await expect(broker.publishToNode(A, '#', {})).rejects.toThrow();
    });

    it('close() disconnects every node, reports them disconnected and frees the port', async () => {
      const a = await node(A, PASSWORD_A);
      const b = await node(B, PASSWORD_B);
      await broker.close();
      expect(await closedWithin(a, 3000)).toBe(true);
      expect(await closedWithin(b, 3000)).toBe(true);
      expect(port.isConnected(A)).toBe(false);
      expect(port.isConnected(B)).toBe(false);
      expect(await tryConnect(url, { clientId: A, username: A, password: PASSWORD_A })).toEqual({
        connected: false,
      });
    });
  });
});

describe('the broker thread', () => {
  it('reports a thread that dies while running, once, and fails what was asked of it', async () => {
    const port = new RecordingNodePort().addNode(A, PASSWORD_A);
    const worker = brokerWorker({ logLevel: 'silent' });
    const failures: Error[] = [];
    const broker = await startBrokerThread(0, '127.0.0.1', port, createLogger('silent'), {
      worker,
      onFailure: (error) => failures.push(error),
    });
    const client = await connectNode(`mqtt://127.0.0.1:${broker.port}`, A, PASSWORD_A);
    try {
      await port.waitFor('connected', A);
      await worker.terminate();
      await waitUntil(() => failures.length > 0, 5000, 'the failure report');
      expect(failures.map((error) => error.message)).toEqual([
        'the MQTT broker thread exited with code 1',
      ]);
      expect(await closedWithin(client, 3000)).toBe(true);
      await expect(broker.publishToNode(A, 'params/remote', 'x')).rejects.toThrow(
        'the MQTT broker thread exited',
      );
      await broker.close();
      expect(failures).toHaveLength(1);
    } finally {
      await endAll([client]);
    }
  });

  it('does not report a failure when it is closed', async () => {
    const port = new RecordingNodePort().addNode(A, PASSWORD_A);
    const failures: Error[] = [];
    const broker = await startBrokerThread(0, '127.0.0.1', port, createLogger('silent'), {
      onFailure: (error) => failures.push(error),
    });
    await broker.close();
    await sleep(100);
    expect(failures).toEqual([]);
  });
});
