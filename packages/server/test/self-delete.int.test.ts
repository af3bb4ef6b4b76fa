import { ERROR_CODES, MESSAGES, SERVER_MESSAGES } from '@fleetdeck/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedCode } from './helpers/accounts.js';
import {
  caller,
  claimNode,
  createEndUser,
  registerNodes,
  type EndUser,
} from './helpers/end-users.js';
import { startSmtpCapture, type SmtpCapture } from './helpers/smtp-capture.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  DIALECTS,
  apiLogin,
  createTestServer,
  type TestServer,
} from './helpers/test-server.js';

const SELF_DELETE_MAIL = /deleting your Fleetdeck account/;

/** A code that is not `code` (the next one round the six-digit circle). */
function otherThan(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

describe.each(DIALECTS)("deleting one's own account on %s", (dialect) => {
  let server: TestServer;
  let smtp: SmtpCapture;
  let adminToken: string;
  let call: ReturnType<typeof caller>;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await createTestServer(dialect, {
      env: { SMTP_URL: smtp.url, MAIL_SENDS_PER_HOUR: '50' },
    });
    adminToken = (await apiLogin(server.app, ADMIN_EMAIL, ADMIN_PASSWORD)).accesstoken;
    call = caller(server);
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  /** Asks for a self-deletion code and reads it from the mail to the user's own address. */
  async function requestCode(user: EndUser, path = '/v1/user2'): Promise<string> {
    const mark = smtp.mails.length;
    const asked = await call('DELETE', `${path}?request=true`, user.token);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toEqual({
      status: 'success',
      description: SERVER_MESSAGES.userDeleteCodeSent,
    });
    return mailedCode(smtp, user.userName, SELF_DELETE_MAIL, mark);
  }

  function confirm(user: EndUser, code: string, path = '/v1/user2') {
    return call('DELETE', `${path}?verification_code=${code}`, user.token);
  }

  async function userExists(userName: string): Promise<boolean> {
    const list = await call('GET', `/v1/admin/user2?user_name=${userName}`, adminToken);
    expect(list.statusCode, list.body).toBe(200);
    return list.json<{ total: number }>().total === 1;
  }

  it('mails a code to the caller, deletes the account with it, ends every session and releases the nodes', async () => {
    const user = await createEndUser(server, adminToken, 'leaving.owner@fleetdeck.test');
    const secondSession = (await apiLogin(server.app, user.userName, 'Shared-Fridge-2031'))
      .accesstoken;
    await registerNodes(server, adminToken, ['SELFDEL1']);
    await claimNode(server, user, 'SELFDEL1');
    const before = await server.database.db
      .selectFrom('nodes')
      .select('primary_user_id')
      .where('node_id', '=', 'SELFDEL1')
      .executeTakeFirstOrThrow();
    expect(before.primary_user_id).toBe(user.userId);

    const adminMailsBefore = smtp.mails.filter((m) => m.to.includes(ADMIN_EMAIL)).length;
    const code = await requestCode(user);
    const mail = smtp.mails.find((m) => m.to.includes(user.userName) && m.text.includes(code));
    expect(mail?.to).toEqual([user.userName]);
    expect(mail?.text).toContain('Enter it in the dashboard within 10 minutes');
    // Nobody else hears of it.
    expect(smtp.mails.filter((m) => m.to.includes(ADMIN_EMAIL)).length).toBe(adminMailsBefore);

    const deleted = await confirm(user, code);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ status: 'success', description: MESSAGES.accountDeleted });

    for (const token of [user.token, secondSession]) {
      const me = await call('GET', '/v1/user', token);
      expect(me.statusCode).toBe(401);
    }
    expect(await userExists(user.userName)).toBe(false);
    const after = await server.database.db
      .selectFrom('nodes')
      .select(['primary_user_id', 'claimed_at'])
      .where('node_id', '=', 'SELFDEL1')
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ primary_user_id: null, claimed_at: null });
    const login = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { user_name: user.userName, password: 'Shared-Fridge-2031' },
    });
    expect(login.statusCode).toBeGreaterThanOrEqual(400);
    expect(login.statusCode).toBeLessThan(500);
  });

  it('answers on the /v1/user alias too', async () => {
    const user = await createEndUser(server, adminToken, 'alias.leaver@fleetdeck.test');
    const code = await requestCode(user, '/v1/user');
    const deleted = await confirm(user, code, '/v1/user');
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await userExists(user.userName)).toBe(false);
  });

  it('refuses a missing and a wrong code with 400, and a code replaced by a newer one', async () => {
    const user = await createEndUser(server, adminToken, 'wrong.code@fleetdeck.test');
    const first = await requestCode(user);

    const missing = await call('DELETE', '/v1/user2', user.token);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      description: SERVER_MESSAGES.userDeleteCodeMissing,
      error_code: ERROR_CODES.userDeleteCodeMissing,
    });
    const wrong = await confirm(user, otherThan(first));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      status: 'failure',
      description: SERVER_MESSAGES.userDeleteCodeIncorrect,
      error_code: ERROR_CODES.userDeleteCodeIncorrect,
    });

    const second = await requestCode(user);
    if (second !== first) {
      const replaced = await confirm(user, first);
      expect(replaced.statusCode).toBe(400);
      expect(replaced.json()).toMatchObject({ error_code: ERROR_CODES.userDeleteCodeIncorrect });
    }
    expect(await userExists(user.userName)).toBe(true);
    expect((await confirm(user, second)).statusCode).toBe(200);
    expect(await userExists(user.userName)).toBe(false);
  });

  it('burns the code after five wrong tries with 429, even for the right code afterwards', async () => {
    const user = await createEndUser(server, adminToken, 'guesser@fleetdeck.test');
    const code = await requestCode(user);
    const wrong = otherThan(code);
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const answer = await confirm(user, wrong);
      expect(answer.statusCode, `attempt ${attempt}`).toBe(400);
      expect(answer.json()).toMatchObject({ error_code: ERROR_CODES.userDeleteCodeIncorrect });
    }
    const fifth = await confirm(user, wrong);
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toEqual({
      status: 'failure',
      description: SERVER_MESSAGES.userDeleteAttemptsExceeded,
      error_code: ERROR_CODES.userDeleteAttemptsExceeded,
    });
    const right = await confirm(user, code);
    expect(right.statusCode).toBe(429);
    expect(await userExists(user.userName)).toBe(true);
    expect((await call('GET', '/v1/user', user.token)).statusCode).toBe(200);
  });

  it('issues codes that live at most 10 minutes and refuses an expired one', async () => {
    const user = await createEndUser(server, adminToken, 'late.leaver@fleetdeck.test');
    const code = await requestCode(user);
    const subject = `${user.userId}:${user.userId}`;
    const row = await server.database.db
      .selectFrom('verification_codes')
      .select(['created_at', 'expires_at'])
      .where('purpose', '=', 'user_delete')
      .where('subject', '=', subject)
      .where('consumed_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(row.expires_at) - Number(row.created_at)).toBeLessThanOrEqual(600);
    await server.database.db
      .updateTable('verification_codes')
      .set({ expires_at: Math.floor(Date.now() / 1000) - 1 })
      .where('purpose', '=', 'user_delete')
      .where('subject', '=', subject)
      .execute();

    const late = await confirm(user, code);
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({
      description: SERVER_MESSAGES.userDeleteCodeExpired,
      error_code: ERROR_CODES.verificationCodeExpired,
    });
    expect(await userExists(user.userName)).toBe(true);
  });

  it("does not let another user's code, or an admin's code for deleting you, delete you", async () => {
    const victim = await createEndUser(server, adminToken, 'victim@fleetdeck.test');
    const other = await createEndUser(server, adminToken, 'other@fleetdeck.test');
    const othersCode = await requestCode(other);
    const victimsCode = await requestCode(victim);

    // The other user's own code, sent with the victim's session: not the victim's code.
    if (othersCode !== victimsCode) {
      const crossed = await confirm(victim, othersCode);
      expect(crossed.statusCode).toBe(400);
      expect(crossed.json()).toMatchObject({ error_code: ERROR_CODES.userDeleteCodeIncorrect });
    }
    expect(await userExists(victim.userName)).toBe(true);

    // A super admin asks to delete the victim: that code is bound to the admin, not to the victim.
    const mark = smtp.mails.length;
    const adminAsk = await call(
      'DELETE',
      `/v1/admin/user2?request=true&user_name=${victim.userName}`,
      adminToken,
    );
    expect(adminAsk.statusCode, adminAsk.body).toBe(200);
    const adminsCode = await mailedCode(smtp, ADMIN_EMAIL, /deleting a Fleetdeck user/, mark);
    if (adminsCode !== victimsCode) {
      const borrowed = await confirm(victim, adminsCode);
      expect(borrowed.statusCode).toBe(400);
    }
    expect(await userExists(victim.userName)).toBe(true);

    // The other user's code is untouched by the victim's tries and still deletes only them.
    expect((await confirm(other, othersCode)).statusCode).toBe(200);
    expect(await userExists(other.userName)).toBe(false);
    expect(await userExists(victim.userName)).toBe(true);
  });

  it('refuses anonymous callers with 401 on both paths', async () => {
    for (const url of [
      '/v1/user2?request=true',
      '/v1/user?request=true',
      '/v1/user2?verification_code=123456',
      '/v1/user?verification_code=123456',
    ]) {
      const response: LightMyRequestResponse = await server.app.inject({ method: 'DELETE', url });
      expect(response.statusCode, url).toBe(401);
      expect(response.json(), url).toMatchObject({ status: 'failure' });
    }
  });

  it('refuses the last super admin with a clear 400 and sends no code', async () => {
    const mark = smtp.mails.length;
    const alone = await call('DELETE', '/v1/user2?request=true', adminToken);
    expect(alone.statusCode).toBe(400);
    expect(alone.json()).toEqual({
      status: 'failure',
      description: SERVER_MESSAGES.lastSuperAdminSelfDeletion,
      error_code: ERROR_CODES.superAdminDeletion,
    });
    expect(smtp.mails.slice(mark).filter((m) => m.to.includes(ADMIN_EMAIL))).toEqual([]);
    expect((await call('GET', '/v1/user', adminToken)).statusCode).toBe(200);
  });

  // Last, as it may delete the first super admin.
  it('lets a super admin go while another remains, but of two confirming at once only one', async () => {
    const created = await call('POST', '/v1/admin/user2', adminToken, {
      user_name: 'second.root@fleetdeck.test',
      password: 'Amber-Lantern-2031',
      roles: ['super_admin'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const second: EndUser = {
      userId: created.json<{ user_id: string }>().user_id,
      userName: 'second.root@fleetdeck.test',
      token: (await apiLogin(server.app, 'second.root@fleetdeck.test', 'Amber-Lantern-2031'))
        .accesstoken,
    };
    const root: EndUser = { userId: '', userName: ADMIN_EMAIL, token: adminToken };
    // With two super admins both may ask for a code.
    const secondsCode = await requestCode(second);
    const rootsCode = await requestCode(root);

    const answers = await Promise.all([confirm(second, secondsCode), confirm(root, rootsCode)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    const refused = answers.find((answer) => answer.statusCode === 400);
    expect(refused?.json()).toMatchObject({
      description: SERVER_MESSAGES.lastSuperAdminSelfDeletion,
      error_code: ERROR_CODES.superAdminDeletion,
    });
    const superAdmins = await server.database.db
      .selectFrom('users')
      .select('user_name')
      .where('super_admin', '=', 1)
      .execute();
    expect(superAdmins).toHaveLength(1);
  });
});
