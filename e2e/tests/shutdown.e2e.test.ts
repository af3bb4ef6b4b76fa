import { createHash } from 'node:crypto';
import http from 'node:http';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiToken, startServer, type RunningServer } from '../helpers/fleetdeck-server.js';

// QUALITY.md R6: graceful shutdown on SIGTERM. In-flight requests finish, broker clients are told,
// the database is closed, and the process exits (0) within 25 s; nothing admitted fails.

/** Larger than the loopback socket buffers, so its download is still under way at SIGTERM. */
const IMAGE_BYTES = 24 * 1024 * 1024;
const image = Buffer.alloc(IMAGE_BYTES);
for (let i = 0; i < IMAGE_BYTES; i += 4) image.writeUInt32LE((i * 2_654_435_761) >>> 0, i);

describe('SIGTERM with a download in flight and a node connected (R6)', () => {
  let server: RunningServer;
  let token: string;

  beforeAll(async () => {
    server = await startServer();
    token = await apiToken(server.url);
  });
  afterAll(async () => {
    await server.stop();
  });

  const api = async <T>(method: string, path: string, body?: object): Promise<T> => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: token, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  };

  it('finishes the download, closes the node connection and exits 0 within 25 s', async () => {
    const created = await api<{ ota_image_id: string }>('POST', '/v1/admin/otaimage', {
      image_name: 'Shutdown test',
      type: 'Refrigerator',
      fw_version: '1.2.3',
      base64_fwimage: image.toString('base64'),
    });
    const listed = await api<{ ota_images: Array<{ image_url: string }> }>(
      'GET',
      `/v1/admin/otaimage?ota_image_id=${created.ota_image_id}`,
    );
    const imageUrl = listed.ota_images[0]!.image_url;

    const registered = await api<{ nodes: Array<{ node_id: string; mqtt_password: string }> }>(
      'POST',
      '/v1/admin/node_ids',
      { nodes: [{ type: 'Refrigerator', model: 'FD-RF-300', tags: ['location:Pune'] }] },
    );
    const node = registered.nodes[0]!;
    const mqttPort = /embedded broker on port (\d+)/.exec(server.output())?.[1];
    expect(mqttPort, server.output()).toBeDefined();
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
      clientId: node.node_id,
      username: node.node_id,
      password: node.mqtt_password,
      reconnectPeriod: 0,
    });
    const nodeClosed = new Promise<void>((resolve) => client.once('close', resolve));

    // The download starts, its first bytes arrive, and the reader stops reading.
    const hash = createHash('sha256');
    let received = 0;
    const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(imageUrl, resolve).once('error', reject),
    );
    expect(response.statusCode).toBe(200);
    const firstChunk = await new Promise<Buffer>((resolve) => response.once('data', resolve));
    response.pause();
    hash.update(firstChunk);
    received += firstChunk.length;
    expect(received).toBeLessThan(IMAGE_BYTES);

    const signalled = Date.now();
    process.kill(server.pid, 'SIGTERM');
    // Stopped admitting: a new connection is refused while the download is still open.
    await expect
      .poll(
        () =>
          fetch(`${server.url}/readyz`).then(
            () => 'answered',
            () => 'refused',
          ),
        { timeout: 5_000, interval: 100 },
      )
      .toBe('refused');

    // The admitted download goes on to its last byte (the server closes its broker after the
    // HTTP side has drained).
    const complete = new Promise<void>((resolve, reject) => {
      response.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        received += chunk.length;
      });
      response.once('end', resolve);
      response.once('error', reject);
    });
    response.resume();
    await complete;
    expect(received).toBe(IMAGE_BYTES);
    expect(hash.digest('hex')).toBe(createHash('sha256').update(image).digest('hex'));
    await nodeClosed;

    const exit = await server.exited;
    expect(exit, server.output()).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(25_000);
    await client.endAsync(true);
  });
});
