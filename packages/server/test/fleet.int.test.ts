import type { NodeInfo } from '@fleetdeck/contract';
import { basicIngestTopic, nodeTopic } from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrokerThread } from '../src/gateway/broker-thread.js';
import { startEmbeddedBroker } from '../src/gateway/embedded-broker.js';
import { startExternalGateway } from '../src/gateway/external-gateway.js';
import type { NodeGateway } from '../src/gateway/node-gateway.js';
import { createLogger } from '../src/logger.js';
import { connectNode, sleep } from './helpers/mqtt-clients.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

/** Polls the fleet API until `check` holds for the node (ingest is batched). */
async function waitForNode(
  server: TestServer,
  token: string,
  nodeId: string,
  check: (node: NodeInfo) => boolean,
): Promise<NodeInfo> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const response = await server.app.inject({
      method: 'GET',
      url: `/v1/admin/nodes?node_id=${nodeId}&node_details=true`,
      headers: { authorization: token },
    });
    const node = response.json<{ node_info: NodeInfo[] }>().node_info[0];
    if (node && check(node)) return node;
    if (Date.now() > deadline)
      throw new Error(`node ${nodeId} never matched: ${JSON.stringify(node)}`);
    await sleep(50);
  }
}

async function register(server: TestServer, token: string, nodeId: string): Promise<string> {
  const response = await server.app.inject({
    method: 'POST',
    url: '/v1/admin/node_ids',
    headers: { authorization: token },
    payload: {
      nodes: [
        {
          node_id: nodeId,
          type: 'Washing Machine',
          model: 'FD-WM-7',
          fw_version: '3.0.0',
          tags: ['location:Delhi'],
        },
      ],
    },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ nodes: Array<{ mqtt_password: string }> }>().nodes[0]?.mqtt_password ?? '';
}

// The embedded broker on the calling thread and in its own worker thread (ADR 23, `npm start`).
const EMBEDDED = DIALECTS.flatMap((dialect) => [
  ['on the calling thread', dialect, startEmbeddedBroker] as const,
  ['in a worker thread', dialect, startBrokerThread] as const,
]);

describe.each(EMBEDDED)(
  'a node through the embedded broker %s into the fleet API on %s',
  (_where, dialect, startBroker) => {
    let server: TestServer;
    let broker: NodeGateway & { port: number };
    let token: string;

    beforeAll(async () => {
      server = await createTestServer(dialect);
      broker = await startBroker(0, '127.0.0.1', server.services.ingest, createLogger('silent'));
      token = (await apiLogin(server.app)).accesstoken;
    });
    afterAll(async () => {
      await broker.close();
      await server.services.ingest.flush();
      await server.close();
    });

    it('registers, connects with its own credentials, reports config and params, and goes offline', async () => {
      const password = await register(server, token, 'WM0001');
      const url = `mqtt://127.0.0.1:${broker.port}`;
      const node = await connectNode(url, 'WM0001', password);
      await waitForNode(server, token, 'WM0001', (n) => n.node_status === 'online');

      const config = {
        node_id: 'WM0001',
        config_version: '2020-03-20',
        info: { name: 'Laundry', fw_version: '3.1.0', type: 'Washing Machine', model: 'FD-WM-7' },
        devices: [],
      };
      await node.publishAsync(basicIngestTopic('WM0001', 'config') ?? '', JSON.stringify(config), {
        qos: 1,
      });
      await node.publishAsync(
        nodeTopic('WM0001', 'params/local/init'),
        JSON.stringify({ Washer: { Power: true, Program: 'Cotton' } }),
        { qos: 1 },
      );
      await node.publishAsync(
        nodeTopic('WM0001', 'params/local'),
        JSON.stringify({ Washer: { Program: 'Wool' } }),
        { qos: 1 },
      );
      const updated = await waitForNode(
        server,
        token,
        'WM0001',
        (n) => n.fw_version === '3.1.0' && JSON.stringify(n.params).includes('Wool'),
      );
      expect(updated).toMatchObject({
        name: 'Laundry',
        params: { Washer: { Power: true, Program: 'Wool' } },
      });

      await node.endAsync();
      await waitForNode(
        server,
        token,
        'WM0001',
        (n) => n.node_status === 'offline' && n.status.connectivity.connected === false,
      );
    });

    it('sends the QoS 1 PUBACK only after the message is committed (R1, B1)', async () => {
      const password = await register(server, token, 'WM0003');
      const node = await connectNode(`mqtt://127.0.0.1:${broker.port}`, 'WM0003', password);
      for (let i = 0; i < 5; i++) {
        await node.publishAsync(
          nodeTopic('WM0003', 'params/local'),
          JSON.stringify({ Washer: { Cycle: i } }),
          { qos: 1 },
        );
        // No waiting: once the PUBACK is here, the row must already hold the value.
        const row = await server.database.db
          .selectFrom('nodes')
          .select('params')
          .where('node_id', '=', 'WM0003')
          .executeTakeFirstOrThrow();
        expect(JSON.parse(row.params ?? '{}')).toMatchObject({ Washer: { Cycle: i } });
      }
      await node.endAsync();
    });

    it('refuses a registered node with the wrong password and an unregistered id', async () => {
      await register(server, token, 'WM0002');
      const url = `mqtt://127.0.0.1:${broker.port}`;
      await expect(connectNode(url, 'WM0002', 'not-the-password')).rejects.toThrow();
      await expect(connectNode(url, 'UNKNOWN', 'anything')).rejects.toThrow();
    });
  },
);

describe.runIf(process.env.TEST_MQTT_URL)(
  'a node through an external Mosquitto into the fleet API',
  () => {
    let server: TestServer;
    let gateway: NodeGateway;
    let token: string;
    const mqttUrl = process.env.TEST_MQTT_URL ?? '';

    beforeAll(async () => {
      server = await createTestServer('sqlite');
      gateway = await startExternalGateway(
        mqttUrl,
        server.services.ingest,
        createLogger('silent'),
        { clientId: `fleetdeck-test-${process.pid}` },
      );
      token = (await apiLogin(server.app)).accesstoken;
    });
    afterAll(async () => {
      await gateway.close();
      await server.services.ingest.flush();
      await server.close();
    });

    it('turns birth and Last Will on node/<id>/connection into online and offline, and ingests config', async () => {
      const nodeId = `EXT${process.pid}`;
      await register(server, token, nodeId);
      const topic = nodeTopic(nodeId, 'connection');
      const node = await connectNode(mqttUrl, nodeId, 'ignored-by-anonymous-broker', {
        will: {
          topic,
          payload: Buffer.from(
            JSON.stringify({ connected: false, timestamp: Date.now(), session: 7 }),
          ),
          qos: 1,
          retain: true,
        },
      });
      await node.publishAsync(
        topic,
        JSON.stringify({ connected: true, timestamp: Date.now(), session: 7 }),
        { qos: 1, retain: true },
      );
      await waitForNode(server, token, nodeId, (n) => n.node_status === 'online');
      await node.publishAsync(
        nodeTopic(nodeId, 'config'),
        JSON.stringify({ node_id: nodeId, info: { fw_version: '9.9.9' } }),
        { qos: 1 },
      );
      await waitForNode(server, token, nodeId, (n) => n.fw_version === '9.9.9');
      // An abrupt drop makes the broker publish the will.
      node.stream.destroy();
      await waitForNode(server, token, nodeId, (n) => n.node_status === 'offline');
      // Clean up the retained messages on the shared broker.
      const cleaner = await connectNode(mqttUrl, `${nodeId}-clean`, 'x');
      await cleaner.publishAsync(topic, '', { qos: 1, retain: true });
      await cleaner.endAsync();
    });
  },
);
