import { MESSAGES, SERVER_MESSAGES } from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  DIALECTS,
  apiLogin,
  browserLogin,
  cookiesOf,
  createTestServer,
  type TestServer,
} from './helpers/test-server.js';

describe.each(DIALECTS)('sign-in and sessions on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  it('signs in an API client and returns RainMaker-shaped tokens', async () => {
    const body = await apiLogin(server.app);
    expect(body).toMatchObject({ status: 'success', expires_in: 3600 });
    expect(body.accesstoken.split('.')).toHaveLength(3);
    expect(body.idtoken.split('.')).toHaveLength(3);
    expect(body.refreshtoken.length).toBeGreaterThanOrEqual(40);
    expect(body.expires_at - Math.floor(Date.now() / 1000)).toBeGreaterThan(3590);
  });

  it('keeps tokens out of the body for the browser and sets HttpOnly SameSite=Strict cookies', async () => {
    const { cookies, body } = await browserLogin(server.app);
    expect(body).not.toHaveProperty('accesstoken');
    expect(body).not.toHaveProperty('refreshtoken');
    const atk = cookies.get('ATK');
    const rtk = cookies.get('RTK');
    expect(atk?.attributes).toMatch(/HttpOnly/);
    expect(atk?.attributes).toMatch(/SameSite=Strict/);
    expect(atk?.attributes).toMatch(/Max-Age=3600/);
    expect(rtk?.attributes).toMatch(/HttpOnly/);
    expect(rtk?.attributes).toMatch(/Path=\/v1/);
    expect(cookies.get('user_name')?.value).toBe(ADMIN_EMAIL);
    expect(cookies.get('user_name')?.attributes).not.toMatch(/HttpOnly/);
    expect(cookies.get('admin')?.value).toBe('true');
    expect(cookies.get('user_role')?.value).toBe('super_admin');
  });

  it('answers a wrong password and an unknown user with the same failure body', async () => {
    const wrong = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { user_name: ADMIN_EMAIL, password: 'Wrong-password-1' },
    });
    const unknown = await server.app.inject({
      method: 'POST',
      url: '/v1/login2',
      payload: { user_name: 'nobody@fleetdeck.test', password: 'Wrong-password-1' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      status: 'failure',
      description: SERVER_MESSAGES.incorrectCredentials,
      error_code: 101009,
    });
    expect(unknown.body).toBe(wrong.body);
  });

  it('validates the login body with the spec messages', async () => {
    const cases: Array<[unknown, string]> = [
      [{ user_name: 'not-an-email', password: 'Abcdefg1' }, MESSAGES.invalidUsername],
      [{ user_name: `${'a'.repeat(60)}@x.io`, password: 'Abcdefg1' }, MESSAGES.invalidUsername],
      [{ user_name: ADMIN_EMAIL, password: 'short' }, MESSAGES.invalidPassword],
      [{ user_name: ADMIN_EMAIL, password: 'A'.repeat(65) }, MESSAGES.invalidPassword],
    ];
    for (const [payload, message] of cases) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/v1/login',
        payload: payload as object,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        status: 'failure',
        description: message,
        error_code: 100006,
      });
    }
    const broken = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"user_name":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({
      status: 'failure',
      description: 'Invalid JSON received',
    });
  });

  it('returns the signed-in user for a raw token, a Bearer token and the ATK cookie', async () => {
    const { accesstoken } = await apiLogin(server.app);
    const { cookieHeader } = await browserLogin(server.app);
    for (const headers of [
      { authorization: accesstoken },
      { authorization: `Bearer ${accesstoken}` },
      { cookie: cookieHeader },
    ]) {
      const response = await server.app.inject({ method: 'GET', url: '/v1/user', headers });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        user_name: ADMIN_EMAIL,
        super_admin: true,
        admin: true,
        user_role: ['super_admin'],
        email_user: true,
        deployment_mode: 'standard',
      });
      expect(response.json<{ permissions: string[] }>().permissions).toContain(
        'settings.deployment',
      );
    }
    const user2 = await server.app.inject({
      method: 'GET',
      url: '/v1/user2',
      headers: { authorization: accesstoken },
    });
    expect(user2.statusCode).toBe(200);
  });

  it('answers 401 with the Unauthorized failure body without a session', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/v1/user' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      status: 'failure',
      description: 'Unauthorized',
      error_code: 100046,
    });
  });

  it('rotates refresh tokens and revokes the family when a rotated token is replayed', async () => {
    const first = await apiLogin(server.app);
    const refreshed = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { refreshtoken: first.refreshtoken },
    });
    expect(refreshed.statusCode).toBe(200);
    const second = refreshed.json<{ accesstoken: string; refreshtoken: string }>();
    expect(second.refreshtoken).toBeTruthy();
    expect(second.refreshtoken).not.toBe(first.refreshtoken);

    // Move the rotation time of the first token out of the grace window, then replay it.
    await server.database.db
      .updateTable('refresh_tokens')
      .set({ rotated_at: Math.floor(Date.now() / 1000) - 120 })
      .where('rotated_at', 'is not', null)
      .execute();
    const replay = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { refreshtoken: first.refreshtoken },
    });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ status: 'failure', error_code: 101017 });

    // The whole family is gone: the newest refresh token and the access tokens stop working.
    const afterReuse = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { refreshtoken: second.refreshtoken },
    });
    expect(afterReuse.statusCode).toBe(401);
    const me = await server.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { authorization: second.accesstoken },
    });
    expect(me.statusCode).toBe(401);
  });

  it('lets two tabs refresh with the same token at once without ending the session', async () => {
    const { cookies } = await browserLogin(server.app);
    const cookie = `RTK=${encodeURIComponent(cookies.get('RTK')?.value ?? '')}`;
    const headers = { cookie, 'x-fleetdeck-csrf': 'web' };
    const [a, b] = await Promise.all([
      server.app.inject({ method: 'POST', url: '/v1/session/refresh', headers }),
      server.app.inject({ method: 'POST', url: '/v1/session/refresh', headers }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const issuedRtk = [cookiesOf(a).get('RTK'), cookiesOf(b).get('RTK')].filter(Boolean);
    expect(issuedRtk).toHaveLength(1);
    for (const response of [a, b]) {
      const atk = cookiesOf(response).get('ATK')?.value ?? '';
      const me = await server.app.inject({
        method: 'GET',
        url: '/v1/user',
        headers: { authorization: atk },
      });
      expect(me.statusCode).toBe(200);
    }
  });

  it('refuses a browser refresh without an RTK cookie', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/v1/session/refresh',
      headers: { 'x-fleetdeck-csrf': 'web' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ status: 'failure', description: 'Unauthorized' });
  });

  it('logout revokes the session server-side and clears the cookies', async () => {
    const { cookieHeader } = await browserLogin(server.app);
    const { accesstoken: other } = await apiLogin(server.app);
    const logout = await server.app.inject({
      method: 'POST',
      url: '/v1/logout',
      headers: { cookie: cookieHeader, 'x-fleetdeck-csrf': 'web' },
    });
    expect(logout.statusCode).toBe(200);
    expect(logout.json()).toMatchObject({ status: 'success' });
    expect(cookiesOf(logout).get('ATK')?.value).toBe('');
    const reuse = await server.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { cookie: cookieHeader },
    });
    expect(reuse.statusCode).toBe(401);
    // Other sessions of the user live on.
    const stillThere = await server.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { authorization: other },
    });
    expect(stillThere.statusCode).toBe(200);
  });

  it('logout2 with logout_all=true ends every session of the user', async () => {
    const a = await apiLogin(server.app);
    const b = await apiLogin(server.app);
    const bad = await server.app.inject({
      method: 'POST',
      url: '/v1/logout2?logout_all=yes',
      headers: { authorization: a.accesstoken },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ description: string }>().description).toMatch(/logout_all/);
    const response = await server.app.inject({
      method: 'POST',
      url: '/v1/logout2?logout_all=true',
      headers: { authorization: a.accesstoken },
    });
    expect(response.statusCode).toBe(200);
    for (const token of [a.accesstoken, b.accesstoken]) {
      const me = await server.app.inject({
        method: 'GET',
        url: '/v1/user',
        headers: { authorization: token },
      });
      expect(me.statusCode).toBe(401);
    }
    const refresh = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { refreshtoken: b.refreshtoken },
    });
    expect(refresh.statusCode).toBe(401);
  });

  it('refuses cookie-authenticated writes without the CSRF header and writes from another origin', async () => {
    const { cookieHeader } = await browserLogin(server.app);
    const noHeader = await server.app.inject({
      method: 'PUT',
      url: '/v1/password',
      headers: { cookie: cookieHeader },
      payload: { password: ADMIN_PASSWORD, newpassword: 'Another-Secret-77' },
    });
    expect(noHeader.statusCode).toBe(403);
    expect(noHeader.json()).toMatchObject({ status: 'failure', error_code: 100012 });
    const crossSite = await server.app.inject({
      method: 'POST',
      url: '/v1/logout',
      headers: { cookie: cookieHeader, 'x-fleetdeck-csrf': 'web', origin: 'https://evil.example' },
    });
    expect(crossSite.statusCode).toBe(403);
    const me = await server.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { cookie: cookieHeader },
    });
    expect(me.statusCode).toBe(200);
    const sameOrigin = await server.app.inject({
      method: 'POST',
      url: '/v1/logout',
      headers: { cookie: cookieHeader, 'x-fleetdeck-csrf': 'web', origin: 'http://fleetdeck.test' },
    });
    expect(sameOrigin.statusCode).toBe(200);
  });

  it('grants no other origin CORS access: a preflight or a read from another origin gets no Access-Control-Allow header', async () => {
    const { cookieHeader } = await browserLogin(server.app);
    const preflight = await server.app.inject({
      method: 'OPTIONS',
      url: '/v1/admin/node_group',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-fleetdeck-csrf',
      },
    });
    const read = await server.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { cookie: cookieHeader, origin: 'https://evil.example' },
    });
    // The server answers; without an Access-Control-Allow-Origin the browser keeps it from the page.
    expect(read.statusCode).toBe(200);
    for (const answer of [preflight, read]) {
      const granted = Object.keys(answer.headers).filter((name) =>
        name.toLowerCase().startsWith('access-control-allow'),
      );
      expect(granted, JSON.stringify(answer.headers)).toEqual([]);
    }
  });
});

describe.each(DIALECTS)('password change on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  it('enforces the spec rules and the common-password list', async () => {
    const { accesstoken } = await apiLogin(server.app);
    const attempt = (payload: object) =>
      server.app.inject({
        method: 'PUT',
        url: '/v1/password',
        headers: { authorization: accesstoken },
        payload,
      });
    const cases: Array<[object, number, string]> = [
      [{ password: '', newpassword: 'Abcdefg1' }, 400, MESSAGES.enterAllDetails],
      [{ password: ADMIN_PASSWORD, newpassword: '' }, 400, MESSAGES.enterAllDetails],
      [{ password: ADMIN_PASSWORD, newpassword: 'abcdefg1' }, 400, MESSAGES.passwordPolicy],
      [{ password: ADMIN_PASSWORD, newpassword: 'ABCDEFG1' }, 400, MESSAGES.passwordPolicy],
      [{ password: ADMIN_PASSWORD, newpassword: 'Abcdefgh' }, 400, MESSAGES.passwordPolicy],
      [{ password: ADMIN_PASSWORD, newpassword: 'Abc1' }, 400, MESSAGES.passwordPolicy],
      [
        { password: ADMIN_PASSWORD, newpassword: `Ab1${'x'.repeat(62)}` },
        400,
        MESSAGES.passwordPolicy,
      ],
      [
        { password: ADMIN_PASSWORD, newpassword: 'Password123' },
        400,
        SERVER_MESSAGES.passwordTooCommon,
      ],
      [
        { password: ADMIN_PASSWORD, newpassword: 'Welcome2024!' },
        400,
        SERVER_MESSAGES.passwordTooCommon,
      ],
      [
        { password: ADMIN_PASSWORD, newpassword: ADMIN_PASSWORD },
        400,
        SERVER_MESSAGES.passwordSameAsOld,
      ],
      [
        { password: 'Not-the-password-9', newpassword: 'Brand-New-Secret-42' },
        400,
        SERVER_MESSAGES.currentPasswordWrong,
      ],
    ];
    for (const [payload, status, description] of cases) {
      const response = await attempt(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json<{ description: string }>().description).toBe(description);
    }
    const me = await server.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { authorization: accesstoken },
    });
    expect(me.statusCode).toBe(200);
  });

  it('changes the password, revokes every old session and starts a new one', async () => {
    const other = await apiLogin(server.app);
    const { cookieHeader } = await browserLogin(server.app);
    const response = await server.app.inject({
      method: 'PUT',
      url: '/v1/password2',
      headers: { cookie: cookieHeader, 'x-fleetdeck-csrf': 'web' },
      payload: { password: ADMIN_PASSWORD, newpassword: 'Brand-New-Secret-42' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'success',
      description: MESSAGES.passwordChanged,
    });
    const fresh = cookiesOf(response).get('ATK')?.value ?? '';

    for (const headers of [{ cookie: cookieHeader }, { authorization: other.accesstoken }]) {
      const old = await server.app.inject({ method: 'GET', url: '/v1/user', headers });
      expect(old.statusCode).toBe(401);
    }
    const refreshOld = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { refreshtoken: other.refreshtoken },
    });
    expect(refreshOld.statusCode).toBe(401);
    const me = await server.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { authorization: fresh },
    });
    expect(me.statusCode).toBe(200);

    const oldPassword = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { user_name: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    expect(oldPassword.statusCode).toBe(400);
    await expect(apiLogin(server.app, ADMIN_EMAIL, 'Brand-New-Secret-42')).resolves.toMatchObject({
      status: 'success',
    });
  });

  it('needs a session', async () => {
    const response = await server.app.inject({
      method: 'PUT',
      url: '/v1/password',
      payload: { password: 'x', newpassword: 'Abcdefg1' },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe.each(DIALECTS)('sign-in rate limits on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer(dialect, {
      auth: { accountFailureLimit: 5, ipFailureLimit: 8 },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('locks an account after 5 failures, even for the right password, with a 429 failure body', async () => {
    for (let i = 0; i < 5; i++) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/v1/login',
        remoteAddress: '10.9.0.1',
        payload: { user_name: ADMIN_EMAIL, password: `Wrong-password-${i}` },
      });
      expect(response.statusCode).toBe(400);
    }
    const locked = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      remoteAddress: '10.9.0.2',
      payload: { user_name: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      status: 'failure',
      description: SERVER_MESSAGES.tooManyRequests,
      error_code: 100070,
    });
  });

  it('limits failures per IP across accounts', async () => {
    for (let i = 0; i < 8; i++) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/v1/login',
        remoteAddress: '10.9.0.3',
        payload: { user_name: `user${i}@fleetdeck.test`, password: 'Wrong-password-1' },
      });
      expect(response.statusCode).toBe(400);
    }
    const blocked = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      remoteAddress: '10.9.0.3',
      payload: { user_name: 'someone-else@fleetdeck.test', password: 'Wrong-password-1' },
    });
    expect(blocked.statusCode).toBe(429);
  });

  it('caps sign-in requests per IP per minute', async () => {
    const limited = await createTestServer(dialect, { loginRequestsPerMinute: 3 });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) {
        const response = await limited.app.inject({
          method: 'POST',
          url: '/v1/login',
          payload: { user_name: 'x', password: 'y' },
        });
        codes.push(response.statusCode);
      }
      expect(codes).toEqual([400, 400, 400, 429]);
    } finally {
      await limited.close();
    }
  });
});
