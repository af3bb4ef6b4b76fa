import { ERROR_CODES, SERVER_MESSAGES } from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, hotp, totpStep } from '../src/services/auth/totp.js';
import {
  mailedCode,
  postLogin,
  putForgot,
  signUpVerified,
  uniqueEmail,
} from './helpers/accounts.js';
import {
  RecordingSmsProvider,
  codeIn,
  startSmtpCapture,
  type SmtpCapture,
} from './helpers/smtp-capture.js';
import {
  DIALECTS,
  apiLogin,
  cookiesOf,
  createTestServer,
  type TestServer,
} from './helpers/test-server.js';

const PASSWORD = 'Harbour-Lights-42';

interface Challenge {
  status: string;
  description: string;
  session: string;
  challenge: 'sms' | 'totp';
  phone_hint?: string;
}

describe.each(DIALECTS)('MFA sign-in on %s', (dialect) => {
  let server: TestServer;
  let smtp: SmtpCapture;
  const sms = new RecordingSmsProvider();
  // The server's clock for sessions and TOTP steps; tests move it forward by whole steps.
  let offsetMs = 0;
  const now = () => Date.now() + offsetMs;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await createTestServer(dialect, {
      env: { SMTP_URL: smtp.url, MAIL_SENDS_PER_HOUR: '50' },
      sms,
      auth: { clock: now },
    });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  /** A verified account with a verified phone and SMS MFA on; answers its e-mail and phone. */
  async function smsMfaUser(phone: string): Promise<{ email: string; phone: string }> {
    const email = uniqueEmail('mfa');
    await signUpVerified(server.app, smtp, email, PASSWORD);
    const { accesstoken } = await apiLogin(server.app, email, PASSWORD);
    const put = (payload: object) =>
      server.app.inject({
        method: 'PUT',
        url: '/v1/user2',
        payload,
        headers: { authorization: accesstoken },
      });
    const added = await put({ phone_number: phone });
    expect(added.statusCode, added.body).toBe(200);
    await put({ verification_code: codeIn(sms.lastTo(phone) ?? '') });
    expect((await put({ mfa: true })).statusCode).toBe(200);
    return { email, phone };
  }

  async function passwordStep(email: string, browser = false) {
    const response = await server.app.inject({
      method: 'POST',
      url: '/v1/login2',
      payload: { user_name: email, password: PASSWORD },
      headers: browser ? { 'x-fleetdeck-csrf': 'web' } : {},
    });
    expect(response.statusCode, response.body).toBe(200);
    return { response, body: response.json<Challenge>() };
  }

  it('answers a password sign-in of an MFA user with a session and no tokens, texts a code, and the code completes it', async () => {
    const { email, phone } = await smsMfaUser('+919800000001');
    const sent = sms.sent.length;
    const { response, body } = await passwordStep(email, true);
    expect(body).toEqual({
      status: 'success',
      description: SERVER_MESSAGES.mfaSmsSent,
      session: expect.any(String) as string,
      challenge: 'sms',
      phone_hint: '0001',
    });
    expect(body).not.toHaveProperty('accesstoken');
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(sms.sent.length).toBe(sent + 1);
    const code = codeIn(sms.lastTo(phone) ?? '');

    const done = await server.app.inject({
      method: 'POST',
      url: '/v1/login2',
      payload: { user_name: email, verification_code: code, session: body.session },
      headers: { 'x-fleetdeck-csrf': 'web' },
    });
    expect(done.statusCode, done.body).toBe(200);
    const cookies = cookiesOf(done);
    expect(cookies.get('ATK')?.value).toBeTruthy();
    expect(cookies.get('RTK')?.value).toBeTruthy();

    // The step is single use.
    const replay = await postLogin(server.app, {
      user_name: email,
      verification_code: code,
      session: body.session,
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({
      error_code: ERROR_CODES.mfaSessionMissing,
      description: SERVER_MESSAGES.mfaSessionInvalid,
    });
  });

  it('keeps refresh rotation working after an MFA sign-in (S5)', async () => {
    const { email, phone } = await smsMfaUser('+919800000002');
    const { body } = await passwordStep(email);
    const done = await postLogin(server.app, {
      user_name: email,
      verification_code: codeIn(sms.lastTo(phone) ?? ''),
      session: body.session,
    });
    const tokens = done.json<{ accesstoken: string; refreshtoken: string }>();
    expect(tokens.refreshtoken).toBeTruthy();
    const refreshed = await postLogin(server.app, { refreshtoken: tokens.refreshtoken });
    expect(refreshed.statusCode).toBe(200);
    const next = refreshed.json<{ refreshtoken: string; accesstoken: string }>();
    expect(next.refreshtoken).not.toBe(tokens.refreshtoken);
    const user = await server.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { authorization: next.accesstoken },
    });
    expect(user.json()).toMatchObject({ user_name: email, mfa: true });
  });

  it('refuses another user name, another step’s code and an expired step', async () => {
    const { email, phone } = await smsMfaUser('+919800000003');
    const first = (await passwordStep(email)).body;
    const firstCode = codeIn(sms.lastTo(phone) ?? '');
    const second = (await passwordStep(email)).body;
    const secondCode = codeIn(sms.lastTo(phone) ?? '');

    const otherUser = await postLogin(server.app, {
      user_name: 'someone.else@example.org',
      verification_code: firstCode,
      session: first.session,
    });
    expect(otherUser.json()).toMatchObject({ error_code: ERROR_CODES.mfaSessionMissing });

    if (firstCode !== secondCode) {
      const crossed = await postLogin(server.app, {
        user_name: email,
        verification_code: firstCode,
        session: second.session,
      });
      expect(crossed.statusCode).toBe(400);
      expect(crossed.json()).toMatchObject({ error_code: ERROR_CODES.verificationCodeIncorrect });
    }

    const hash = await server.database.db
      .selectFrom('mfa_challenges')
      .select(['challenge_hash', 'created_at', 'expires_at'])
      .orderBy('created_at', 'desc')
      .execute();
    for (const row of hash)
      expect(Number(row.expires_at) - Number(row.created_at)).toBeLessThanOrEqual(600);
    await server.database.db
      .updateTable('mfa_challenges')
      .set({ expires_at: Math.floor(now() / 1000) - 1 })
      .execute();
    const expired = await postLogin(server.app, {
      user_name: email,
      verification_code: secondCode,
      session: second.session,
    });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ description: SERVER_MESSAGES.mfaSessionInvalid });
  });

  it('burns the step after 5 wrong codes with a 429, so the right code no longer completes it (S3)', async () => {
    const { email, phone } = await smsMfaUser('+919800000004');
    const { body } = await passwordStep(email);
    const code = codeIn(sms.lastTo(phone) ?? '');
    const wrong = code === '999999' ? '999998' : '999999';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const response = await postLogin(server.app, {
        user_name: email,
        verification_code: wrong,
        session: body.session,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    const right = await postLogin(server.app, {
      user_name: email,
      verification_code: code,
      session: body.session,
    });
    // The burnt step is gone: back to the password.
    expect(right.statusCode).toBe(400);
    expect(right.json()).toMatchObject({ description: SERVER_MESSAGES.mfaSessionInvalid });
  });

  it('counts at most 5 of 20 parallel wrong codes on one step, so the right code is refused afterwards (S3)', async () => {
    const { email, phone } = await smsMfaUser('+919800000006');
    const { body } = await passwordStep(email);
    const code = codeIn(sms.lastTo(phone) ?? '');
    const wrong = code === '999999' ? '999998' : '999999';
    const burst = await Promise.all(
      Array.from({ length: 20 }, () =>
        postLogin(server.app, {
          user_name: email,
          verification_code: wrong,
          session: body.session,
        }),
      ),
    );
    expect(burst.every((response) => [400, 429].includes(response.statusCode))).toBe(true);
    expect(burst.some((response) => response.statusCode === 200)).toBe(false);
    const right = await postLogin(server.app, {
      user_name: email,
      verification_code: code,
      session: body.session,
    });
    expect(right.statusCode).toBe(400);
    expect(right.json()).toMatchObject({ description: SERVER_MESSAGES.mfaSessionInvalid });
    expect(right.json()).not.toHaveProperty('accesstoken');
    const step = await server.database.db
      .selectFrom('mfa_challenges')
      .innerJoin('users', 'users.user_id', 'mfa_challenges.user_id')
      .select('mfa_challenges.attempts')
      .where('users.user_name', '=', email)
      .executeTakeFirstOrThrow();
    expect(step.attempts).toBe(5);
  });

  it('checks at most the account limit of 15 parallel wrong codes spread over three steps', async () => {
    const { email, phone } = await smsMfaUser('+919800000007');
    // Each right password clears the account's window, so three steps start from none.
    const sessions: string[] = [];
    const codes = new Set<string>();
    for (let i = 0; i < 3; i++) {
      sessions.push((await passwordStep(email)).body.session);
      codes.add(codeIn(sms.lastTo(phone) ?? ''));
    }
    const wrong = ['000000', '000001', '000002', '000003'].find((code) => !codes.has(code));
    const burst = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        server.app.inject({
          method: 'POST',
          url: '/v1/login2',
          remoteAddress: `10.30.0.${i}`,
          payload: { user_name: email, verification_code: wrong, session: sessions[i % 3] },
        }),
      ),
    );
    const checked = burst.filter((response) => response.statusCode !== 429);
    expect(checked.length, String(burst.map((r) => r.statusCode))).toBeLessThanOrEqual(5);
    for (const response of checked)
      expect(response.json()).toMatchObject({ error_code: ERROR_CODES.verificationCodeIncorrect });
    const locked = await server.app.inject({
      method: 'POST',
      url: '/v1/login2',
      remoteAddress: '10.30.1.1',
      payload: { user_name: email, password: PASSWORD },
    });
    expect(locked.statusCode).toBe(429);
  });

  it('still asks for the second factor after a password reset (ASVS 6.4.3)', async () => {
    const { email } = await smsMfaUser('+919800000005');
    const mark = smtp.mails.length;
    await putForgot(server.app, { user_name: email });
    const code = await mailedCode(smtp, email, /reset/i, mark);
    const newPassword = 'Lantern-Quay-77';
    await putForgot(server.app, {
      user_name: email,
      password: newPassword,
      verification_code: code,
    });
    const login = await postLogin(server.app, { user_name: email, password: newPassword });
    expect(login.json()).toMatchObject({ challenge: 'sms' });
    expect(login.json()).not.toHaveProperty('accesstoken');
  });

  describe('authenticator app', () => {
    let email: string;
    let token: string;
    let secret: Buffer;
    /** The code that confirmed the enrolment: spent, whenever the next test replays it. */
    let confirmedCode = '';
    const code = (stepOffset = 0) => hotp(secret, totpStep(now()) + stepOffset);
    const call = (method: 'POST' | 'PUT' | 'DELETE', payload?: object) =>
      server.app.inject({
        method,
        url: '/v1/user2/totp',
        headers: { authorization: token },
        ...(payload ? { payload } : {}),
      });

    beforeAll(async () => {
      ({ email } = await smsMfaUser('+919800000010'));
      // Sign in through the SMS step to get a session for enrolment.
      const { body } = await passwordStep(email);
      const done = await postLogin(server.app, {
        user_name: email,
        verification_code: codeIn(sms.lastTo('+919800000010') ?? ''),
        session: body.session,
      });
      token = done.json<{ accesstoken: string }>().accesstoken;
    });

    it('enrols with a secret, an otpauth URI and a QR code, confirmed by a code from the app', async () => {
      const begun = await call('POST');
      expect(begun.statusCode).toBe(200);
      const body = begun.json<{ secret: string; otpauth_uri: string; qr_code: string }>();
      expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(body.otpauth_uri).toContain(`secret=${body.secret}`);
      expect(body.otpauth_uri).toMatch(/^otpauth:\/\/totp\/Fleetdeck%3A/);
      expect(body.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(Buffer.from(body.qr_code.split(',')[1] ?? '', 'base64').toString()).toContain('<svg');
      secret = base32Decode(body.secret);

      const wrong = await call('PUT', { code: code(5) });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({ description: SERVER_MESSAGES.totpCodeInvalid });

      confirmedCode = code();
      const confirmed = await call('PUT', { code: confirmedCode });
      expect(confirmed.statusCode).toBe(200);
      const codes = confirmed.json<{ recovery_codes: string[] }>().recovery_codes;
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      // Stored only hashed.
      const stored = await server.database.db
        .selectFrom('mfa_recovery_codes')
        .select('code_hash')
        .execute();
      for (const value of codes)
        expect(stored.some((row) => row.code_hash.includes(value.replace('-', '')))).toBe(false);

      const me = await server.app.inject({
        method: 'GET',
        url: '/v1/user2',
        headers: { authorization: token },
      });
      expect(me.json()).toMatchObject({ totp_enabled: true });
      const again = await call('POST');
      expect(again.json()).toMatchObject({ description: SERVER_MESSAGES.totpAlreadyEnabled });
      (globalThis as { recovery?: string[] }).recovery = codes;
    });

    it('asks for the app code instead of an SMS, refuses a replayed code and accepts the next step', async () => {
      const texts = sms.sent.length;
      const { body } = await passwordStep(email);
      expect(body).toMatchObject({
        challenge: 'totp',
        description: SERVER_MESSAGES.mfaTotpRequired,
      });
      expect(sms.sent.length).toBe(texts);

      // The code of the step used for the confirmation is spent. The very code is replayed: a
      // fresh code() would be the next step's when a slow run crosses a 30 s boundary here.
      const replay = await postLogin(server.app, {
        user_name: email,
        verification_code: confirmedCode,
        session: body.session,
      });
      expect(replay.statusCode).toBe(400);
      expect(replay.json()).toMatchObject({ error_code: ERROR_CODES.verificationCodeIncorrect });

      offsetMs += 30_000;
      const ok = await postLogin(server.app, {
        user_name: email,
        verification_code: code(),
        session: body.session,
      });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toHaveProperty('accesstoken');

      const second = (await passwordStep(email)).body;
      const sameCode = await postLogin(server.app, {
        user_name: email,
        verification_code: code(),
        session: second.session,
      });
      expect(sameCode.statusCode).toBe(400);
    });

    it('accepts each recovery code once', async () => {
      const codes = (globalThis as { recovery?: string[] }).recovery ?? [];
      const recovery = codes[0] ?? '';
      const first = (await passwordStep(email)).body;
      const used = await postLogin(server.app, {
        user_name: email,
        verification_code: recovery.toUpperCase(),
        session: first.session,
      });
      expect(used.statusCode, used.body).toBe(200);
      const second = (await passwordStep(email)).body;
      const reused = await postLogin(server.app, {
        user_name: email,
        verification_code: recovery,
        session: second.session,
      });
      expect(reused.statusCode).toBe(400);
    });

    it('removes the app only with a current code; sign-in then falls back to SMS', async () => {
      offsetMs += 30_000;
      const refused = await call('DELETE', { code: code(-3) });
      expect(refused.json()).toMatchObject({ description: SERVER_MESSAGES.totpCodeInvalid });
      const removed = await call('DELETE', { code: code() });
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json()).toMatchObject({ description: SERVER_MESSAGES.totpDisabled });
      const left = await server.database.db
        .selectFrom('mfa_recovery_codes')
        .select('code_hash')
        .execute();
      expect(left).toHaveLength(0);
      const { body } = await passwordStep(email);
      expect(body.challenge).toBe('sms');
    });
  });

  describe('limits on codes a signed-in user types', () => {
    // Tokens are checked against the real time: start these fresh users without the offset.
    beforeAll(() => {
      offsetMs = 0;
    });

    /** A fresh SMS-MFA user signed in through the SMS step; answers its token and a code maker. */
    async function signedIn(phone: string) {
      const { email } = await smsMfaUser(phone);
      const { body } = await passwordStep(email);
      const done = await postLogin(server.app, {
        user_name: email,
        verification_code: codeIn(sms.lastTo(phone) ?? ''),
        session: body.session,
      });
      const token = done.json<{ accesstoken: string }>().accesstoken;
      const call = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
        server.app.inject({
          method,
          url,
          headers: { authorization: token },
          ...(payload ? { payload } : {}),
        });
      const begun = await call('POST', '/v1/user2/totp');
      const secret = base32Decode(begun.json<{ secret: string }>().secret);
      const code = (stepOffset = 0) => hotp(secret, totpStep(now()) + stepOffset);
      return { call, code };
    }

    it('answers 429 at the fifth wrong authenticator code during set-up, and refuses even the right one then (S3)', async () => {
      const { call, code } = await signedIn('+919800000020');
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1)
        statuses.push((await call('PUT', '/v1/user2/totp', { code: code(10 + i) })).statusCode);
      expect(statuses).toEqual([400, 400, 400, 400, 429]);
      const right = await call('PUT', '/v1/user2/totp', { code: code() });
      expect(right.statusCode).toBe(429);
      expect(right.json()).toMatchObject({ error_code: ERROR_CODES.tooManyRequests });
    });

    it('counts at most 5 of 20 parallel wrong codes when removing the app (S3)', async () => {
      const { call, code } = await signedIn('+919800000021');
      expect((await call('PUT', '/v1/user2/totp', { code: code() })).statusCode).toBe(200);
      const burst = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call('DELETE', '/v1/user2/totp', { code: code(10 + (i % 5)) }),
        ),
      );
      expect(burst.filter((response) => response.statusCode === 400)).toHaveLength(4);
      expect(burst.filter((response) => response.statusCode === 429)).toHaveLength(16);
      // The next step's code would be accepted, but the user has no try left.
      const right = await call('DELETE', '/v1/user2/totp', { code: code(1) });
      expect(right.statusCode).toBe(429);
      const me = await call('GET' as 'POST', '/v1/user2');
      expect(me.json()).toMatchObject({ totp_enabled: true });
    });

    it('turns SMS MFA off with a current authenticator code instead of the password', async () => {
      const { call, code } = await signedIn('+919800000022');
      expect((await call('PUT', '/v1/user2/totp', { code: code() })).statusCode).toBe(200);
      const wrong = await call('PUT', '/v1/user2', { mfa: false, code: code(7) });
      expect(wrong.json()).toMatchObject({ description: SERVER_MESSAGES.totpCodeInvalid });
      const off = await call('PUT', '/v1/user2', { mfa: false, code: code(1) });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json()).toMatchObject({ description: SERVER_MESSAGES.mfaDisabled });
    });
  });
});
