import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { ERROR_CODES, SERVER_MESSAGES } from '@fleetdeck/contract';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeConnectivityEvent } from '@fleetdeck/contract';
import { SharedStateConnectError } from '../src/cluster/shared-state.js';
import { SlidingWindowLimiter, type WindowLimiter } from '../src/services/auth/rate-limiter.js';
import { RedisWindowLimiter } from '../src/cluster/redis-window-limiter.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  DIALECTS,
  apiLogin,
  createTestServer,
  type TestServer,
} from './helpers/test-server.js';
import { Relay } from './helpers/tcp-relay.js';

// Several instances behind a load balancer share their limits and live updates through Redis
// (REDIS_URL, ADR 38). CI sets TEST_REDIS_URL; without it only the in-memory limiter runs here.
const redisUrl = process.env.TEST_REDIS_URL;
const dialect = DIALECTS.at(-1) ?? 'sqlite';

/** A key prefix of this run's own, removed again at the end. */
const runNamespace = () => `fleetdeck-test-${randomBytes(6).toString('hex')}:`;

async function dropNamespace(url: string, namespace: string): Promise<void> {
  const redis = new Redis(url);
  const keys = await redis.keys(`${namespace}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
}

const limiterKinds: [string, () => Promise<{ make: Maker; done: () => Promise<void> }>][] = [
  [
    'in memory',
    () =>
      Promise.resolve({
        make: (limit, windowMs, clock) => new SlidingWindowLimiter(limit, windowMs, clock),
        done: () => Promise.resolve(),
      }),
  ],
];
type Maker = (limit: number, windowMs: number, clock: () => number) => WindowLimiter;
if (redisUrl)
  limiterKinds.push([
    'in Redis',
    () => {
      const namespace = runNamespace();
      const redis = new Redis(redisUrl);
      let made = 0;
      return Promise.resolve({
        make: (limit, windowMs, clock) =>
          new RedisWindowLimiter(redis, `${namespace}${made++}:`, limit, windowMs, clock),
        done: async () => {
          await redis.quit();
          await dropNamespace(redisUrl, namespace);
        },
      });
    },
  ]);

describe.each(limiterKinds)('a sliding-window limiter %s', (_kind, setUp) => {
  let make: Maker;
  let done: () => Promise<void>;
  beforeAll(async () => {
    ({ make, done } = await setUp());
  });
  afterAll(async () => {
    await done();
  });

  it('takes places up to the limit, then refuses, and frees them as the window slides', async () => {
    let now = 1_000_000;
    const limiter = make(3, 60_000, () => now);
    const lefts: (number | undefined)[] = [];
    for (let i = 0; i < 3; i++) {
      expect(await limiter.isFull('a')).toBe(false);
      lefts.push((await limiter.take('a'))?.left);
      now += 1000;
    }
    expect(lefts).toEqual([2, 1, 0]);
    expect(await limiter.isFull('a')).toBe(true);
    expect(await limiter.take('a')).toBeUndefined();
    expect(await limiter.isFull('b')).toBe(false);
    // The first place (taken at 1,000,000) leaves the window at 1,060,000.
    now = 1_060_000;
    expect(await limiter.isFull('a')).toBe(false);
    expect((await limiter.take('a'))?.left).toBe(0);
  });

  it('never hands out more places than the limit to parallel takers', async () => {
    const limiter = make(5, 60_000, () => 2_000_000);
    const taken = await Promise.all(Array.from({ length: 40 }, () => limiter.take('burst')));
    expect(taken.filter((place) => place !== undefined)).toHaveLength(5);
    expect(
      taken
        .flatMap((place) => (place ? [place.left] : []))
        .sort()
        .join(),
    ).toBe('0,1,2,3,4');
  });

  it('gives a place back once per ticket, and forgets a key on reset', async () => {
    const limiter = make(2, 60_000, () => 3_000_000);
    const first = await limiter.take('k');
    await limiter.take('k');
    expect(await limiter.isFull('k')).toBe(true);
    await limiter.giveBack('k', first?.ticket ?? '');
    await limiter.giveBack('k', first?.ticket ?? '');
    expect(await limiter.isFull('k')).toBe(false);
    expect((await limiter.take('k'))?.left).toBe(0);
    expect(await limiter.take('k')).toBeUndefined();
    await limiter.reset('k');
    expect(await limiter.isFull('k')).toBe(false);
    await limiter.giveBack('unknown', 'no-such-ticket');
    expect(await limiter.isFull('unknown')).toBe(false);
  });
});

describe.runIf(redisUrl)(`two instances sharing Redis (${dialect})`, () => {
  const url = redisUrl ?? '';
  const namespace = runNamespace();
  let first: TestServer;
  let second: TestServer;
  let token: string;
  let laterLoggedOut: string;

  beforeAll(async () => {
    const options = {
      // No polling: only an announcement can move another instance's configuration.
      env: { REDIS_URL: url, CONFIG_POLL_SECONDS: '0' },
      redisNamespace: namespace,
      auth: { ipFailureLimit: 8 },
      loginRequestsPerMinute: 40,
    };
    first = await createTestServer(dialect, options);
    second = await createTestServer(dialect, { ...options, sameDatabaseAs: first });
    // Signed in before a test below locks the account.
    token = (await apiLogin(second.app)).accesstoken;
    laterLoggedOut = (await apiLogin(first.app)).accesstoken;
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await dropNamespace(url, namespace);
  });

  const login = (server: TestServer, userName: string, password: string, ip: string) =>
    server.app.inject({
      method: 'POST',
      url: '/v1/login',
      remoteAddress: ip,
      payload: { user_name: userName, password },
    });

  it('counts failed sign-ins of one account on every instance together (ASVS 6.3.1)', async () => {
    const statuses: number[] = [];
    // Five wrong passwords, spread over both instances and addresses: the account's limit is 5.
    for (let i = 0; i < 5; i++) {
      const server = i % 2 === 0 ? first : second;
      statuses.push(
        (await login(server, ADMIN_EMAIL, 'Wrong-Password-1', `10.1.0.${i}`)).statusCode,
      );
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    // Either instance now refuses the account, even with the right password.
    const refused = await login(second, ADMIN_EMAIL, ADMIN_PASSWORD, '10.1.0.9');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error_code: ERROR_CODES.tooManyRequests });
    expect((await login(first, ADMIN_EMAIL, ADMIN_PASSWORD, '10.1.0.8')).statusCode).toBe(429);
  });

  it('counts failed sign-ins from one address on every instance together', async () => {
    const statuses: number[] = [];
    // Eight wrong sign-ins of different accounts from one address: the address limit here is 8.
    for (let i = 0; i < 8; i++) {
      const server = i % 2 === 0 ? first : second;
      statuses.push(
        (await login(server, `nobody-${i}@fleetdeck.test`, 'Wrong-Password-1', '10.2.0.1'))
          .statusCode,
      );
    }
    expect(statuses.every((status) => status === 400)).toBe(true);
    const refused = await login(first, 'someone-else@fleetdeck.test', 'Wrong-1a', '10.2.0.1');
    expect(refused.statusCode).toBe(429);
    expect(
      (await login(second, 'someone-else@fleetdeck.test', 'Wrong-1a', '10.2.0.2')).statusCode,
    ).toBe(400);
  });

  it('caps sign-in requests per address and minute across instances', async () => {
    // 40 per minute: twenty through each instance use them up, the next one is refused on both.
    const ip = '10.3.0.1';
    for (let i = 0; i < 40; i++) {
      const server = i % 2 === 0 ? first : second;
      const response = await server.app.inject({
        method: 'POST',
        url: '/v1/login',
        remoteAddress: ip,
        payload: { user_name: '', password: '' },
      });
      expect(response.statusCode).toBe(400);
    }
    for (const server of [first, second]) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/v1/login',
        remoteAddress: ip,
        payload: { user_name: '', password: '' },
      });
      expect(response.statusCode).toBe(429);
    }
  });

  it("shows connectivity one instance committed on the other's dashboards, not to its local listeners", async () => {
    const registered = await first.app.inject({
      method: 'POST',
      url: '/v1/admin/node_ids',
      headers: { authorization: token },
      payload: {
        nodes: [
          {
            node_id: 'SCALE1',
            type: 'Refrigerator',
            model: 'FD-RF-2',
            fw_version: '2.0.0',
            tags: ['location:Pune', 'esp.serial_num:S-SCALE1'],
          },
        ],
      },
    });
    expect(registered.statusCode).toBe(200);
    // Local listeners of the second instance (push, OTA offers) act only on what it committed.
    const heardLocally: NodeConnectivityEvent[] = [];
    const stopLocal = second.services.nodeEvents.onConnectivity((event) =>
      heardLocally.push(event),
    );
    await second.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = second.app.server.address() as AddressInfo;
    const received = await new Promise<string>((resolve, reject) => {
      const request = http.get(
        { host: '127.0.0.1', port, path: '/v1/events', headers: { authorization: token } },
        (response) => {
          expect(response.statusCode).toBe(200);
          let text = '';
          let connected = false;
          response.on('data', (chunk: Buffer) => {
            text += chunk.toString();
            if (text.includes(': connected') && !connected) {
              connected = true;
              // The node's broker connection is consumed by the first instance.
              first.services.ingest.nodeConnected('SCALE1', 7001, Date.now());
              void first.services.ingest.flush();
            }
            if (text.includes('event: node.connectivity')) {
              request.destroy();
              resolve(text);
            }
          });
        },
      );
      request.on('error', reject);
      setTimeout(() => reject(new Error('no relayed event within 5 s')), 5000);
    });
    stopLocal();
    const data = /data: (.+)\n/.exec(received)?.[1] ?? '{}';
    expect(JSON.parse(data)).toMatchObject({
      type: 'node.connectivity',
      node_id: 'SCALE1',
      connected: true,
    });
    expect(heardLocally).toEqual([]);
  });

  /** Polls `check` every 20 ms for up to `ms`; whether it came true. */
  async function within(ms: number, check: () => Promise<boolean> | boolean): Promise<boolean> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (await check()) return true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return check();
  }

  it('refuses a session on every instance as soon as it is logged out on one (ASVS 7.4.1)', async () => {
    const profile = () =>
      second.app.inject({
        method: 'GET',
        url: '/v1/user2',
        headers: { authorization: laterLoggedOut },
      });
    // The second instance has now remembered the token (5 s by default).
    expect((await profile()).statusCode).toBe(200);
    const logout = await first.app.inject({
      method: 'POST',
      url: '/v1/logout2',
      headers: { authorization: laterLoggedOut },
    });
    expect(logout.statusCode).toBe(200);
    // Well inside the 5 s the token would otherwise stay remembered there.
    expect(await within(1000, async () => (await profile()).statusCode === 401)).toBe(true);
  });

  it('reloads configuration on every instance as soon as one changes it', async () => {
    const before = second.services.configReloader.current;
    const { generation } = await first.services.configReloader.bump();
    expect(generation).toBeGreaterThan(before);
    expect(await within(1000, () => second.services.configReloader.current === generation)).toBe(
      true,
    );
  });

  it('refuses sign-ins with 503 when Redis stops answering, rather than skipping the limit', async () => {
    const third = await createTestServer(dialect, {
      env: { REDIS_URL: url },
      redisNamespace: namespace,
      sameDatabaseAs: first,
    });
    try {
      third.services.shared?.redis.disconnect();
      const response = await login(third, 'user@fleetdeck.test', 'Wrong-Password-1', '10.5.0.1');
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({
        status: 'failure',
        error_code: ERROR_CODES.sharedStateUnavailable,
        description: SERVER_MESSAGES.sharedStateUnavailable,
      });
    } finally {
      await third.close();
    }
  });

  /** A third instance that reaches Redis through a relay the test can mute. */
  const instanceBehindRelay = async () => {
    const target = new URL(url);
    const relay = new Relay({ host: target.hostname, port: Number(target.port || 6379) });
    await relay.open();
    const relayed = new URL(url);
    relayed.port = String(relay.port);
    const third = await createTestServer(dialect, {
      env: { REDIS_URL: relayed.toString() },
      redisNamespace: namespace,
      sameDatabaseAs: first,
    });
    return { relay, third };
  };

  it('answers sign-ins with 503 in seconds while Redis accepts and says nothing, and serves again after', async () => {
    const { relay, third } = await instanceBehindRelay();
    try {
      relay.mute();
      const started = Date.now();
      const response = await login(third, 'user@fleetdeck.test', 'Wrong-Password-1', '10.5.0.2');
      // ioredis's commandTimeout (2 s in shared-state.ts) bounds the wait.
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({
        error_code: ERROR_CODES.sharedStateUnavailable,
      });
      relay.unmute();
      // The commands that waited are answered, and the limits are checked again.
      let attempt = 0;
      await expect
        .poll(
          async () => {
            attempt += 1;
            const again = await login(
              third,
              'nobody@fleetdeck.test',
              'Wrong-1',
              `10.5.1.${attempt}`,
            );
            return again.statusCode;
          },
          { timeout: 10_000 },
        )
        .toBe(400);
    } finally {
      await third.close();
      await relay.close();
    }
  });

  it('closes in seconds while Redis says nothing (the shutdown is not held by QUIT)', async () => {
    const { relay, third } = await instanceBehindRelay();
    try {
      relay.mute();
      const started = Date.now();
      await third.close();
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await relay.close();
    }
  });

  it('does not start when REDIS_URL does not answer, and says what to do', async () => {
    const failed = await createTestServer(dialect, {
      env: { REDIS_URL: 'redis://127.0.0.1:9' },
      sameDatabaseAs: first,
    }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(SharedStateConnectError);
    expect(String((failed as Error).message)).toMatch(/REDIS_URL.*start Redis, fix REDIS_URL/);
  });
});
