import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSE_SESSION_CHECK_MS } from '../src/http/routes/node.routes.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

/** An open `/v1/events` stream: its text so far and a promise of its end. */
interface OpenStream {
  text: () => string;
  ended: Promise<'ended'>;
  close: () => void;
}

function openStream(port: number, token: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    let text = '';
    const request = http.get(
      { host: '127.0.0.1', port, path: '/v1/events', headers: { authorization: token } },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`stream refused: ${response.statusCode}`));
          return;
        }
        const ended = new Promise<'ended'>((done) => {
          response.on('end', () => done('ended'));
          response.on('close', () => done('ended'));
        });
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        resolve({ text: () => text, ended, close: () => request.destroy() });
      },
    );
    request.on('error', reject);
  });
}

const within = (ms: number) =>
  new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), ms));

// ASVS 5.0 V7.4.1 (session termination takes effect at once), V7.4.3 (a revoked session gives no
// further access): an event stream is authorised once, when it opens, and may stay open for hours.
describe.each(DIALECTS)('the event stream ends with its session on %s', (dialect) => {
  let server: TestServer;
  let port: number;

  beforeAll(async () => {
    server = await createTestServer(dialect);
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    port = (server.app.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await server.close();
  });

  it('ends an open stream soon after its session signs out (ASVS 7.4.1)', async () => {
    const { accesstoken } = await apiLogin(server.app);
    const stream = await openStream(port, accesstoken);
    try {
      const logout = await server.app.inject({
        method: 'POST',
        url: '/v1/logout',
        headers: { authorization: accesstoken },
        payload: {},
      });
      expect(logout.statusCode).toBe(200);
      expect(await Promise.race([stream.ended, within(SSE_SESSION_CHECK_MS + 2_000)])).toBe(
        'ended',
      );
      expect(stream.text()).not.toContain('event: node.connectivity');
    } finally {
      stream.close();
    }
  });

  it('ends an open stream when every session of the user is revoked (ASVS 7.4.3)', async () => {
    const { accesstoken } = await apiLogin(server.app);
    const other = await apiLogin(server.app);
    const stream = await openStream(port, accesstoken);
    try {
      // "Sign out everywhere" from another session (what a password change does too).
      const elsewhere = await server.services.auth.authenticate(other.accesstoken);
      if (!elsewhere) throw new Error('the other session is not live');
      await server.services.auth.logout(
        { sessionId: elsewhere.sessionId, userId: elsewhere.user.userId },
        true,
      );
      expect(await Promise.race([stream.ended, within(SSE_SESSION_CHECK_MS + 2_000)])).toBe(
        'ended',
      );
    } finally {
      stream.close();
    }
  });

  it('keeps the stream of a live session open and delivering events', async () => {
    const { accesstoken } = await apiLogin(server.app);
    const stream = await openStream(port, accesstoken);
    try {
      expect(await Promise.race([stream.ended, within(SSE_SESSION_CHECK_MS + 1_000)])).toBe(
        'still open',
      );
      server.services.nodeEvents.emitConnectivity({
        type: 'node.connectivity',
        node_id: 'N1',
        connected: true,
        timestamp: Date.now(),
      });
      await within(200);
      expect(stream.text()).toContain('event: node.connectivity');
    } finally {
      stream.close();
    }
  });
});
