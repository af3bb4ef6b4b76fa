import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  DIALECTS,
  apiLogin,
  createTestServer,
  type TestServer,
} from './helpers/test-server.js';
import {
  RecordingSmsProvider,
  codeIn,
  startSmtpCapture,
  type SmtpCapture,
} from './helpers/smtp-capture.js';

describe.each(DIALECTS)('messaging on %s', (dialect) => {
  describe('with SMTP configured', () => {
    let server: TestServer;
    let smtp: SmtpCapture;
    let token: string;
    const sms = new RecordingSmsProvider();

    beforeAll(async () => {
      smtp = await startSmtpCapture();
      server = await createTestServer(dialect, {
        env: {
          SMTP_URL: smtp.url,
          MAIL_FROM: 'Fleet Ops <ops@fleetdeck.test>',
          MAIL_SENDS_PER_HOUR: '3',
        },
        sms,
      });
      token = (await apiLogin(server.app, ADMIN_EMAIL, ADMIN_PASSWORD)).accesstoken;
    });
    afterAll(async () => {
      await server.close();
      await smtp.close();
    });

    it('delivers over SMTP with login and records the delivery', async () => {
      const { messaging } = server.services;
      await messaging.sendMail({
        to: 'Engineer@Example.com',
        subject: 'Your code',
        text: 'Use 123456 to continue.',
        purpose: 'test',
      });
      const mail = await smtp.waitForMail('engineer@example.com');
      expect(mail.user).toBe('fleetdeck');
      expect(mail.from).toContain('ops@fleetdeck.test');
      expect(mail.subject).toBe('Your code');
      expect(codeIn(mail.text)).toBe('123456');
      const response = await server.app.inject({
        method: 'GET',
        url: '/v1/admin/outbox?channel=email',
        headers: { authorization: token },
      });
      expect(response.statusCode).toBe(200);
      const body = response.json<{
        smtp_configured: boolean;
        messages: Array<Record<string, unknown>>;
      }>();
      expect(body.smtp_configured).toBe(true);
      expect(body.messages[0]).toMatchObject({
        recipient: 'engineer@example.com',
        transport: 'smtp',
        error: null,
      });
      expect(body.messages[0]?.delivered_at).toEqual(expect.any(Number));
    });

    it('caps sends per recipient per hour with 429', async () => {
      const { messaging } = server.services;
      const send = () =>
        messaging.sendMail({ to: 'capped@example.com', subject: 's', text: 't', purpose: 'test' });
      await send();
      await send();
      await send();
      await expect(send()).rejects.toMatchObject({ statusCode: 429 });
      // Another recipient is not affected.
      await expect(
        messaging.sendMail({ to: 'other@example.com', subject: 's', text: 't', purpose: 'test' }),
      ).resolves.toBeUndefined();
    });

    it('lets no more than the cap through when sends to one recipient run in parallel (S3)', async () => {
      const { messaging } = server.services;
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          messaging.sendMail({
            to: 'parallel@example.com',
            subject: `s${i}`,
            text: 't',
            purpose: 'test',
          }),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
      for (const outcome of outcomes.filter((o) => o.status === 'rejected'))
        expect(outcome.reason).toMatchObject({ statusCode: 429 });
      expect(smtp.mails.filter((m) => m.to.includes('parallel@example.com'))).toHaveLength(3);
    });

    it('caps what is sent on behalf of one account, to any recipients, and sends nothing past it (S3)', async () => {
      const { messaging } = server.services;
      const numbers = Array.from({ length: 6 }, (_, i) => `+1555010000${i}`);
      const outcomes = await Promise.allSettled(
        numbers.map((to) =>
          messaging.sendSms({ to, text: 'code 111111', purpose: 'test', account: 'account-a' }),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
      expect(sms.sent.filter((text) => numbers.includes(text.to))).toHaveLength(3);
      for (const outcome of outcomes.filter((o) => o.status === 'rejected'))
        expect(outcome.reason).toMatchObject({ statusCode: 429 });
      // Another account still sends to one of those numbers.
      const free = numbers.find((to) => !sms.sent.some((text) => text.to === to)) ?? '';
      await messaging.sendSms({ to: free, text: 'code 222222', purpose: 'test', account: 'b' });
      expect(sms.lastTo(free)).toBe('code 222222');
    });

    it('hands texts to the SMS provider', async () => {
      await server.services.messaging.sendSms({
        to: '+91 98765 43210',
        text: 'code 654321',
        purpose: 'test',
      });
      expect(sms.lastTo('+919876543210')).toBe('code 654321');
    });

    it('keeps the outbox for super admins only', async () => {
      const anonymous = await server.app.inject({ method: 'GET', url: '/v1/admin/outbox' });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('without SMTP', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await createTestServer(dialect);
    });
    afterAll(async () => {
      await server.close();
    });

    it('keeps mail and texts in the outbox for an operator to read', async () => {
      const { messaging } = server.services;
      expect(messaging.smtpConfigured).toBe(false);
      await messaging.sendMail({
        to: 'a@example.com',
        subject: 'Hello',
        text: 'Body 111111',
        purpose: 'test',
      });
      await messaging.sendSms({ to: '+15550000000', text: 'Code 222222', purpose: 'test' });
      const rows = await messaging.listOutbox(10);
      expect(rows.map((row) => [row.channel, row.transport, row.recipient])).toEqual(
        expect.arrayContaining([
          ['email', 'outbox', 'a@example.com'],
          ['sms', 'outbox', '+15550000000'],
        ]),
      );
    });
  });

  describe('verification codes', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await createTestServer(dialect);
    });
    afterAll(async () => {
      await server.close();
    });

    it('are single use, void older codes and store no clear code', async () => {
      const { codes } = server.services;
      const first = await codes.issue('sign_up', 'u1', 600, { hello: 1 });
      const second = await codes.issue('sign_up', 'u1', 600, { hello: 2 });
      expect(second).toMatch(/^\d{6}$/);
      if (first !== second)
        expect(await codes.consume('sign_up', 'u1', first)).toEqual({
          ok: false,
          reason: 'invalid',
        });
      expect(await codes.consume('sign_up', 'u1', second)).toEqual({
        ok: true,
        payload: { hello: 2 },
      });
      expect(await codes.consume('sign_up', 'u1', second)).toEqual({
        ok: false,
        reason: 'invalid',
      });
      const stored = await server.database.db
        .selectFrom('verification_codes')
        .select('code_hash')
        .execute();
      expect(stored.every((row) => !row.code_hash.includes(second))).toBe(true);
    });

    it('burn after five wrong guesses', async () => {
      const { codes } = server.services;
      const code = await codes.issue('forgot_password', 'u2', 600);
      const wrong = code === '000000' ? '000001' : '000000';
      const results = [];
      for (let i = 0; i < 5; i += 1)
        results.push((await codes.consume('forgot_password', 'u2', wrong)).ok);
      expect(results.every((ok) => !ok)).toBe(true);
      expect(await codes.consume('forgot_password', 'u2', code)).toEqual({
        ok: false,
        reason: 'exhausted',
      });
    });

    it('expire', async () => {
      const { codes } = server.services;
      const code = await codes.issue('phone_verify', 'u3', 600);
      await server.database.db
        .updateTable('verification_codes')
        .set({ expires_at: 1 })
        .where('subject', '=', 'u3')
        .execute();
      expect(await codes.consume('phone_verify', 'u3', code)).toEqual({
        ok: false,
        reason: 'expired',
      });
    });

    it('count at most 5 of 20 parallel wrong guesses, so the right code is burnt afterwards', async () => {
      const { codes } = server.services;
      const code = await codes.issue('forgot_password', 'u5', 600);
      const wrong = code === '000000' ? '000001' : '000000';
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () => codes.consume('forgot_password', 'u5', wrong)),
      );
      expect(outcomes.every((outcome) => !outcome.ok)).toBe(true);
      expect(
        outcomes.filter((outcome) => !outcome.ok && outcome.reason === 'invalid').length,
      ).toBeLessThanOrEqual(4);
      expect(await codes.consume('forgot_password', 'u5', code)).toEqual({
        ok: false,
        reason: 'exhausted',
      });
      const row = await server.database.db
        .selectFrom('verification_codes')
        .select('attempts')
        .where('subject', '=', 'u5')
        .executeTakeFirstOrThrow();
      expect(row.attempts).toBe(5);
    });

    it('count, burn and expire guesses at a subject that has no code like guesses at a real one', async () => {
      const { codes } = server.services;
      const real = await codes.issue('sign_up', 'has-code', 600);
      const wrong = real === '000000' ? '000001' : '000000';
      const reasons = async (subject: string) => {
        const list: string[] = [];
        for (let i = 0; i < 6; i += 1) {
          const outcome = await codes.consume('sign_up', subject, wrong);
          list.push(outcome.ok ? 'ok' : outcome.reason);
        }
        return list;
      };
      const withCode = await reasons('has-code');
      expect(withCode).toEqual([
        'invalid',
        'invalid',
        'invalid',
        'invalid',
        'exhausted',
        'exhausted',
      ]);
      expect(await reasons('no-code')).toEqual(withCode);

      await codes.issue('sign_up', 'has-code-2', 600);
      await codes.consume('sign_up', 'no-code-2', wrong);
      await server.database.db
        .updateTable('verification_codes')
        .set({ expires_at: 1 })
        .where('subject', 'in', ['has-code-2', 'no-code-2'])
        .execute();
      expect(await codes.consume('sign_up', 'has-code-2', wrong)).toEqual({
        ok: false,
        reason: 'expired',
      });
      expect(await codes.consume('sign_up', 'no-code-2', wrong)).toEqual({
        ok: false,
        reason: 'expired',
      });
    });

    it('let exactly one of two concurrent right answers win', async () => {
      const { codes } = server.services;
      const code = await codes.issue('user_delete', 'u4', 600);
      const outcomes = await Promise.all([
        codes.consume('user_delete', 'u4', code),
        codes.consume('user_delete', 'u4', code),
      ]);
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    });
  });
});
