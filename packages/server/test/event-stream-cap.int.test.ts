import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_STREAMS_PER_USER, SERVER_MESSAGES } from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSE_EVICTED_RETRY_MS, SSE_SESSION_CHECK_MS } from '../src/http/routes/node.routes.js';
import { caller } from './helpers/end-users.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

/** An open `/v1/events` stream over a real socket: its text so far, and whether it ended. */
interface OpenStream {
  text: () => string;
  isEnded: () => boolean;
  ended: Promise<'ended'>;
  close: () => void;
}

function openStream(port: number, token: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    let text = '';
    let ended = false;
    const request = http.get(
      { host: '127.0.0.1', port, path: '/v1/events', headers: { authorization: token } },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`stream refused: ${response.statusCode}`));
          return;
        }
        const endedPromise = new Promise<'ended'>((done) => {
          const end = () => {
            ended = true;
            done('ended');
          };
          response.on('end', end);
          response.on('close', end);
        });
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        resolve({
          text: () => text,
          isEnded: () => ended,
          ended: endedPromise,
          close: () => request.destroy(),
        });
      },
    );
    request.on('error', reject);
  });
}

/** Opens `count` streams one after the other, so their age order is known. */
async function openStreams(port: number, token: string, count: number): Promise<OpenStream[]> {
  const streams: OpenStream[] = [];
  for (let i = 0; i < count; i += 1) streams.push(await openStream(port, token));
  return streams;
}

const within = (ms: number) =>
  new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), ms));

/** Waits until `read()` gives `expected` (the server sees a client's close a moment later). */
async function eventually(read: () => number, expected: number, ms = 3_000): Promise<number> {
  const deadline = Date.now() + ms;
  while (read() !== expected && Date.now() < deadline) await within(20);
  return read();
}

// ASVS 5.0 V2.4.1 / V15.2.2 (no resource exhaustion by one account): every open event stream holds
// a socket, two timers and listeners for hours. One user keeps at most EVENT_STREAMS_PER_USER on
// an instance; one more closes that user's oldest (ADR 2, amendment "event streams per user").
describe.each(DIALECTS)('open event streams per user are capped on %s', (dialect) => {
  let server: TestServer;
  let port: number;
  const cap = EVENT_STREAMS_PER_USER;

  const userIdOf = async (token: string) => {
    const context = await server.services.auth.authenticate(token);
    if (!context) throw new Error('the session is not live');
    return context.user.userId;
  };
  const openFor = (userId: string) => () => server.services.eventStreams.openFor(userId);

  beforeAll(async () => {
    server = await createTestServer(dialect);
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    port = (server.app.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await server.close();
  });

  it("closes the user's oldest stream, saying why, when the user opens one more than the cap", async () => {
    const { accesstoken } = await apiLogin(server.app);
    const admin = await userIdOf(accesstoken);
    // Another user with nodes.read, whose stream the admin's must not touch.
    const managerName = 'stream-cap-manager@fleetdeck.test';
    const created = await caller(server)('POST', '/v1/admin/user2', accesstoken, {
      user_name: managerName,
      password: 'Shared-Fridge-2031',
      roles: ['service_manager_role'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const manager = (await apiLogin(server.app, managerName, 'Shared-Fridge-2031')).accesstoken;
    const managerStream = await openStream(port, manager);
    const streams = await openStreams(port, accesstoken, cap);
    try {
      expect(openFor(admin)()).toBe(cap);
      const newest = await openStream(port, accesstoken);
      streams.push(newest);
      const [oldest, ...kept] = streams;
      if (!oldest) throw new Error('no streams');
      expect(await Promise.race([oldest.ended, within(2_000)])).toBe('ended');
      expect(oldest.text()).toContain(`retry: ${SSE_EVICTED_RETRY_MS}\n`);
      expect(oldest.text()).toContain(SERVER_MESSAGES.eventStreamReplaced);
      await within(300);
      expect(kept.filter((stream) => stream.isEnded())).toEqual([]);
      expect(managerStream.isEnded()).toBe(false);
      expect(openFor(admin)()).toBe(cap);
      // The newest stream works.
      server.services.nodeEvents.emitConnectivity({
        type: 'node.connectivity',
        node_id: 'CAP1',
        connected: true,
        timestamp: Date.now(),
      });
      await within(200);
      expect(newest.text()).toContain('"node_id":"CAP1"');
    } finally {
      for (const stream of [...streams, managerStream]) stream.close();
    }
    expect(await eventually(openFor(admin), 0)).toBe(0);
  });

  it('frees the place of a stream its client closed', async () => {
    const { accesstoken } = await apiLogin(server.app);
    const admin = await userIdOf(accesstoken);
    const streams = await openStreams(port, accesstoken, cap);
    try {
      // Close three in the middle: were their places kept, the three opened next would push
      // out the three oldest, which are still open.
      const closed = streams.slice(3, 6);
      for (const stream of closed) stream.close();
      expect(await eventually(openFor(admin), cap - closed.length)).toBe(cap - closed.length);
      streams.push(...(await openStreams(port, accesstoken, closed.length)));
      await within(300);
      expect(streams.filter((stream) => stream.isEnded() && !closed.includes(stream))).toEqual([]);
      expect(openFor(admin)()).toBe(cap);
      // The count is exact: one more pushes out the oldest open stream.
      streams.push(await openStream(port, accesstoken));
      expect(await Promise.race([streams[0]?.ended, within(2_000)])).toBe('ended');
      expect(streams[1]?.isEnded()).toBe(false);
    } finally {
      for (const stream of streams) stream.close();
    }
    expect(await eventually(openFor(admin), 0)).toBe(0);
  });

  it('frees the places of streams the server ended because their session was signed out', async () => {
    const half = Math.floor(cap / 2);
    const staying = await apiLogin(server.app);
    const leaving = await apiLogin(server.app);
    const admin = await userIdOf(staying.accesstoken);
    // The signed-out session's streams are the newer ones: were their places kept, the next
    // streams would push out the older, still open ones.
    const older = await openStreams(port, staying.accesstoken, half);
    const newer = await openStreams(port, leaving.accesstoken, cap - half);
    const opened: OpenStream[] = [];
    try {
      const logout = await caller(server)('POST', '/v1/logout', leaving.accesstoken, {});
      expect(logout.statusCode, logout.body).toBe(200);
      const ends = await Promise.all(
        newer.map((stream) => Promise.race([stream.ended, within(SSE_SESSION_CHECK_MS + 2_000)])),
      );
      expect(ends.every((end) => end === 'ended')).toBe(true);
      expect(await eventually(openFor(admin), half)).toBe(half);
      opened.push(...(await openStreams(port, staying.accesstoken, cap - half)));
      await within(300);
      expect(older.filter((stream) => stream.isEnded())).toEqual([]);
      expect(openFor(admin)()).toBe(cap);
    } finally {
      for (const stream of [...older, ...newer, ...opened]) stream.close();
    }
    expect(await eventually(openFor(admin), 0)).toBe(0);
  });

  it('frees every place when the server shuts down', async () => {
    const other = await createTestServer(dialect, { sameDatabaseAs: server });
    await other.app.listen({ port: 0, host: '127.0.0.1' });
    const otherPort = (other.app.server.address() as AddressInfo).port;
    const { accesstoken } = await apiLogin(other.app);
    const context = await other.services.auth.authenticate(accesstoken);
    if (!context) throw new Error('the session is not live');
    const streams = await openStreams(otherPort, accesstoken, 3);
    expect(other.services.eventStreams.openFor(context.user.userId)).toBe(3);
    await other.close();
    expect(
      await Promise.all(streams.map((stream) => Promise.race([stream.ended, within(2_000)]))),
    ).toEqual(['ended', 'ended', 'ended']);
    expect(other.services.eventStreams.openTotal()).toBe(0);
  });
});
