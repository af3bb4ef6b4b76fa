import { ERROR_CODES, MESSAGES, SERVER_MESSAGES } from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mailedCode,
  postLogin,
  postUser,
  signUpVerified,
  uniqueEmail,
} from './helpers/accounts.js';
import { codeIn, startSmtpCapture, type SmtpCapture } from './helpers/smtp-capture.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  DIALECTS,
  apiLogin,
  createTestServer,
  type TestServer,
} from './helpers/test-server.js';

const PASSWORD = 'Harbour-Lights-42';
const CODE_MAIL = /verification code/i;

describe.each(DIALECTS)('sign-up and verification on %s', (dialect) => {
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

  it('creates an unverified user account, mails a code over SMTP and verifies it with that code', async () => {
    const email = uniqueEmail('new');
    const created = await postUser(server.app, { user_name: email, password: PASSWORD });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      status: 'success',
      description: SERVER_MESSAGES.signUpCodeSent,
    });

    const mail = await smtp.waitForMail(email, (m) => CODE_MAIL.test(m.subject));
    expect(mail.user).toBe('fleetdeck');
    const code = codeIn(mail.text);

    const early = await postLogin(server.app, { user_name: email, password: PASSWORD });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({ error_code: ERROR_CODES.accountNotVerified });

    const wrong = await postUser(server.app, {
      user_name: email,
      verification_code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      status: 'failure',
      error_code: ERROR_CODES.verificationCodeIncorrect,
      description: SERVER_MESSAGES.verificationCodeIncorrect,
    });

    const verified = await postUser(server.app, { user_name: email, verification_code: code });
    expect(verified.statusCode).toBe(201);
    expect(verified.json()).toEqual({ status: 'success', description: MESSAGES.userVerified });

    // A verified address answers like any wrong code: no hint that the account exists (S4).
    const again = await postUser(server.app, { user_name: email, verification_code: code });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      status: 'failure',
      error_code: ERROR_CODES.verificationCodeIncorrect,
      description: SERVER_MESSAGES.verificationCodeIncorrect,
    });

    const tokens = await apiLogin(server.app, email, PASSWORD);
    const me = await server.app.inject({
      method: 'GET',
      url: '/v1/user2',
      headers: { authorization: tokens.accesstoken },
    });
    expect(me.json()).toMatchObject({
      user_name: email,
      user_role: ['user'],
      super_admin: false,
      mfa: false,
      phone_number: null,
      totp_enabled: false,
    });
  });

  it('offers the same flow on /v1/user2', async () => {
    const email = uniqueEmail('two');
    const created = await postUser(
      server.app,
      { user_name: email, password: PASSWORD },
      '/v1/user2',
    );
    expect(created.statusCode).toBe(201);
    const code = await mailedCode(smtp, email, CODE_MAIL);
    const verified = await postUser(
      server.app,
      { user_name: email, verification_code: code },
      '/v1/user2',
    );
    expect(verified.statusCode).toBe(201);
    await apiLogin(server.app, email, PASSWORD);
  });

  it.each([
    [{ user_name: 'not-an-email', password: PASSWORD }, MESSAGES.invalidEmail],
    [{ user_name: `${'a'.repeat(60)}@x.io`, password: PASSWORD }, MESSAGES.invalidEmail],
    [{ password: PASSWORD }, MESSAGES.invalidEmail],
    [{ user_name: 'a@example.org', password: 'short1A' }, MESSAGES.passwordPolicy],
    [{ user_name: 'a@example.org', password: 'alllowercase1' }, MESSAGES.passwordPolicy],
    [{ user_name: 'a@example.org', password: 'ALLUPPERCASE1' }, MESSAGES.passwordPolicy],
    [{ user_name: 'a@example.org', password: 'NoDigitsHere' }, MESSAGES.passwordPolicy],
    [{ user_name: 'a@example.org', password: `Aa1${'x'.repeat(62)}` }, MESSAGES.passwordPolicy],
    [{ user_name: 'a@example.org' }, SERVER_MESSAGES.credentialsMissing],
    [
      { user_name: 'a@example.org', password: PASSWORD, verification_code: '123456' },
      SERVER_MESSAGES.credentialsMissing,
    ],
    [{ user_name: 'a@example.org', verification_code: '' }, MESSAGES.enterVerificationCode],
    [{ user_name: 'a@example.org', verification_code: '12345' }, MESSAGES.verificationCodeNotValid],
    [
      { user_name: 'a@example.org', verification_code: '12a456' },
      MESSAGES.verificationCodeNotValid,
    ],
  ])('refuses %j with the spec message', async (payload, message) => {
    const response = await postUser(server.app, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: 'failure', description: message });
  });

  it('refuses a common password and one built from the address', async () => {
    for (const password of ['Password123', 'Qwerty123']) {
      const response = await postUser(server.app, { user_name: uniqueEmail(), password });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ description: SERVER_MESSAGES.passwordTooCommon });
    }
    const own = await postUser(server.app, {
      user_name: 'harbourmaster@example.org',
      password: 'Harbourmaster9',
    });
    expect(own.json()).toMatchObject({ description: SERVER_MESSAGES.passwordTooCommon });
  });

  it('answers a sign-up with an existing address exactly like a new one and mails the owner a notice (S4)', async () => {
    const fresh = await postUser(server.app, {
      user_name: uniqueEmail('fresh'),
      password: PASSWORD,
    });
    const existing = await postUser(server.app, { user_name: ADMIN_EMAIL, password: PASSWORD });
    expect(existing.statusCode).toBe(fresh.statusCode);
    expect(existing.body).toBe(fresh.body);
    expect(existing.headers['content-type']).toBe(fresh.headers['content-type']);

    const notice = await smtp.waitForMail(ADMIN_EMAIL, (m) => /tried to sign up/i.test(m.subject));
    expect(notice.text).toContain('already');
    expect(notice.text).not.toMatch(/\b\d{6}\b/);
    // Nothing changed: the owner's password still works and the sign-up's does not.
    await apiLogin(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const attacker = await postLogin(server.app, { user_name: ADMIN_EMAIL, password: PASSWORD });
    expect(attacker.statusCode).toBe(400);
  });

  it('mails a new code when an unverified sign-up is repeated with its password; the older code is void', async () => {
    const email = uniqueEmail('resend');
    await postUser(server.app, { user_name: email, password: PASSWORD });
    const first = await mailedCode(smtp, email, CODE_MAIL);
    const before = smtp.mails.length;
    const resend = await postUser(server.app, { user_name: email, password: PASSWORD });
    expect(resend.statusCode).toBe(201);
    const second = await mailedCode(smtp, email, CODE_MAIL, before);
    if (first !== second) {
      const old = await postUser(server.app, { user_name: email, verification_code: first });
      expect(old.json()).toMatchObject({ error_code: ERROR_CODES.verificationCodeIncorrect });
    }
    const ok = await postUser(server.app, { user_name: email, verification_code: second });
    expect(ok.statusCode).toBe(201);
  });

  it('burns a code after 5 wrong tries with a 429, so even the right code then fails (S3)', async () => {
    const email = uniqueEmail('guess');
    await postUser(server.app, { user_name: email, password: PASSWORD });
    const code = await mailedCode(smtp, email, CODE_MAIL);
    const wrong = code === '999999' ? '999998' : '999999';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      statuses.push(
        (await postUser(server.app, { user_name: email, verification_code: wrong })).statusCode,
      );
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    const right = await postUser(server.app, { user_name: email, verification_code: code });
    expect(right.statusCode).toBe(429);
    expect(right.json()).toMatchObject({
      error_code: ERROR_CODES.verificationCodeAttempts,
      description: SERVER_MESSAGES.verificationCodeAttempts,
    });
  });

  it('issues codes that live at most 10 minutes and refuses an expired one (S3)', async () => {
    const email = uniqueEmail('expiry');
    await postUser(server.app, { user_name: email, password: PASSWORD });
    const code = await mailedCode(smtp, email, CODE_MAIL);
    const db = server.database.db;
    const row = await db
      .selectFrom('verification_codes')
      .select(['created_at', 'expires_at'])
      .where('purpose', '=', 'sign_up')
      .where('subject', '=', email)
      .executeTakeFirstOrThrow();
    expect(Number(row.expires_at) - Number(row.created_at)).toBeLessThanOrEqual(600);
    await expireCodes(email);
    const late = await postUser(server.app, { user_name: email, verification_code: code });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({
      error_code: ERROR_CODES.verificationCodeExpired,
      description: SERVER_MESSAGES.verificationCodeExpired,
    });
  });

  /** Five wrong codes for an address: the status and body of each answer. */
  async function fiveWrongGuesses(email: string): Promise<Array<[number, string]>> {
    const answers: Array<[number, string]> = [];
    for (let i = 0; i < 5; i += 1) {
      const response = await postUser(server.app, {
        user_name: email,
        verification_code: '000000',
      });
      answers.push([response.statusCode, response.body]);
    }
    return answers;
  }

  /** Moves the sign-up codes of an address past their expiry. */
  async function expireCodes(email: string): Promise<void> {
    await server.database.db
      .updateTable('verification_codes')
      .set({ expires_at: Math.floor(Date.now() / 1000) - 1 })
      .where('purpose', '=', 'sign_up')
      .where('subject', '=', email)
      .execute();
  }

  it('answers codes for a verified and a never-seen address alike: wrong, then 429 after 5 (S3, S4)', async () => {
    const known = uniqueEmail('verified');
    await signUpVerified(server.app, smtp, known, PASSWORD);
    const ghost = uniqueEmail('ghost');
    const forKnown = await fiveWrongGuesses(known);
    const forGhost = await fiveWrongGuesses(ghost);
    expect(forKnown.map(([status]) => status)).toEqual([400, 400, 400, 400, 429]);
    expect(forGhost).toEqual(forKnown);
    expect(JSON.parse(forGhost[4]?.[1] ?? '{}')).toMatchObject({
      error_code: ERROR_CODES.verificationCodeAttempts,
    });
  });

  it('after a sign-up with an existing and with a new address, counts and expires codes alike (S3, S4)', async () => {
    const known = uniqueEmail('taken');
    await signUpVerified(server.app, smtp, known, PASSWORD);
    const fresh = uniqueEmail('fresh');
    const request = async () => {
      const answers = [
        await postUser(server.app, { user_name: known, password: PASSWORD }),
        await postUser(server.app, { user_name: fresh, password: PASSWORD }),
      ];
      expect(answers[0]?.statusCode).toBe(201);
      expect(answers[1]?.body).toBe(answers[0]?.body);
      await server.services.accounts.settle();
    };

    await request();
    const forKnown = await fiveWrongGuesses(known);
    expect(forKnown.map(([status]) => status)).toEqual([400, 400, 400, 400, 429]);
    expect(await fiveWrongGuesses(fresh)).toEqual(forKnown);

    await request();
    await expireCodes(known);
    await expireCodes(fresh);
    const late = [
      await postUser(server.app, { user_name: known, verification_code: '123456' }),
      await postUser(server.app, { user_name: fresh, verification_code: '123456' }),
    ];
    expect(late[0]?.statusCode).toBe(400);
    expect(late[0]?.json()).toMatchObject({ error_code: ERROR_CODES.verificationCodeExpired });
    expect(late[1]?.body).toBe(late[0]?.body);
  });

  it('answers a code for an unknown address like a wrong code', async () => {
    const response = await postUser(server.app, {
      user_name: uniqueEmail('nobody'),
      verification_code: '123456',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error_code: ERROR_CODES.verificationCodeIncorrect });
  });

  it('caps sign-ups per address per hour with the same 429 for new and existing addresses (S3, S4)', async () => {
    const unknown = uniqueEmail('flood');
    const answers: Array<[number, string]> = [];
    for (const email of [unknown, ADMIN_EMAIL]) {
      const statuses: number[] = [];
      let last = '';
      for (let i = 0; i < 7; i += 1) {
        const response = await postUser(server.app, { user_name: email, password: PASSWORD });
        statuses.push(response.statusCode);
        last = response.body;
      }
      // The admin address already used one request in the enumeration test above.
      expect(statuses.slice(-2)).toEqual([429, 429]);
      answers.push([statuses.at(-1) ?? 0, last]);
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(JSON.parse(answers[0]?.[1] ?? '{}')).toMatchObject({
      error_code: ERROR_CODES.tooManyRequests,
    });
    // Nothing is mailed past the cap: at most 5 mails per address in the hour.
    await server.services.accounts.settle();
    expect(smtp.mails.filter((m) => m.to.includes(unknown)).length).toBeLessThanOrEqual(5);
  });
});

describe('sign-up in a customer deployment', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer('sqlite', { env: { DEPLOYMENT_MODE: 'customer' } });
  });
  afterAll(async () => server.close());

  it('is refused on both paths, and the deployment info says sign-up is off', async () => {
    for (const path of ['/v1/user', '/v1/user2']) {
      const response = await postUser(
        server.app,
        { user_name: uniqueEmail(), password: PASSWORD },
        path,
      );
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ description: SERVER_MESSAGES.signUpDisabled });
    }
    const info = await server.app.inject({ method: 'GET', url: '/v1/deployment_info' });
    expect(info.json()).toMatchObject({ sign_up_enabled: false, deployment_mode: 'customer' });
  });
});
