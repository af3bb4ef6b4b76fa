import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedBroker, type EmbeddedBroker } from '../src/gateway/embedded-broker.js';
import { createLogger } from '../src/logger.js';

/** Tries one MQTT connection and reports the CONNACK outcome. */
function tryConnect(
  port: number,
  options: mqtt.IClientOptions,
): Promise<{ connected: boolean; code?: number }> {
  return new Promise((resolve) => {
    const client = mqtt.connect({
      host: '127.0.0.1',
      port,
      reconnectPeriod: 0,
      connectTimeout: 5000,
      ...options,
    });
    client.once('connect', () => {
      client.end(true);
      resolve({ connected: true });
    });
    client.once('error', (error: Error & { code?: number }) => {
      client.end(true);
      resolve({ connected: false, code: error.code });
    });
  });
}

// QUALITY S10 starts here: until node credentials exist, the embedded broker accepts nobody.
describe('embedded MQTT broker', () => {
  let broker: EmbeddedBroker;
  beforeAll(async () => {
    broker = await startEmbeddedBroker(0, '127.0.0.1', createLogger('silent'));
  });
  afterAll(async () => {
    await broker.close();
  });

  it('listens on a free port when asked for port 0', () => {
    expect(broker.port).toBeGreaterThan(0);
  });

  it('refuses anonymous clients and unknown credentials with "bad user name or password"', async () => {
    for (const options of [
      { clientId: 'anonymous' },
      { clientId: 'node-1', username: 'node-1', password: 'guess' },
      { clientId: 'node-2', username: 'admin', password: 'admin' },
    ]) {
      const outcome = await tryConnect(broker.port, options);
      expect(outcome).toEqual({ connected: false, code: 4 });
    }
  });

  it('refuses MQTT 5 clients too', async () => {
    const outcome = await tryConnect(broker.port, {
      clientId: 'node-3',
      username: 'x',
      password: 'y',
      protocolVersion: 5,
    });
    expect(outcome.connected).toBe(false);
  });

  it('reports a busy port to the caller instead of crashing', async () => {
    await expect(
      startEmbeddedBroker(broker.port, '127.0.0.1', createLogger('silent')),
    ).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
  });
});
