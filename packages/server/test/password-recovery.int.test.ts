import { ERROR_CODES, MESSAGES, SERVER_MESSAGES } from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../src/repositories/user.repository.js';
import {
  mailedCode,
  postLogin,
  putForgot,
  signUpVerified,
  uniqueEmail,
} from './helpers/accounts.js';
import { codeIn, startSmtpCapture, type SmtpCapture } from './helpers/smtp-capture.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

const OLD_PASSWORD = 'Harbour-Lights-42';
const NEW_PASSWORD = 'Lantern-Quay-77';
const RESET_MAIL = /reset your fleetdeck password/i;

describe.each(DIALECTS)('password recovery on %s', (dialect) => {
  let server: TestServer;
  let smtp: SmtpCapture;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await createTestServer(dialect, { env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('answers a code request for an existing and an unknown address identically and mails only the owner (S4)', async () => {
    const owner = uniqueEmail('owner');
    await signUpVerified(server.app, smtp, owner, OLD_PASSWORD);
    const unknown = uniqueEmail('ghost');
    const known = await putForgot(server.app, { user_name: owner });
    const nobody = await putForgot(server.app, { user_name: unknown });
    expect(known.statusCode).toBe(200);
    expect(nobody.statusCode).toBe(known.statusCode);
    expect(nobody.body).toBe(known.body);
    expect(known.json()).toEqual({
      status: 'success',
      description: SERVER_MESSAGES.forgotCodeSent,
    });
    await mailedCode(smtp, owner, RESET_MAIL);
    await server.services.accounts.settle();
    expect(smtp.mails.some((m) => m.to.includes(unknown))).toBe(false);
  });

  it('sets a new password with the mailed code, ends every session and leaves the code used up', async () => {
    const email = uniqueEmail('reset');
    await signUpVerified(server.app, smtp, email, OLD_PASSWORD);
    const before = await apiLogin(server.app, email, OLD_PASSWORD);

    const mark = smtp.mails.length;
    await putForgot(server.app, { user_name: email }, '/v1/forgotpassword2');
    const mail = await smtp.waitForMail(
      email,
      (m) => RESET_MAIL.test(m.subject) && smtp.mails.indexOf(m) >= mark,
    );
    expect(mail.text).toContain('/set-new-password?user_name=');
    const code = codeIn(mail.text);

    const wrong = await putForgot(server.app, {
      user_name: email,
      password: NEW_PASSWORD,
      verification_code: code === '000000' ? '000001' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      status: 'failure',
      error_code: ERROR_CODES.verificationCodeIncorrect,
      description: MESSAGES.verificationCodeNotValid,
    });

    const reset = await putForgot(server.app, {
      user_name: email,
      password: NEW_PASSWORD,
      verification_code: code,
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ status: 'success', description: MESSAGES.passwordChanged });
    // The reset signs nobody in: no tokens, no cookies.
    expect(reset.headers['set-cookie']).toBeUndefined();

    const oldAccess = await server.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { authorization: before.accesstoken },
    });
    expect(oldAccess.statusCode).toBe(401);
    const oldRefresh = await postLogin(server.app, { refreshtoken: before.refreshtoken });
    expect(oldRefresh.statusCode).toBe(401);

    const oldPassword = await postLogin(server.app, { user_name: email, password: OLD_PASSWORD });
    expect(oldPassword.statusCode).toBe(400);
    await apiLogin(server.app, email, NEW_PASSWORD);

    const reuse = await putForgot(server.app, {
      user_name: email,
      password: 'Another-Quay-88',
      verification_code: code,
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json()).toMatchObject({ description: MESSAGES.verificationCodeNotValid });
  });

  it.each([
    [{ user_name: 'nope' }, MESSAGES.forgotInvalidUsername],
    [{}, MESSAGES.forgotInvalidUsername],
    [{ user_name: 'a@example.org', password: NEW_PASSWORD }, SERVER_MESSAGES.credentialsMissing],
    [
      { user_name: 'a@example.org', verification_code: '123456' },
      SERVER_MESSAGES.credentialsMissing,
    ],
    [
      { user_name: 'a@example.org', password: NEW_PASSWORD, verification_code: '1234567' },
      MESSAGES.verificationCodeNotValid,
    ],
    [
      { user_name: 'a@example.org', password: 'weakpass', verification_code: '123456' },
      MESSAGES.passwordPolicy,
    ],
  ])('refuses %j with the spec message', async (payload, message) => {
    const response = await putForgot(server.app, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: 'failure', description: message });
  });

  it('refuses a common new password', async () => {
    const response = await putForgot(server.app, {
      user_name: uniqueEmail(),
      password: 'Password123',
      verification_code: '123456',
    });
    expect(response.json()).toMatchObject({ description: SERVER_MESSAGES.passwordTooCommon });
  });

  it('refuses an expired code and burns a code after 5 wrong tries with a 429 (S3)', async () => {
    const email = uniqueEmail('expire');
    await signUpVerified(server.app, smtp, email, OLD_PASSWORD);
    let mark = smtp.mails.length;
    await putForgot(server.app, { user_name: email });
    const code = await mailedCode(smtp, email, RESET_MAIL, mark);
    await server.database.db
      .updateTable('verification_codes')
      .set({ expires_at: Math.floor(Date.now() / 1000) - 1 })
      .where('purpose', '=', 'forgot_password')
      .where('subject', '=', email)
      .execute();
    const late = await putForgot(server.app, {
      user_name: email,
      password: NEW_PASSWORD,
      verification_code: code,
    });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ error_code: ERROR_CODES.verificationCodeExpired });

    mark = smtp.mails.length;
    await putForgot(server.app, { user_name: email });
    const fresh = await mailedCode(smtp, email, RESET_MAIL, mark);
    const wrong = fresh === '999999' ? '999998' : '999999';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const response = await putForgot(server.app, {
        user_name: email,
        password: NEW_PASSWORD,
        verification_code: wrong,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    const right = await putForgot(server.app, {
      user_name: email,
      password: NEW_PASSWORD,
      verification_code: fresh,
    });
    expect(right.statusCode).toBe(429);
    await apiLogin(server.app, email, OLD_PASSWORD);
  });

  it('caps code requests per address per hour with the same 429 for known and unknown addresses (S3, S4)', async () => {
    const known = uniqueEmail('flood');
    await signUpVerified(server.app, smtp, known, OLD_PASSWORD);
    const unknown = uniqueEmail('void');
    const last: string[] = [];
    for (const email of [known, unknown]) {
      const statuses: number[] = [];
      let body = '';
      for (let i = 0; i < 6; i += 1) {
        const response = await putForgot(server.app, { user_name: email });
        statuses.push(response.statusCode);
        body = response.body;
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      last.push(body);
    }
    expect(last[0]).toBe(last[1]);
    await server.services.accounts.settle();
    const resetMails = smtp.mails.filter((m) => m.to.includes(known) && RESET_MAIL.test(m.subject));
    expect(resetMails.length).toBe(5);
  });

  /** Moves the reset codes of an address past their expiry. */
  async function expireResetCodes(email: string): Promise<void> {
    await server.database.db
      .updateTable('verification_codes')
      .set({ expires_at: Math.floor(Date.now() / 1000) - 1 })
      .where('purpose', '=', 'forgot_password')
      .where('subject', '=', email)
      .execute();
  }

  it('answers the request, wrong codes, the 429 after 5 and an expired code alike for a known and an unknown address (S3, S4)', async () => {
    const known = uniqueEmail('real');
    await signUpVerified(server.app, smtp, known, OLD_PASSWORD);
    const unknown = uniqueEmail('nobody');
    const guess = (email: string, code = '000000') =>
      putForgot(server.app, { user_name: email, password: NEW_PASSWORD, verification_code: code });
    const request = async () => {
      const answers = [
        await putForgot(server.app, { user_name: known }),
        await putForgot(server.app, { user_name: unknown }),
      ];
      expect(answers[0]?.statusCode).toBe(200);
      expect(answers[1]?.body).toBe(answers[0]?.body);
      await server.services.accounts.settle();
    };

    await request();
    const answers: Record<string, Array<[number, string]>> = { [known]: [], [unknown]: [] };
    for (const email of [known, unknown])
      for (let i = 0; i < 5; i += 1) {
        const response = await guess(email);
        answers[email]?.push([response.statusCode, response.body]);
      }
    expect(answers[known]?.map(([status]) => status)).toEqual([400, 400, 400, 400, 429]);
    expect(answers[unknown]).toEqual(answers[known]);

    await request();
    await expireResetCodes(known);
    await expireResetCodes(unknown);
    const late = [await guess(known, '123456'), await guess(unknown, '123456')];
    expect(late[0]?.statusCode).toBe(400);
    expect(late[0]?.json()).toMatchObject({ error_code: ERROR_CODES.verificationCodeExpired });
    expect(late[1]?.body).toBe(late[0]?.body);
    // Only the owner was mailed.
    expect(smtp.mails.some((m) => m.to.includes(unknown))).toBe(false);
  });

  it('counts at most 5 of 20 parallel wrong codes, so the right code is refused afterwards (S3)', async () => {
    const email = uniqueEmail('burst');
    await signUpVerified(server.app, smtp, email, OLD_PASSWORD);
    const mark = smtp.mails.length;
    await putForgot(server.app, { user_name: email });
    const code = await mailedCode(smtp, email, RESET_MAIL, mark);
    const wrong = code === '999999' ? '999998' : '999999';
    const burst = await Promise.all(
      Array.from({ length: 20 }, () =>
        putForgot(server.app, {
          user_name: email,
          password: NEW_PASSWORD,
          verification_code: wrong,
        }),
      ),
    );
    expect(burst.every((response) => [400, 429].includes(response.statusCode))).toBe(true);
    expect(burst.filter((response) => response.statusCode === 400).length).toBeLessThanOrEqual(4);
    const right = await putForgot(server.app, {
      user_name: email,
      password: NEW_PASSWORD,
      verification_code: code,
    });
    expect(right.statusCode).toBe(429);
    const row = await server.database.db
      .selectFrom('verification_codes')
      .select('attempts')
      .where('purpose', '=', 'forgot_password')
      .where('subject', '=', email)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(5);
    await apiLogin(server.app, email, OLD_PASSWORD);
  });

  it('lets an invited account without a password set its first password with the invitation code and verifies it', async () => {
    const email = uniqueEmail('invited');
    const now = Math.floor(Date.now() / 1000);
    await insertUser(
      server.database.db,
      {
        user_id: `invited-${now}-${Math.random().toString(36).slice(2)}`,
        user_name: email,
        password_hash: null,
        name: '',
        super_admin: 0,
        verified: 0,
        mfa: 0,
        phone_number: null,
        created_at: now,
        updated_at: now,
        password_changed_at: null,
      },
      ['service_engineer_role'],
    );
    // What user administration does for an invitation: a long-lived forgot_password code by mail.
    const code = await server.services.codes.issue('forgot_password', email, 7 * 86400);
    await server.services.messaging.sendMail({
      to: email,
      subject: 'You are invited to Fleetdeck',
      text: `Set your password with code ${code}.`,
      purpose: 'invite',
    });
    const invitation = await smtp.waitForMail(email, (m) => /invited/.test(m.subject));

    const before = await postLogin(server.app, { user_name: email, password: NEW_PASSWORD });
    expect(before.statusCode).toBe(400);
    const set = await putForgot(server.app, {
      user_name: email,
      password: NEW_PASSWORD,
      verification_code: codeIn(invitation.text),
    });
    expect(set.statusCode).toBe(200);
    const user = await server.database.db
      .selectFrom('users')
      .select(['verified', 'password_hash'])
      .where('user_name', '=', email)
      .executeTakeFirstOrThrow();
    expect(user.verified).toBe(1);
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    await apiLogin(server.app, email, NEW_PASSWORD);
  });
});
