import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApnsSender } from '../src/services/push/apns-sender.js';
import type { PushDelivery } from '../src/services/push/push-sender.js';
import { selfSignedCertificate } from './helpers/push-stand-ins.js';
import { SilentPeer } from './helpers/tcp-relay.js';

/**
 * An APNs host that accepts the connection and never completes the TLS handshake (a proxy that
 * lost its upstream, a black-holed route behind a load balancer). Each notification gives up
 * after its timeout and is retried on a new connection, and closing the sender (the shutdown)
 * does not wait for a session that will never end.
 */
describe('APNs that never answers', () => {
  let silent: SilentPeer;
  let delivery: PushDelivery;

  beforeAll(async () => {
    silent = new SilentPeer();
    await silent.open();
    const { cert, key } = selfSignedCertificate('/CN=Apple Push Services: com.fleetdeck.test');
    delivery = {
      platformArn: 'arn:test',
      platform: 'APNS',
      credentials: {
        kind: 'apns',
        certificate: cert,
        private_key: key,
        topic: 'com.fleetdeck.test',
      },
      deviceToken: 'a'.repeat(64),
      message: { title: 'Alarm', body: 'Door open', data: {} },
    };
  });
  afterAll(async () => {
    await silent?.close();
  });

  const sender = () => {
    const url = `https://127.0.0.1:${silent.port}`;
    return new ApnsSender({ productionUrl: url, sandboxUrl: url, requestTimeoutMs: 300 });
  };

  it('times out each try and connects anew for the next, instead of reusing the stuck session', async () => {
    const apns = sender();
    const accepted = silent.accepted;
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const started = Date.now();
        expect(await apns.send(delivery)).toEqual({ result: 'retry', reason: 'APNs timeout' });
        expect(Date.now() - started).toBeLessThan(2_000);
      }
      expect(silent.accepted - accepted).toBe(3);
    } finally {
      await apns.close();
    }
  });

  it('closes within 2 s while a notification waits on a session that never connected', async () => {
    const apns = sender();
    const sending = apns.send(delivery);
    await expect.poll(() => silent.openConnections).toBeGreaterThan(0);
    const started = Date.now();
    await apns.close();
    expect(Date.now() - started).toBeLessThan(3_000);
    await sending;
  });
});
