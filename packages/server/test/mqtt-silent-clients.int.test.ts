import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MQTT_CONNECT_TIMEOUT_MS,
  startEmbeddedBroker,
  type EmbeddedBroker,
} from '../src/gateway/embedded-broker.js';
import { createLogger } from '../src/logger.js';
import { createTestServer, type TestServer } from './helpers/test-server.js';

/** Connects to the broker, writes `bytes`, and resolves with how long the broker kept it open. */
function heldFor(port: number, bytes: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      const started = Date.now();
      socket.once('close', () => resolve(Date.now() - started));
      if (bytes.length > 0) socket.write(bytes);
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

/** The first 10 bytes of a CONNECT that announces 40: the rest never comes. */
const HALF_CONNECT = Buffer.from([0x10, 40, 0x00, 0x04, 0x4d, 0x51, 0x54, 0x54, 0x04, 0x02]);

/**
 * TCP clients that connect to the embedded broker and never send CONNECT, or send half of it.
 * Each holds a file descriptor and a place in Aedes until the broker gives up on it, so the wait
 * is bounded and the same for any number of them from one address.
 */
describe('the embedded broker with clients that never finish CONNECT', () => {
  let server: TestServer;
  let broker: EmbeddedBroker;

  beforeAll(async () => {
    server = await createTestServer('sqlite');
    broker = await startEmbeddedBroker(
      0,
      '127.0.0.1',
      server.services.ingest,
      createLogger('silent'),
    );
  });
  afterAll(async () => {
    await broker?.close();
    await server?.close();
  });

  it('closes 50 silent connections and a half CONNECT from one address after the connect wait', async () => {
    const held = await Promise.all([
      heldFor(broker.port, HALF_CONNECT),
      ...Array.from({ length: 50 }, () => heldFor(broker.port, Buffer.alloc(0))),
    ]);
    for (const ms of held) {
      expect(ms).toBeGreaterThanOrEqual(MQTT_CONNECT_TIMEOUT_MS - 500);
      expect(ms).toBeLessThan(MQTT_CONNECT_TIMEOUT_MS + 3_000);
    }
  }, 30_000);
});
