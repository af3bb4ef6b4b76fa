import { ERROR_CODES, SERVER_MESSAGES } from '@fleetdeck/contract';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedCode } from './helpers/accounts.js';
import { caller } from './helpers/end-users.js';
import { startSmtpCapture, type SmtpCapture } from './helpers/smtp-capture.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  DIALECTS,
  apiLogin,
  createTestServer,
  type TestServer,
} from './helpers/test-server.js';

// Requests fired at once that each check something, wait (argon2, another statement) and then
// write: every test asks for the outcome the same requests would have one after another.

const PASSWORD = 'Quiet-Harbour-2031';
const DELETE_MAIL = /deleting a Fleetdeck user/;

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

describe.each(DIALECTS)('concurrent user administration on %s', (dialect) => {
  let server: TestServer;
  let smtp: SmtpCapture;
  let call: ReturnType<typeof caller>;
  let rootToken: string;
  let counter = 0;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await createTestServer(dialect, {
      env: { SMTP_URL: smtp.url, MAIL_SENDS_PER_HOUR: '200' },
    });
    call = caller(server);
    rootToken = (await apiLogin(server.app, ADMIN_EMAIL, ADMIN_PASSWORD)).accesstoken;
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  /** Creates an account with the roles (by the first super admin unless told) and signs it in. */
  async function account(roles: string[], token = rootToken) {
    counter += 1;
    const userName = `staff.${dialect}.${counter}@fleetdeck.test`;
    const created = await call('POST', '/v1/admin/user2', token, {
      user_name: userName,
      password: PASSWORD,
      roles,
    });
    expect(created.statusCode, created.body).toBe(201);
    return { userName, token: (await apiLogin(server.app, userName, PASSWORD)).accesstoken };
  }

  async function superAdminNames(): Promise<string[]> {
    const rows = await server.database.db
      .selectFrom('users')
      .select('user_name')
      .where('super_admin', '=', 1)
      .orderBy('user_name')
      .execute();
    return rows.map((row) => row.user_name);
  }

  const demote = (userName: string, token: string) =>
    call('PUT', `/v1/admin/user2?user_name=${userName}`, token, { roles: ['admin'] });

  it('never lets two super admins demote each other at once, even as the last two', async () => {
    let boss = { userName: ADMIN_EMAIL, token: rootToken };
    for (let round = 0; round < 5; round++) {
      const a = await account(['super_admin'], boss.token);
      const b = await account(['super_admin'], boss.token);
      // a and b become the only super admins.
      const demoted = await demote(boss.userName, a.token);
      expect(demoted.statusCode, demoted.body).toBe(200);
      expect(await superAdminNames()).toEqual([a.userName, b.userName].sort());

      const answers = await Promise.all([demote(b.userName, a.token), demote(a.userName, b.token)]);
      const label = `round ${round}: ${String(statuses(answers))}`;
      expect(statuses(answers).filter((status) => status === 200).length, label).toBe(1);
      const refused = answers.find((answer) => answer.statusCode !== 200);
      expect(refused?.statusCode, label).toBe(403);
      expect(refused?.json()).toMatchObject({ error_code: ERROR_CODES.forbidden });
      boss = answers[0]?.statusCode === 200 ? a : b;
      expect(await superAdminNames(), label).toEqual([boss.userName]);
    }
    // The first super admin gets the role back for the tests below.
    const restored = await call('PUT', `/v1/admin/user2?user_name=${ADMIN_EMAIL}`, boss.token, {
      roles: ['super_admin'],
    });
    expect(restored.statusCode, restored.body).toBe(200);
  });

  /** The registered-users rollup (all days) and the real number of accounts. */
  async function registeredUsers(): Promise<{ rollup: number; accounts: number }> {
    const rollup = await sql<{
      n: number | string | null;
    }>`select sum(value) as n from stats_daily where metric = 'registered_users'`.execute(
      server.database.db,
    );
    const accounts = await server.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return { rollup: Number(rollup.rows[0]?.n ?? 0), accounts: Number(accounts.n) };
  }

  async function deleteCode(admin: { userName: string; token: string }, target: string) {
    const mark = smtp.mails.length;
    const asked = await call(
      'DELETE',
      `/v1/admin/user2?request=true&user_name=${target}`,
      admin.token,
    );
    expect(asked.statusCode, asked.body).toBe(200);
    return mailedCode(smtp, admin.userName, DELETE_MAIL, mark);
  }

  it('deletes a user once when two admins confirm at once, and the statistic stays right', async () => {
    const root = { userName: ADMIN_EMAIL, token: rootToken };
    const other = await account(['super_admin']);
    const before = await registeredUsers();
    expect(before.rollup).toBe(before.accounts);
    for (let round = 0; round < 4; round++) {
      const target = (await account(['service_engineer_role'])).userName;
      const rootsCode = await deleteCode(root, target);
      const othersCode = await deleteCode(other, target);
      const confirm = (admin: { token: string }, code: string) =>
        call(
          'DELETE',
          `/v1/admin/user2?user_name=${target}&verification_code=${code}`,
          admin.token,
        );
      const answers = await Promise.all([confirm(root, rootsCode), confirm(other, othersCode)]);
      expect(statuses(answers).sort(), `round ${round}`).toEqual([200, 404]);
      const refused = answers.find((answer) => answer.statusCode === 404);
      expect(refused?.json()).toMatchObject({
        description: SERVER_MESSAGES.userNotFound,
        error_code: ERROR_CODES.userNotFound,
      });
      const now = await registeredUsers();
      expect(now, `round ${round}`).toEqual({ rollup: now.accounts, accounts: now.accounts });
    }
    expect((await registeredUsers()).accounts).toBe(before.accounts);
  });
});
