import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIALECTS,
  apiLogin,
  browserLogin,
  createTestServer,
  type TestServer,
} from './helpers/test-server.js';

// ASVS 5.0 V14.3.2 (anti-caching headers on sensitive data); RFC 6749 §5.1 (token answers carry
// Cache-Control: no-store). Answers without a header may be kept by a browser's or a proxy's
// heuristic cache, tokens and one account's data with them.
describe.each(DIALECTS)('API answers are not stored by caches on %s', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer(dialect);
  });

  afterAll(async () => {
    await server.close();
  });

  it('marks the sign-in and refresh answers, which carry tokens, no-store (ASVS 14.3.2)', async () => {
    const login = await server.app.inject({
      method: 'POST',
      url: '/v1/login2',
      payload: { user_name: 'root@fleetdeck.test', password: 'Ops-Console-2031' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toHaveProperty('accesstoken');
    expect(login.headers['cache-control']).toBe('no-store');

    const browser = await browserLogin(server.app);
    const refresh = await server.app.inject({
      method: 'POST',
      url: '/v1/session/refresh',
      headers: { cookie: browser.cookieHeader, 'x-fleetdeck-csrf': 'web' },
      payload: {},
    });
    expect(refresh.statusCode, refresh.body).toBe(200);
    expect(refresh.headers['cache-control']).toBe('no-store');
  });

  it("marks an account's own data, fleet lists and failures no-store (ASVS 14.3.2)", async () => {
    const { accesstoken } = await apiLogin(server.app);
    for (const url of [
      '/v1/user',
      '/v1/user2',
      '/v1/admin/nodes',
      '/v1/admin/user2',
      '/v1/user/nodes',
      '/v1/admin/otaimage',
    ]) {
      const response = await server.app.inject({
        method: 'GET',
        url,
        headers: { authorization: accesstoken },
      });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
    const refused = await server.app.inject({ method: 'GET', url: '/v1/user' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
    const insights = await server.app.inject({
      method: 'GET',
      url: '/insights/v1/node/info?node_id=nobody',
      headers: { authorization: accesstoken },
    });
    expect(insights.headers['cache-control']).toBe('no-store');
  });
});
