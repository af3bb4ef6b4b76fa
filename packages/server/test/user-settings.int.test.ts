import { ERROR_CODES, MESSAGES, SERVER_MESSAGES } from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified, uniqueEmail } from './helpers/accounts.js';
import {
  RecordingSmsProvider,
  codeIn,
  startSmtpCapture,
  type SmtpCapture,
} from './helpers/smtp-capture.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

const PASSWORD = 'Harbour-Lights-42';

describe.each(DIALECTS)('user settings on %s', (dialect) => {
  let server: TestServer;
  let smtp: SmtpCapture;
  const sms = new RecordingSmsProvider();
  let token: string;

  const put = (payload: object, path = '/v1/user2') =>
    server.app.inject({ method: 'PUT', url: path, payload, headers: { authorization: token } });
  const me = async () =>
    (
      await server.app.inject({
        method: 'GET',
        url: '/v1/user2',
        headers: { authorization: token },
      })
    ).json<Record<string, unknown>>();

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await createTestServer(dialect, { env: { SMTP_URL: smtp.url }, sms });
    const email = uniqueEmail('settings');
    await signUpVerified(server.app, smtp, email, PASSWORD);
    token = (await apiLogin(server.app, email, PASSWORD)).accesstoken;
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('reports no phone, MFA off and no authenticator app for a new account', async () => {
    expect(await me()).toMatchObject({
      mfa: false,
      phone_number: null,
      pending_phone_number: null,
      totp_enabled: false,
    });
  });

  it('refuses to turn MFA on before a phone is added, with the spec message', async () => {
    const response = await put({ mfa: true });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      status: 'failure',
      error_code: ERROR_CODES.phoneMissing,
      description: MESSAGES.addPhoneFirst,
    });
  });

  it.each([
    [{}, SERVER_MESSAGES.userNothingToUpdate],
    [{ name: 'A', mfa: true }, SERVER_MESSAGES.userOneUpdateOnly],
    [{ phone_number: '9876543210' }, MESSAGES.invalidPhone],
    [{ phone_number: '+91 98765' }, MESSAGES.invalidPhone],
    [{ verification_code: '' }, MESSAGES.enterVerificationCode],
    [{ verification_code: '12345' }, MESSAGES.verificationCodeNotValid],
    [{ name: '' }, SERVER_MESSAGES.userNameInvalid],
    [{ name: 'x'.repeat(257) }, SERVER_MESSAGES.userNameInvalid],
  ])('refuses %j', async (payload, message) => {
    const response = await put(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ description: message });
  });

  it('answers a verification code without a pending phone with "phone not added"', async () => {
    const response = await put({ verification_code: '123456' });
    expect(response.json()).toMatchObject({ error_code: ERROR_CODES.phoneMissing });
  });

  it('adds a phone with country code, texts a code, verifies it, then allows MFA on and off', async () => {
    const phone = '+919876543210';
    const added = await put({ phone_number: phone });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ status: 'success', description: MESSAGES.phoneNumberAdded });
    const text = sms.lastTo(phone);
    expect(text).toBeDefined();
    const code = codeIn(text ?? '');
    expect(await me()).toMatchObject({ phone_number: null, pending_phone_number: phone });

    const stillOff = await put({ mfa: true });
    expect(stillOff.json()).toMatchObject({ description: MESSAGES.addPhoneFirst });

    const wrong = await put({ verification_code: code === '000000' ? '000001' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error_code: ERROR_CODES.verificationCodeIncorrect });

    const verified = await put({ verification_code: code }, '/v1/user');
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({
      status: 'success',
      description: MESSAGES.phoneNumberVerified,
    });
    expect(await me()).toMatchObject({ phone_number: phone, pending_phone_number: null });

    const again = await put({ verification_code: code });
    expect(again.json()).toMatchObject({ error_code: ERROR_CODES.phoneAlreadyVerified });

    const on = await put({ mfa: true });
    expect(on.json()).toEqual({ status: 'success', description: SERVER_MESSAGES.mfaEnabled });
    expect(await me()).toMatchObject({ mfa: true });
    // Turning MFA off weakens sign-in: it needs the password in the same request.
    const bare = await put({ mfa: false });
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toEqual({
      status: 'failure',
      error_code: ERROR_CODES.credentialsMissing,
      description: MESSAGES.mfaOffNeedsProof,
    });
    const wrongPassword = await put({ mfa: false, password: 'Not-The-Password-1' });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json()).toMatchObject({
      error_code: ERROR_CODES.currentPasswordWrong,
      description: SERVER_MESSAGES.currentPasswordWrong,
    });
    expect(await me()).toMatchObject({ mfa: true });
    const off = await put({ mfa: false, password: PASSWORD });
    expect(off.json()).toEqual({ status: 'success', description: SERVER_MESSAGES.mfaDisabled });
    expect(await me()).toMatchObject({ mfa: false });
  });

  /** A new verified account with its own access token. */
  async function freshAccount(prefix: string): Promise<string> {
    const email = uniqueEmail(prefix);
    await signUpVerified(server.app, smtp, email, PASSWORD);
    return (await apiLogin(server.app, email, PASSWORD)).accesstoken;
  }

  const putAs = (accessToken: string, payload: object) =>
    server.app.inject({
      method: 'PUT',
      url: '/v1/user2',
      payload,
      headers: { authorization: accessToken },
    });

  it('refuses turning MFA off after 5 wrong passwords with a 429, even with the right one (S3)', async () => {
    const own = await freshAccount('mfa-off');
    const phone = '+447700900123';
    await putAs(own, { phone_number: phone });
    await putAs(own, { verification_code: codeIn(sms.lastTo(phone) ?? '') });
    expect((await putAs(own, { mfa: true })).statusCode).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1)
      statuses.push((await putAs(own, { mfa: false, password: `Wrong-Guess-${i}x` })).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    const right = await putAs(own, { mfa: false, password: PASSWORD });
    expect(right.statusCode).toBe(429);
    expect(right.json()).toMatchObject({ error_code: ERROR_CODES.tooManyRequests });
  });

  it('caps the texts one account sends to verify phone numbers, and texts nothing past the cap (S3)', async () => {
    const own = await freshAccount('sms-cap');
    // MAIL_SENDS_PER_HOUR is 10 here; each number is new, so only the per-account cap applies.
    const numbers = Array.from({ length: 12 }, (_, i) => `+3161234${String(i).padStart(4, '0')}`);
    const statuses: number[] = [];
    for (const phone_number of numbers)
      statuses.push((await putAs(own, { phone_number })).statusCode);
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429, 429]);
    expect(sms.sent.filter((text) => numbers.includes(text.to))).toHaveLength(10);
    expect(sms.lastTo(numbers[10] ?? '')).toBeUndefined();
  });

  it('keeps the verified phone until a new number is confirmed', async () => {
    const before = (await me()).phone_number;
    expect(before).toBe('+919876543210');
    await put({ phone_number: '+14155550123' });
    expect(await me()).toMatchObject({
      phone_number: before,
      pending_phone_number: '+14155550123',
    });
    const code = codeIn(sms.lastTo('+14155550123') ?? '');
    await put({ verification_code: code });
    expect(await me()).toMatchObject({ phone_number: '+14155550123', pending_phone_number: null });
  });

  it('renames the user', async () => {
    const response = await put({ name: 'Ana Quay' });
    expect(response.json()).toEqual({
      status: 'success',
      description: SERVER_MESSAGES.userUpdated,
    });
    expect(await me()).toMatchObject({ name: 'Ana Quay' });
  });

  it('needs a session', async () => {
    const response = await server.app.inject({
      method: 'PUT',
      url: '/v1/user2',
      payload: { name: 'x' },
    });
    expect(response.statusCode).toBe(401);
  });
});
