import { ERROR_CODES, SERVER_MESSAGES } from '@fleetdeck/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from './helpers/end-users.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

// Requests fired at once that each check something, wait (argon2, another statement) and then
// write: every test asks for the outcome the same requests would have one after another.

const PASSWORD = 'Quiet-Harbour-2031';

const statuses = (answers: readonly LightMyRequestResponse[]) =>
  answers.map((answer) => answer.statusCode);

describe.each(DIALECTS)('concurrent sign-in attempts and password changes on %s', (dialect) => {
  let server: TestServer;
  let call: ReturnType<typeof caller>;
  let adminToken: string;
  let counter = 0;

  beforeAll(async () => {
    server = await createTestServer(dialect, {
      auth: { accountFailureLimit: 5, ipFailureLimit: 100 },
    });
    call = caller(server);
    adminToken = (await apiLogin(server.app)).accesstoken;
  });
  afterAll(async () => {
    await server.close();
  });

  async function newUser(): Promise<string> {
    counter += 1;
    const userName = `racer.${dialect}.${counter}@fleetdeck.test`;
    const created = await call('POST', '/v1/admin/user2', adminToken, {
      user_name: userName,
      password: PASSWORD,
      roles: ['user'],
    });
    expect(created.statusCode, created.body).toBe(201);
    return userName;
  }

  function login(userName: string, password: string, ip: string) {
    return server.app.inject({
      method: 'POST',
      url: '/v1/login2',
      remoteAddress: ip,
      payload: { user_name: userName, password },
    });
  }

  it('checks at most the account limit of 15 parallel wrong passwords and answers the rest 429', async () => {
    const userName = await newUser();
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) => login(userName, `Wrong-Guess-${i}-x`, `10.20.0.${i}`)),
    );
    const checked = answers.filter((answer) => answer.statusCode !== 429);
    expect(checked.length, String(statuses(answers))).toBeLessThanOrEqual(5);
    for (const answer of checked)
      expect(answer.json()).toMatchObject({ error_code: ERROR_CODES.incorrectCredentials });
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(15 - checked.length);
    // The account is locked now, even for the right password.
    expect((await login(userName, PASSWORD, '10.20.1.1')).statusCode).toBe(429);
  });

  it('does not count parallel right passwords as failures', async () => {
    const userName = await newUser();
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => login(userName, PASSWORD, `10.21.0.${i}`)),
    );
    expect(statuses(answers)).toEqual([200, 200, 200, 200]);
    // Four failures fit: the successes above left nothing behind in the window.
    for (let i = 0; i < 4; i++)
      expect((await login(userName, `Wrong-Guess-${i}-y`, '10.21.1.1')).statusCode).toBe(400);
    expect((await login(userName, PASSWORD, '10.21.1.1')).statusCode).toBe(200);
  });

  it('lets exactly one of 5 parallel password changes with the same current password through', async () => {
    const userName = await newUser();
    const { accesstoken } = await apiLogin(server.app, userName, PASSWORD);
    const next = (i: number) => `Fresh-Lantern-${i}-2032`;
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call('PUT', '/v1/password2', accesstoken, { password: PASSWORD, newpassword: next(i) }),
      ),
    );
    const won = answers.filter((answer) => answer.statusCode === 200);
    expect(won, String(statuses(answers))).toHaveLength(1);
    for (const answer of answers.filter((a) => a.statusCode !== 200)) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({
        status: 'failure',
        description: SERVER_MESSAGES.currentPasswordWrong,
        error_code: ERROR_CODES.currentPasswordWrong,
      });
    }
    const winner = answers.findIndex((answer) => answer.statusCode === 200);
    // The winner's password works and its fresh session is the one valid session.
    expect((await login(userName, next(winner), '10.22.0.1')).statusCode).toBe(200);
    for (let i = 0; i < 5; i++)
      if (i !== winner)
        expect((await login(userName, next(i), '10.22.0.1')).statusCode, `password ${i}`).toBe(400);
    const fresh = won[0]?.json<{ accesstoken: string }>().accesstoken ?? '';
    expect((await call('GET', '/v1/user', fresh)).statusCode).toBe(200);
    expect((await call('GET', '/v1/user', accesstoken)).statusCode).toBe(401);
  });
});
