import { createHash, createPublicKey, verify } from 'node:crypto';
import net from 'node:net';
import {
  OtaUrlPayloadSchema,
  basicIngestTopic,
  nodeTopic,
  otaManifestText,
  type JobList,
  type OtaUrlPayload,
} from '@fleetdeck/contract';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedBroker } from '../src/gateway/embedded-broker.js';
import { startExternalGateway } from '../src/gateway/external-gateway.js';
import type { NodeGateway } from '../src/gateway/node-gateway.js';
import { createLogger } from '../src/logger.js';
import { connectNode, endAll, sleep } from './helpers/mqtt-clients.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * A minimal firmware: subscribes to its otaurl, downloads the offered image over real HTTP,
 * checks SHA-256 and the manifest signature, and reports on otastatus (basic-ingest spelling).
 */
function firmware(
  client: MqttClient,
  nodeId: string,
  publicKeyPem: string,
): { offers: OtaUrlPayload[] } {
  const state = { offers: [] as OtaUrlPayload[] };
  const publicKey = createPublicKey(publicKeyPem);
  client.on('message', (topic, payload) => {
    if (topic !== nodeTopic(nodeId, 'otaurl')) return;
    const offer = OtaUrlPayloadSchema.parse(JSON.parse(payload.toString('utf8')));
    state.offers.push(offer);
    const status = (status: string, info: string) =>
      client.publishAsync(
        basicIngestTopic(nodeId, 'otastatus') ?? '',
        JSON.stringify({
          ota_job_id: offer.ota_job_id,
          status,
          additional_info: info,
          ts: Math.floor(Date.now() / 1000),
        }),
        { qos: 1 },
      );
    void (async () => {
      await status('in-progress', 'Downloading Firmware Image');
      const response = await fetch(offer.url);
      const bytes = Buffer.from(await response.arrayBuffer());
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const signed = verify(
        null,
        Buffer.from(
          otaManifestText({
            ota_image_id: offer.ota_image_id,
            type: offer.type,
            model: offer.model,
            fw_version: offer.fw_version,
            file_size: bytes.length,
            sha256,
          }),
        ),
        publicKey,
        Buffer.from(offer.signature, 'base64'),
      );
      if (sha256 !== offer.sha256 || !signed) await status('failed', 'Image verification failed');
      else await status('success', 'OTA Upgrade finished and verified successfully');
    })();
  });
  return state;
}

async function waitForJob(
  server: TestServer,
  token: string,
  jobId: string,
  check: (job: JobList['otaJobs'][number]) => boolean,
) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const response = await server.app.inject({
      method: 'GET',
      url: `/v1/admin/otajob?ota_job_id=${jobId}`,
      headers: { authorization: token },
    });
    const job = response.json<JobList>().otaJobs[0];
    if (job && check(job)) return job;
    if (Date.now() > deadline) throw new Error(`job never matched: ${JSON.stringify(job)}`);
    await sleep(50);
  }
}

/** Registers nodes and an image, connects the nodes as firmware, runs a force-pushed job. */
async function runRollout(
  server: TestServer,
  token: string,
  mqttUrl: string,
  prefix: string,
  options: { anonymous?: boolean } = {},
) {
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    server.app.inject({
      method,
      url,
      headers: { authorization: token },
      ...(payload ? { payload } : {}),
    });
  const ids = [1, 2, 3].map((i) => `${prefix}${i}`);
  const registered = await call('POST', '/v1/admin/node_ids', {
    nodes: ids.map((id) => ({
      node_id: id,
      type: 'Washing Machine',
      model: 'FD-WM-7',
      tags: ['location:Pune'],
    })),
  });
  expect(registered.statusCode, registered.body).toBe(200);
  const passwords = registered.json<{ nodes: Array<{ node_id: string; mqtt_password: string }> }>()
    .nodes;
  const key = (await call('GET', '/v1/otaimage/signing_key')).json<{ public_key: string }>()
    .public_key;
  const image = Buffer.alloc(300_000, 7);
  const created = await call('POST', '/v1/admin/otaimage', {
    image_name: `${prefix} washer 4.0`,
    type: 'Washing Machine',
    model: 'FD-WM-7',
    fw_version: '4.0.0',
    base64_fwimage: image.toString('base64'),
  });
  expect(created.statusCode, created.body).toBe(200);
  const clients: MqttClient[] = [];
  const firmwares = [];
  for (const { node_id: nodeId, mqtt_password: password } of passwords) {
    const client = await connectNode(mqttUrl, nodeId, options.anonymous ? 'anonymous' : password);
    await client.subscribeAsync(nodeTopic(nodeId, 'otaurl'), { qos: 1 });
    clients.push(client);
    firmwares.push(firmware(client, nodeId, key));
  }
  return {
    ids,
    clients,
    firmwares,
    imageId: created.json<{ ota_image_id: string }>().ota_image_id,
    call,
  };
}

describe.each(DIALECTS)('an OTA rollout through the embedded broker on %s', (dialect) => {
  let server: TestServer;
  let broker: NodeGateway & { port: number };
  let token: string;

  beforeAll(async () => {
    const port = await freePort();
    server = await createTestServer(dialect, { env: { PUBLIC_URL: `http://127.0.0.1:${port}` } });
    await server.app.listen({ port, host: '127.0.0.1' });
    broker = await startEmbeddedBroker(
      0,
      '127.0.0.1',
      server.services.ingest,
      createLogger('silent'),
    );
    await server.services.rollout.attachGateway(broker);
    token = (await apiLogin(server.app)).accesstoken;
  });
  afterAll(async () => {
    await server.services.rollout.stop();
    await broker.close();
    await server.services.ingest.flush();
    await server.close();
  });

  it('offers, downloads over HTTP, verifies, reports and finishes with the right counts', async () => {
    const { ids, clients, firmwares, imageId, call } = await runRollout(
      server,
      token,
      `mqtt://127.0.0.1:${broker.port}`,
      'OTAE',
    );
    await sleep(200); // connectivity batches commit
    const created = await call('POST', '/v1/admin/otajob?force_push=true', {
      ota_job_name: 'washers to 4.0',
      ota_image_id: imageId,
      nodes: ids,
    });
    expect(created.statusCode, created.body).toBe(200);
    const jobId = created.json<{ ota_job_id: string }>().ota_job_id;
    const job = await waitForJob(server, token, jobId, (j) => j.status === 'finished');
    expect(job.summary).toMatchObject({ total: 3, success: 3, failed: 0, in_progress: 0 });
    expect(job.completed_count).toBe(3);
    for (const fw of firmwares) expect(fw.offers.map((o) => o.ota_job_id)).toEqual([jobId]);
    await endAll(clients);
  });
});

describe.runIf(process.env.TEST_MQTT_URL)('an OTA rollout through an external Mosquitto', () => {
  let server: TestServer;
  let gateway: NodeGateway;
  let token: string;
  const mqttUrl = process.env.TEST_MQTT_URL ?? '';

  beforeAll(async () => {
    const port = await freePort();
    server = await createTestServer('sqlite', { env: { PUBLIC_URL: `http://127.0.0.1:${port}` } });
    await server.app.listen({ port, host: '127.0.0.1' });
    gateway = await startExternalGateway(mqttUrl, server.services.ingest, createLogger('silent'), {
      clientId: `fleetdeck-ota-test-${process.pid}`,
    });
    await server.services.rollout.attachGateway(gateway);
    token = (await apiLogin(server.app)).accesstoken;
  });
  afterAll(async () => {
    await server.services.rollout.stop();
    await gateway.close();
    await server.services.ingest.flush();
    await server.close();
  });

  it('delivers offers to nodes and takes their otafetch and otastatus through the broker', async () => {
    const prefix = `OTAX${process.pid}N`;
    const { ids, clients, firmwares, imageId, call } = await runRollout(
      server,
      token,
      mqttUrl,
      prefix,
      {
        anonymous: true,
      },
    );
    const created = await call('POST', '/v1/admin/otajob', {
      ota_job_name: 'external rollout',
      ota_image_id: imageId,
      nodes: ids,
    });
    const jobId = created.json<{ ota_job_id: string }>().ota_job_id;
    // Not force-pushed: each node asks, as firmware does at boot.
    for (const [i, client] of clients.entries())
      await client.publishAsync(
        nodeTopic(ids[i] ?? '', 'otafetch'),
        JSON.stringify({ node_id: ids[i], fw_version: '3.0.0' }),
        { qos: 1 },
      );
    const job = await waitForJob(server, token, jobId, (j) => j.status === 'finished');
    expect(job.summary).toMatchObject({ total: 3, success: 3 });
    for (const fw of firmwares) expect(fw.offers.length).toBe(1);
    await endAll(clients);
  });
});
