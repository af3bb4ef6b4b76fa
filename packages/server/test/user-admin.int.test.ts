import { ERROR_CODES, MESSAGES, ROLE_PERMISSIONS, SERVER_MESSAGES } from '@fleetdeck/contract';
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
import { INVITED_ENGINEER } from './helpers/accounts.js';

describe.each(DIALECTS)('user administration on %s', (dialect) => {
  let server: TestServer;
  let smtp: SmtpCapture;
  let token: string;

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    auth = token,
  ): Promise<LightMyRequestResponse> =>
    server.app.inject({
      method,
      url,
      headers: { authorization: auth },
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await createTestServer(dialect, {
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Fleet Ops <ops@fleetdeck.test>',
        MAIL_SENDS_PER_HOUR: '50',
      },
    });
    token = (await apiLogin(server.app, ADMIN_EMAIL, ADMIN_PASSWORD)).accesstoken;
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it.each([
    ['first_name', '', MESSAGES.enterFirstName],
    ['first_name', '   ', MESSAGES.enterFirstName],
    ['last_name', '', MESSAGES.enterLastName],
    ['city', '', MESSAGES.enterCity],
    ['phone_number', '98765', MESSAGES.invalidPhone],
    ['phone_number', '98765432101', MESSAGES.invalidPhone],
    ['phone_number', '98765abcde', MESSAGES.invalidPhone],
    ['user_name', 'not-an-email', MESSAGES.invalidEmailAddress],
    ['user_name', '', MESSAGES.invalidEmailAddress],
    ['roles', [], MESSAGES.selectRole],
    ['roles', ['pilot_role'], MESSAGES.selectRole],
    ['geo_region', 'Atlantis', MESSAGES.selectGeoRegion],
    ['registration_date', '14/03/2025', MESSAGES.invalidDate],
    ['registration_date', '2025-02-30', MESSAGES.invalidDate],
  ])('refuses %s = %j with the spec message and the role field', async (field, value, message) => {
    const response = await call('POST', '/v1/admin/user2', { ...INVITED_ENGINEER, [field]: value });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      status: 'failure',
      description: message,
      role: field === 'roles' ? (value as string[]).join(',') : 'service_engineer_role',
    });
  });

  it('accepts a valid e-mail (the valid-email rule the right way round)', async () => {
    const response = await call('POST', '/v1/admin/user2', {
      user_name: 'Right.Way@Fleetdeck.test',
      roles: ['manufacturing_engineer_role'],
    });
    expect(response.statusCode, response.body).toBe(201);
    await smtp.waitForMail('right.way@fleetdeck.test');
  });

  it('creates a user with the profile, mails the invitation and lists the profile', async () => {
    const response = await call('POST', '/v1/admin/user2', INVITED_ENGINEER);
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json<{ status: string; description: string; user_id: string }>();
    expect(body).toMatchObject({ status: 'success', description: MESSAGES.userCreated });

    const mail = await smtp.waitForMail(INVITED_ENGINEER.user_name);
    expect(mail.subject).toBe('Your Fleetdeck account is ready');
    expect(mail.text).toContain('Hello Asha,');
    expect(mail.text).toContain('with the role Service Engg');
    const code = codeIn(mail.text);
    expect(mail.text).toContain(
      `http://fleetdeck.test/set-new-password?user_name=${encodeURIComponent(INVITED_ENGINEER.user_name)}&code=${code}`,
    );
    expect(mail.html).toContain('<a href="http://fleetdeck.test/set-new-password?');

    const saved = await call(
      'PUT',
      `/v1/admin/custom_data?user_email=${encodeURIComponent(INVITED_ENGINEER.user_name)}`,
      { personal: { value: { city: 'Pune', geo_region: 'Pune' } } },
    );
    expect(saved.statusCode, saved.body).toBe(200);

    const list = await call('GET', `/v1/admin/user2?user_name=${INVITED_ENGINEER.user_name}`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({
      total: 1,
      users_list: [
        {
          user_id: body.user_id,
          user_name: INVITED_ENGINEER.user_name,
          user_role: ['service_engineer_role'],
          first_name: 'Asha',
          last_name: 'Rao',
          city: 'Pune',
          phone_number: '9876543210',
          geo_region: 'Pune',
          registration_date: '2025-03-14',
          password_set: false,
          custom_data: { personal: { value: { city: 'Pune', geo_region: 'Pune' } } },
        },
      ],
    });
  });

  it('lets the invitee set a password with the mailed code and sign in', async () => {
    const userName = 'invitee@fleetdeck.test';
    const created = await call('POST', '/v1/admin/user2', {
      ...INVITED_ENGINEER,
      user_name: userName,
      first_name: 'Ravi',
    });
    expect(created.statusCode, created.body).toBe(201);
    const mail = await smtp.waitForMail(userName);
    const code = codeIn(mail.text);
    const reset = await server.app.inject({
      method: 'PUT',
      url: '/v1/forgotpassword',
      payload: { user_name: userName, password: 'Blue-Harbour-2031', verification_code: code },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const login = await apiLogin(server.app, userName, 'Blue-Harbour-2031');
    expect(login.accesstoken).toEqual(expect.any(String));
  });

  it('refuses a second account with the same e-mail', async () => {
    const response = await call('POST', '/v1/admin/user2', {
      user_name: INVITED_ENGINEER.user_name.toUpperCase(),
      roles: ['service_engineer_role'],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      description: 'User account already exist',
      error_code: 101006,
      role: 'service_engineer_role',
    });
  });

  it('keeps no account when the invitation cannot be sent', async () => {
    const userName = 'bounce@fleetdeck.test';
    // The recipient already had its hourly share of mail, so the invitation is refused (429).
    const now = Math.floor(Date.now() / 1000);
    await server.database.db
      .insertInto('outbox_messages')
      .values(
        Array.from({ length: 50 }, (_, i) => ({
          message_id: `cap-${i}`,
          channel: 'email',
          recipient: userName,
          sender: null,
          subject: 's',
          body_text: 't',
          body_html: null,
          purpose: 'test',
          transport: 'smtp',
          created_at: now,
          delivered_at: now,
          error: null,
        })),
      )
      .execute();
    const response = await call('POST', '/v1/admin/user2', {
      user_name: userName,
      roles: ['service_engineer_role'],
    });
    expect(response.statusCode).toBe(429);
    const list = await call('GET', `/v1/admin/user2?user_name=${userName}`);
    expect(list.json()).toMatchObject({ total: 0, users_list: [] });
  });

  it('pages staff users by user name with start_id and next_id; all=true adds end users', async () => {
    for (const name of ['page-a', 'page-b', 'page-c'])
      expect(
        (
          await call('POST', '/v1/admin/user2', {
            user_name: `${name}@fleetdeck.test`,
            password: 'Quiet-Meadow-2031',
            roles: ['manufacturing_manager_role'],
          })
        ).statusCode,
      ).toBe(201);
    await call('POST', '/v1/admin/user2', {
      user_name: 'page-enduser@fleetdeck.test',
      password: 'Quiet-Meadow-2031',
      roles: ['user'],
    });
    const first = await call('GET', '/v1/admin/user2?start_id=page-a@fleetdeck.test&num_records=2');
    const firstBody = first.json<{
      users_list: Array<{ user_name: string }>;
      next_id?: string;
      total: number;
    }>();
    expect(firstBody.users_list.map((user) => user.user_name)).toEqual([
      'page-a@fleetdeck.test',
      'page-b@fleetdeck.test',
    ]);
    expect(firstBody.next_id).toBe('page-c@fleetdeck.test');
    const second = await call(
      'GET',
      `/v1/admin/user2?start_id=${firstBody.next_id ?? ''}&num_records=2`,
    );
    const names = second.json<{ users_list: Array<{ user_name: string }> }>().users_list;
    expect(names.map((user) => user.user_name)).not.toContain('page-enduser@fleetdeck.test');
    const all = await call('GET', '/v1/admin/user2?all=true&num_records=100');
    const allBody = all.json<{ users_list: Array<{ user_name: string }>; total: number }>();
    expect(allBody.users_list.map((user) => user.user_name)).toContain(
      'page-enduser@fleetdeck.test',
    );
    expect(allBody.total).toBe(firstBody.total + 1);
  });

  it('updates the profile and the roles', async () => {
    const response = await call('PUT', `/v1/admin/user2?user_name=${INVITED_ENGINEER.user_name}`, {
      city: 'Kolkata',
      geo_region: 'Kolkata',
      roles: ['service_manager_role', 'service_engineer_role'],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'success',
      user: {
        city: 'Kolkata',
        geo_region: 'Kolkata',
        user_role: ['service_engineer_role', 'service_manager_role'],
        first_name: 'Asha',
      },
    });
    const invalid = await call('PUT', `/v1/admin/user2?user_name=${INVITED_ENGINEER.user_name}`, {
      phone_number: '12',
    });
    expect(invalid.json()).toMatchObject({ description: MESSAGES.invalidPhone });
    const missing = await call('PUT', '/v1/admin/user2?user_name=ghost@fleetdeck.test', {
      city: 'Pune',
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ description: 'User does not exist' });
  });

  it('applies a role change to a signed-in user from their next request', async () => {
    const name = 'demoted@fleetdeck.test';
    const password = 'Calm-River-2032';
    expect(ROLE_PERMISSIONS.admin).toContain('nodes.read');
    expect(ROLE_PERMISSIONS.user).not.toContain('nodes.read');
    await server.services.users.createUser(name, password, ['admin']);
    const demoted = (await apiLogin(server.app, name, password)).accesstoken;
    // The first request puts the admin's context in the auth cache.
    expect((await call('GET', '/v1/admin/nodes', undefined, demoted)).statusCode).toBe(200);
    const change = await call('PUT', `/v1/admin/user2?user_name=${name}`, { roles: ['user'] });
    expect(change.statusCode, change.body).toBe(200);
    const after = await call('GET', '/v1/admin/nodes', undefined, demoted);
    expect(after.statusCode, after.body).toBe(403);
  });

  it('keeps custom data per key, deletes with null and refuses oversize data', async () => {
    const url = `/v1/admin/custom_data?user_email=${INVITED_ENGINEER.user_name}`;
    const put = await call('PUT', url, {
      system: { value: { source: 'dashboard' } },
      tags: { value: ['a', 'b'] },
    });
    expect(put.json()).toMatchObject({
      personal: { value: { city: 'Pune' } },
      system: { value: { source: 'dashboard' } },
      tags: { value: ['a', 'b'] },
    });
    const removed = await call('PUT', url, { tags: { value: null }, system: null });
    expect(Object.keys(removed.json<object>())).toEqual(['personal']);
    const get = await call('GET', url);
    expect(get.json()).toEqual({ personal: { value: { city: 'Pune', geo_region: 'Pune' } } });
    const big = await call('PUT', url, { blob: { value: 'x'.repeat(17_000) } });
    expect(big.statusCode).toBe(400);
    expect(big.json()).toMatchObject({ error_code: 100036 });
    expect(Object.keys((await call('GET', url)).json<object>())).toEqual(['personal']);
    const badKey = await call('PUT', url, { 'no spaces': { value: 1 } });
    expect(badKey.statusCode).toBe(400);
    const noUser = await call('GET', '/v1/admin/custom_data');
    expect(noUser.json()).toMatchObject({ error_code: 125003 });
  });

  it('deletes a user in two steps with the code mailed to the invoking admin', async () => {
    const target = 'leaving@fleetdeck.test';
    const password = 'Calm-River-2031';
    await call('POST', '/v1/admin/user2', {
      user_name: target,
      password,
      roles: ['service_engineer_role'],
    });
    const targetToken = (await apiLogin(server.app, target, password)).accesstoken;
    expect((await call('GET', '/v1/user', undefined, targetToken)).statusCode).toBe(200);

    const before = smtp.mails.length;
    const request = await call('DELETE', `/v1/admin/user2?request=true&user_name=${target}`);
    expect(request.statusCode, request.body).toBe(200);
    const mail = await smtp.waitForMail(ADMIN_EMAIL, (m) => m.subject.includes('deleting'));
    expect(smtp.mails.length).toBeGreaterThan(before);
    expect(mail.text).toContain(target);
    const code = codeIn(mail.text);

    const missingCode = await call('DELETE', `/v1/admin/user2?user_name=${target}`);
    expect(missingCode.json()).toMatchObject({ error_code: 119007 });
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const wrongAnswer = await call(
      'DELETE',
      `/v1/admin/user2?user_name=${target}&verification_code=${wrong}`,
    );
    expect(wrongAnswer.statusCode).toBe(400);
    expect(wrongAnswer.json()).toMatchObject({ description: 'Verification code is incorrect' });

    const deleted = await call(
      'DELETE',
      `/v1/admin/user2?user_name=${target}&verification_code=${code}`,
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toMatchObject({ description: MESSAGES.userDeleted });
    // Its session no longer works, and the code cannot be used twice.
    expect((await call('GET', '/v1/user', undefined, targetToken)).statusCode).toBe(401);
    const again = await call(
      'DELETE',
      `/v1/admin/user2?user_name=${target}&verification_code=${code}`,
    );
    expect(again.statusCode).toBe(404);
    const list = await call('GET', `/v1/admin/user2?user_name=${target}`);
    expect(list.json()).toMatchObject({ total: 0 });
  });

  it('refuses to delete a super admin or oneself', async () => {
    await call('POST', '/v1/admin/user2', {
      user_name: 'second-root@fleetdeck.test',
      password: 'Amber-Lantern-2031',
      roles: ['super_admin'],
    });
    const other = await call(
      'DELETE',
      '/v1/admin/user2?request=true&user_name=second-root@fleetdeck.test',
    );
    expect(other.json()).toMatchObject({
      description: 'Super-admin user deletion is restricted!',
      error_code: 119017,
    });
    const self = await call('DELETE', `/v1/admin/user2?request=true&user_name=${ADMIN_EMAIL}`);
    expect(self.statusCode).toBe(400);
  });

  it('burns the deletion code after five wrong tries with 429 and the spec message', async () => {
    const target = 'guessed@fleetdeck.test';
    await call('POST', '/v1/admin/user2', {
      user_name: target,
      password: 'Calm-River-2031',
      roles: ['service_engineer_role'],
    });
    const request = await call('DELETE', `/v1/admin/user2?request=true&user_name=${target}`);
    expect(request.statusCode, request.body).toBe(200);
    const code = codeIn(
      (
        await smtp.waitForMail(
          ADMIN_EMAIL,
          (m) => m.subject.includes('deleting') && m.text.includes(target),
        )
      ).text,
    );
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const url = `/v1/admin/user2?user_name=${target}&verification_code=${wrong}`;
    for (let attempt = 1; attempt <= 4; attempt++) {
      const answer = await call('DELETE', url);
      expect(answer.statusCode, `attempt ${attempt}`).toBe(400);
      expect(answer.json()).toMatchObject({ error_code: ERROR_CODES.userDeleteCodeIncorrect });
    }
    const fifth = await call('DELETE', url);
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toEqual({
      status: 'failure',
      description: SERVER_MESSAGES.userDeleteAttemptsExceeded,
      error_code: ERROR_CODES.userDeleteAttemptsExceeded,
    });
    // Burnt: even the right code is refused now, and the user is still there.
    const right = await call(
      'DELETE',
      `/v1/admin/user2?user_name=${target}&verification_code=${code}`,
    );
    expect(right.statusCode).toBe(429);
    expect(right.json()).toMatchObject({ error_code: ERROR_CODES.userDeleteAttemptsExceeded });
    expect((await call('GET', `/v1/admin/user2?user_name=${target}`)).json()).toMatchObject({
      total: 1,
    });
  });

  it('refuses every user-management call to a non-super-admin, even an admin', async () => {
    // Only super admins hold users.manage (contract roles.ts), so an admin cannot even ask to
    // grant super_admin: the route refuses before the service's own super-admin check.
    expect(ROLE_PERMISSIONS.admin).not.toContain('users.manage');
    const created = await call('POST', '/v1/admin/user2', {
      user_name: 'ops-admin@fleetdeck.test',
      password: 'Steady-Signal-2031',
      roles: ['admin'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const adminToken = (
      await apiLogin(server.app, 'ops-admin@fleetdeck.test', 'Steady-Signal-2031')
    ).accesstoken;
    const calls: Array<[string, 'GET' | 'POST' | 'PUT' | 'DELETE', string, object?]> = [
      ['list', 'GET', '/v1/admin/user2'],
      [
        'create super admin',
        'POST',
        '/v1/admin/user2',
        { user_name: 'x@fleetdeck.test', roles: ['super_admin'] },
      ],
      [
        'create engineer',
        'POST',
        '/v1/admin/user2',
        { user_name: 'y@fleetdeck.test', roles: ['service_engineer_role'] },
      ],
      [
        'grant super admin',
        'PUT',
        '/v1/admin/user2?user_name=ops-admin@fleetdeck.test',
        { roles: ['super_admin'] },
      ],
      [
        'request delete',
        'DELETE',
        `/v1/admin/user2?request=true&user_name=${INVITED_ENGINEER.user_name}`,
      ],
    ];
    for (const [what, method, url, payload] of calls) {
      const response = await call(method, url, payload, adminToken);
      expect(response.statusCode, what).toBe(403);
      expect(response.json(), what).toMatchObject({ error_code: ERROR_CODES.forbidden });
    }
    const still = await call('GET', '/v1/admin/user2?user_name=ops-admin@fleetdeck.test');
    expect(still.json()).toMatchObject({
      users_list: [{ user_role: ['admin'], super_admin: false }],
    });
    const ghosts = await call('GET', '/v1/admin/user2?user_name=x@fleetdeck.test');
    expect(ghosts.json()).toMatchObject({ total: 0 });
  });

  it('lets a super admin grant super_admin, on create and on update', async () => {
    const created = await call('POST', '/v1/admin/user2', {
      user_name: 'root-two@fleetdeck.test',
      password: 'Amber-Lantern-2031',
      roles: ['super_admin'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const rootTwo = (await apiLogin(server.app, 'root-two@fleetdeck.test', 'Amber-Lantern-2031'))
      .accesstoken;
    // The new super admin holds users.manage at once.
    expect((await call('GET', '/v1/admin/user2', undefined, rootTwo)).statusCode).toBe(200);

    await call('POST', '/v1/admin/user2', {
      user_name: 'promoted@fleetdeck.test',
      password: 'Quiet-Meadow-2031',
      roles: ['service_manager_role'],
    });
    const promoted = await call('PUT', '/v1/admin/user2?user_name=promoted@fleetdeck.test', {
      roles: ['super_admin'],
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json()).toMatchObject({
      user: { user_role: ['super_admin'], super_admin: true },
    });
  });
});

describe.each(DIALECTS)('invitation sends per admin on %s (S3)', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer(dialect, { env: { MAIL_SENDS_PER_HOUR: '2' } });
  });
  afterAll(async () => server?.close());

  it('caps the invitations one admin sends per hour with 429, creating no user past the cap', async () => {
    const { accesstoken } = await apiLogin(server.app);
    const invite = (n: number) =>
      server.app.inject({
        method: 'POST',
        url: '/v1/admin/user2',
        headers: { authorization: accesstoken },
        payload: { ...INVITED_ENGINEER, user_name: `invitee-${n}@fleetdeck.test` },
      });
    // Each address is new, so only the per-account cap can stop the third.
    expect((await invite(1)).statusCode).toBe(201);
    expect((await invite(2)).statusCode).toBe(201);
    const third = await invite(3);
    expect(third.statusCode, third.body).toBe(429);
    expect(third.json()).toMatchObject({ status: 'failure' });
    const listed = await server.app.inject({
      method: 'GET',
      url: '/v1/admin/user2?user_name=invitee-3@fleetdeck.test',
      headers: { authorization: accesstoken },
    });
    expect(JSON.stringify(listed.json())).not.toContain('invitee-3@fleetdeck.test');
  });
});
