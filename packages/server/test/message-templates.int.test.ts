import { ERROR_CODES, MESSAGES, SERVER_MESSAGES } from '@fleetdeck/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeIn, startSmtpCapture, type SmtpCapture } from './helpers/smtp-capture.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  DIALECTS,
  apiLogin,
  createTestServer,
  type TestServer,
} from './helpers/test-server.js';

const SENDER = 'invites@fleetdeck.test';

describe.each(DIALECTS)('message templates and senders on %s', (dialect) => {
  let server: TestServer;
  let smtp: SmtpCapture;
  let token: string;

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ): Promise<LightMyRequestResponse> =>
    server.app.inject({
      method,
      url,
      headers: { authorization: token },
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await createTestServer(dialect, {
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Fleet Ops <ops@fleetdeck.test>' },
    });
    token = (await apiLogin(server.app, ADMIN_EMAIL, ADMIN_PASSWORD)).accesstoken;
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('answers the default invitation, its label, the types and the placeholders', async () => {
    const response = await call('GET', '/v1/admin/message_template?template_type=INVITE_MESSAGE');
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      template: Record<string, unknown>;
      template_types: Array<{ type: string; label: string }>;
      placeholders: Array<{ name: string }>;
    }>();
    expect(body.template).toMatchObject({
      template_type: 'INVITE_MESSAGE',
      template_label: 'Welcome Email Notification',
      from_email_address: 'ops@fleetdeck.test',
      from_user_name: 'Fleet Ops',
      default: true,
    });
    expect(body.template.message_text).toContain('{{link}}');
    expect(body.template_types).toEqual([
      { type: 'INVITE_MESSAGE', label: 'Welcome Email Notification' },
    ]);
    expect(body.placeholders.map((entry) => entry.name)).toEqual([
      'first_name',
      'last_name',
      'user_name',
      'roles',
      'code',
      'link',
      'dashboard_url',
    ]);
    // Without a type the invitation is meant.
    expect((await call('GET', '/v1/admin/message_template')).json()).toMatchObject({
      template: { template_type: 'INVITE_MESSAGE' },
    });
  });

  it('lists MAIL_FROM as the one verified sender at first', async () => {
    const response = await call('GET', '/v1/admin/ses_verified_email');
    expect(response.json()).toEqual({
      verified_email_ids: ['ops@fleetdeck.test'],
      pending_email_ids: [],
      default_email_id: 'ops@fleetdeck.test',
    });
  });

  it('refuses unknown placeholders, empty parts and a body without link or code', async () => {
    const base = {
      template_type: 'INVITE_MESSAGE',
      message_subject: 'Welcome {{first_name}}',
      message_text: 'Set a password: {{link}}',
    };
    const unknown = await call('POST', '/v1/admin/message_template', {
      ...base,
      message_text: 'Hi {{nickname}} and {{ password }}: {{link}}',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ description: string }>().description).toContain(
      'Unknown placeholder in the template: {{nickname}}, {{password}}',
    );
    const unknownSubject = await call('POST', '/v1/admin/message_template', {
      ...base,
      message_subject: 'Hi {{nick}}',
    });
    expect(unknownSubject.json<{ description: string }>().description).toContain('{{nick}}');
    expect(
      (await call('POST', '/v1/admin/message_template', { ...base, message_subject: ' ' })).json(),
    ).toMatchObject({ description: 'Message subject is empty' });
    expect(
      (await call('POST', '/v1/admin/message_template', { ...base, message_text: '' })).json(),
    ).toMatchObject({ description: 'Message Body is empty' });
    expect(
      (
        await call('POST', '/v1/admin/message_template', { ...base, message_text: 'Welcome!' })
      ).json<{ description: string }>().description,
    ).toContain('{{link}}');
    expect(
      (
        await call('POST', '/v1/admin/message_template', {
          ...base,
          template_type: 'SOMETHING_ELSE',
        })
      ).json<{ description: string }>().description,
    ).toContain('Invalid message template type');
  });

  it('refuses a from address that is not a verified sender', async () => {
    const response = await call('POST', '/v1/admin/message_template', {
      template_type: 'INVITE_MESSAGE',
      message_subject: 'Welcome',
      message_text: '{{link}}',
      from_email_address: SENDER,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ description: string }>().description).toContain('not a verified sender');
  });

  it('verifies a sender with the code mailed to it', async () => {
    const request = await call('POST', '/v1/admin/ses_verified_email', { email: SENDER });
    expect(request.statusCode, request.body).toBe(200);
    const mail = await smtp.waitForMail(SENDER);
    const code = codeIn(mail.text);
    expect((await call('GET', '/v1/admin/ses_verified_email')).json()).toMatchObject({
      verified_email_ids: ['ops@fleetdeck.test'],
      pending_email_ids: [SENDER],
    });
    const wrong = await call('PUT', '/v1/admin/ses_verified_email', {
      email: SENDER,
      verification_code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    const empty = await call('PUT', '/v1/admin/ses_verified_email', {
      email: SENDER,
      verification_code: '',
    });
    expect(empty.json()).toMatchObject({ description: MESSAGES.enterVerificationCode });
    const verified = await call('PUT', '/v1/admin/ses_verified_email', {
      email: SENDER,
      verification_code: code,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await call('GET', '/v1/admin/ses_verified_email')).json()).toMatchObject({
      verified_email_ids: ['ops@fleetdeck.test', SENDER],
      pending_email_ids: [],
    });
  });

  it('saves the template and builds the invitation from it, escaping values in HTML', async () => {
    const saved = await call('POST', '/v1/admin/message_template', {
      template_type: 'INVITE_MESSAGE',
      message_subject: 'Welcome aboard, {{first_name}}',
      message_text:
        'Dear {{first_name}} {{last_name}} <team>,\nYour login is {{user_name}} ({{roles}}).\nStart here: {{link}}\nCode: {{code}}\nDashboard: {{dashboard_url}}',
      from_email_address: SENDER,
      from_user_name: 'Fleet Invites',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({
      status: 'success',
      description: MESSAGES.emailTemplateUpdated,
    });
    expect((await call('GET', '/v1/admin/message_template')).json()).toMatchObject({
      template: {
        message_subject: 'Welcome aboard, {{first_name}}',
        from_email_address: SENDER,
        from_user_name: 'Fleet Invites',
        default: false,
      },
    });

    const userName = 'new.hire@fleetdeck.test';
    const created = await call('POST', '/v1/admin/user2', {
      first_name: 'Meera',
      last_name: '<b>Iyer</b>',
      city: 'Delhi',
      phone_number: '9123456780',
      user_name: userName,
      roles: ['manufacturing_manager_role'],
      geo_region: 'Delhi',
      registration_date: '2025-06-01',
    });
    expect(created.statusCode, created.body).toBe(201);
    const mail = await smtp.waitForMail(userName);
    expect(mail.subject).toBe('Welcome aboard, Meera');
    expect(mail.from).toContain('Fleet Invites');
    expect(mail.from).toContain(SENDER);
    const code = codeIn(mail.text.split('Code: ')[1] ?? '');
    expect(mail.text).toContain('Dear Meera <b>Iyer</b> <team>,');
    expect(mail.text).toContain(`Your login is ${userName} (Mfg Manger).`);
    expect(mail.text).toContain(
      `Start here: http://fleetdeck.test/set-new-password?user_name=${encodeURIComponent(userName)}&code=${code}`,
    );
    expect(mail.text).toContain('Dashboard: http://fleetdeck.test');
    expect(mail.html).toContain('Dear Meera &lt;b&gt;Iyer&lt;/b&gt; &lt;team&gt;,');
    expect(mail.html).not.toContain('<b>Iyer</b>');
    expect(mail.html).toContain(
      `<a href="http://fleetdeck.test/set-new-password?user_name=${encodeURIComponent(userName)}&amp;code=${code}">`,
    );
  });

  it('burns a sender code after 5 wrong tries with a 429, so the right code then fails too (S3)', async () => {
    const address = 'burnt-sender@fleetdeck.test';
    const request = await call('POST', '/v1/admin/ses_verified_email', { email: address });
    expect(request.statusCode, request.body).toBe(200);
    const code = codeIn((await smtp.waitForMail(address)).text);
    const wrong = code === '000000' ? '111111' : '000000';
    const statuses: number[] = [];
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i < 5; i += 1) {
      last = await call('PUT', '/v1/admin/ses_verified_email', {
        email: address,
        verification_code: wrong,
      });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    expect(last?.json()).toEqual({
      status: 'failure',
      error_code: ERROR_CODES.verificationCodeAttempts,
      description: SERVER_MESSAGES.verificationCodeAttempts,
    });
    const right = await call('PUT', '/v1/admin/ses_verified_email', {
      email: address,
      verification_code: code,
    });
    expect(right.statusCode).toBe(429);
    expect((await call('GET', '/v1/admin/ses_verified_email')).json()).toMatchObject({
      pending_email_ids: [address],
    });
    await call('DELETE', `/v1/admin/ses_verified_email?email=${address}`);
  });

  it('keeps a sender a template uses, and MAIL_FROM, from being removed', async () => {
    const inUse = await call('DELETE', `/v1/admin/ses_verified_email?email=${SENDER}`);
    expect(inUse.statusCode).toBe(400);
    const own = await call('DELETE', '/v1/admin/ses_verified_email?email=ops@fleetdeck.test');
    expect(own.statusCode).toBe(400);
    // Switch the template back to MAIL_FROM; then the sender can go.
    await call('POST', '/v1/admin/message_template', {
      template_type: 'INVITE_MESSAGE',
      message_subject: 'Welcome',
      message_text: '{{link}}',
      from_email_address: 'ops@fleetdeck.test',
    });
    const removed = await call('DELETE', `/v1/admin/ses_verified_email?email=${SENDER}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await call('GET', '/v1/admin/ses_verified_email')).json()).toMatchObject({
      verified_email_ids: ['ops@fleetdeck.test'],
    });
  });
});
