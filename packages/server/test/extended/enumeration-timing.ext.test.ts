import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../src/repositories/user.repository.js';
import { hashPassword } from '../../src/services/auth/password.js';
import { DIALECTS, createTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * QUALITY.md S4 (tier B, `npm run test:extended`; ASVS 5.0 V6.3.8): sign-in, sign-up and forgot
 * password answer alike for known and unknown users, in body and in timing (median difference
 * under 10 ms). Known and unknown requests alternate, so drift in machine load hits both sides.
 */
const PAIRS = 25;
const MAX_MEDIAN_GAP_MS = 10;
const KNOWN_PASSWORD = 'Known-Account-2031';
const WRONG_PASSWORD = 'Wrong-Guess-2031';
const NEW_PASSWORD = 'Brand-New-Pass-2031';

interface Sample {
  ms: number;
  status: number;
  body: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

describe.each(DIALECTS)('no user enumeration by answer or timing on %s (S4)', (dialect) => {
  let server: TestServer;
  const known: string[] = [];

  beforeAll(async () => {
    server = await createTestServer(dialect, {
      // The per-account and per-IP failure limits would end the measurement early (and answer
      // alike anyway); the sign-in request cap likewise.
      auth: { accountFailureLimit: 100_000, ipFailureLimit: 100_000 },
      loginRequestsPerMinute: 100_000,
    });
    const hash = await hashPassword(KNOWN_PASSWORD);
    const now = Math.floor(Date.now() / 1000);
    for (let i = 0; i < PAIRS * 3; i += 1) {
      const userName = `known-${i}-${randomUUID().slice(0, 8)}@fleetdeck.test`;
      await insertUser(
        server.database.db,
        {
          user_id: randomUUID(),
          user_name: userName,
          password_hash: hash,
          name: '',
          super_admin: 0,
          verified: 1,
          mfa: 0,
          phone_number: null,
          created_at: now,
          updated_at: now,
          password_changed_at: now,
        },
        ['user'],
      );
      known.push(userName);
    }
  }, 120_000);

  afterAll(async () => server?.close());

  async function timed(
    method: 'POST' | 'PUT',
    url: string,
    payload: Record<string, string>,
  ): Promise<Sample> {
    const started = performance.now();
    const response = await server.app.inject({ method, url, payload });
    const ms = performance.now() - started;
    // Mail work runs after the answer; let it finish outside the measured time.
    await server.services.accounts.settle();
    return { ms, status: response.statusCode, body: response.body };
  }

  /** Alternates known and unknown requests; checks identical answers and the median gap. */
  async function compare(
    offset: number,
    request: (userName: string) => Promise<Sample>,
  ): Promise<{ knownMs: number; unknownMs: number }> {
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < PAIRS; i += 1) {
      const unknown = `nobody-${i}-${randomUUID().slice(0, 8)}@fleetdeck.test`;
      const order = i % 2 === 0;
      const first = await request(order ? known[offset + i]! : unknown);
      const second = await request(order ? unknown : known[offset + i]!);
      const [k, u] = order ? [first, second] : [second, first];
      expect({ status: u.status, body: u.body }).toEqual({ status: k.status, body: k.body });
      knownTimes.push(k.ms);
      unknownTimes.push(u.ms);
    }
    return { knownMs: median(knownTimes), unknownMs: median(unknownTimes) };
  }

  it('answers a wrong password alike for a known and an unknown user', async () => {
    const { knownMs, unknownMs } = await compare(0, (userName) =>
      timed('POST', '/v1/login', { user_name: userName, password: WRONG_PASSWORD }),
    );
    expect(
      Math.abs(knownMs - unknownMs),
      `known ${knownMs} ms, unknown ${unknownMs} ms`,
    ).toBeLessThan(MAX_MEDIAN_GAP_MS);
  }, 120_000);

  it('answers a sign-up alike for a taken and a free address', async () => {
    const { knownMs, unknownMs } = await compare(PAIRS, (userName) =>
      timed('POST', '/v1/user', { user_name: userName, password: NEW_PASSWORD }),
    );
    expect(
      Math.abs(knownMs - unknownMs),
      `known ${knownMs} ms, unknown ${unknownMs} ms`,
    ).toBeLessThan(MAX_MEDIAN_GAP_MS);
  }, 120_000);

  it('answers a password-reset request alike for a known and an unknown address', async () => {
    const { knownMs, unknownMs } = await compare(PAIRS * 2, (userName) =>
      timed('PUT', '/v1/forgotpassword', { user_name: userName }),
    );
    expect(
      Math.abs(knownMs - unknownMs),
      `known ${knownMs} ms, unknown ${unknownMs} ms`,
    ).toBeLessThan(MAX_MEDIAN_GAP_MS);
  }, 120_000);
});
