import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBuiltServer, type BuiltServer } from './built-server.js';

/** QUALITY R6: the server exits within 25 s of SIGTERM. */
const SHUTDOWN_MS = 25_000;
/** HTTP_IDLE_TIMEOUT_MS in app.ts. */
const IDLE_MS = 60_000;

/** A raw connection to the server that sends `head` and then only what the test writes. */
function rawClient(url: string, head: string): Promise<net.Socket & { closedAt?: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket: net.Socket & { closedAt?: number } = net.connect(Number(port), hostname, () => {
      socket.write(head);
      resolve(socket);
    });
    socket.on('error', () => undefined);
    socket.once('close', () => (socket.closedAt = Date.now()));
    socket.once('error', reject);
  });
}

/** The start of a sign-in whose body never finishes: a client gone away mid-upload. */
const STALLED_BODY =
  'POST /v1/login2 HTTP/1.1\r\nHost: fleetdeck\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"user_name":';

/**
 * Clients that send slowly or never finish: a slowloris trickling headers over hundreds of
 * connections, a request body that stops half-way. The server keeps serving everyone else, drops
 * the stalled connection after its idle wait, and still exits within the deadline on SIGTERM.
 */
describe('the built server with slow and stalled clients', () => {
  let dataDir: string;
  let server: BuiltServer;
  const sockets: net.Socket[] = [];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-slow-clients-'));
    server = await startBuiltServer({
      dataDir,
      admin: { user_name: 'root@fleetdeck.test', password: 'Ops-Console-2031' },
    });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await server?.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers others at once while 300 connections trickle their headers', async () => {
    for (let i = 0; i < 300; i += 1)
      sockets.push(await rawClient(server.url, 'GET /readyz HTTP/1.1\r\nHost: fleetdeck\r\n'));
    const trickle = setInterval(() => {
      for (const socket of sockets) socket.write(`X-Slow-${Date.now()}: 1\r\n`);
    }, 2_000);
    try {
      for (let i = 0; i < 20; i += 1) {
        const started = Date.now();
        const response = await fetch(`${server.url}/readyz`);
        expect(response.status).toBe(200);
        expect(Date.now() - started).toBeLessThan(1_000);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      clearInterval(trickle);
    }
    server.expectAlive();
  });

  it(
    'drops a connection whose request body stalls after the idle wait (it was held for good)',
    async () => {
      const stalled = await rawClient(server.url, STALLED_BODY);
      sockets.push(stalled);
      const started = Date.now();
      await new Promise((resolve) => stalled.once('close', resolve));
      const held = Date.now() - started;
      expect(held).toBeGreaterThanOrEqual(IDLE_MS - 1_000);
      expect(held).toBeLessThan(IDLE_MS + 5_000);
    },
    IDLE_MS + 30_000,
  );

  it('exits 0 within the deadline on SIGTERM while a request body stalls', async () => {
    sockets.push(await rawClient(server.url, STALLED_BODY));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = Date.now();
    server.child.kill('SIGTERM');
    const code = await Promise.race([
      server.exited,
      new Promise<'timeout'>((resolve) =>
        setTimeout(() => resolve('timeout'), SHUTDOWN_MS + 5_000),
      ),
    ]);
    const took = Date.now() - started;
    expect(code, server.output()).toBe(0);
    expect(took).toBeLessThan(SHUTDOWN_MS);
    expect(server.output()).not.toMatch(/shutdown took too long/);
  }, 60_000);
});
