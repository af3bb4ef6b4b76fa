import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrator.js';
import {
  bootstrapFirstSuperAdmin,
  generateStrongPassword,
} from '../src/services/auth/bootstrap-admin.js';
import { MARKER_COOKIES, NewPasswordSchema, REFRESH_TOKEN_COOKIE } from '@fleetdeck/contract';
import { SPEC_PATH_ALIASES } from '../src/http/spec-path-aliases.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

describe.each(DIALECTS)('system routes on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  it('reports liveness and readiness', async () => {
    const health = await server.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await server.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', checks: { startup: 'ok', database: 'ok' } });
  });

  it('is not ready until start-up has finished', async () => {
    const startup = { done: false };
    const { buildApp } = await import('../src/app.js');
    const { createLogger } = await import('../src/logger.js');
    const app = await buildApp({
      config: server.config,
      database: server.database,
      services: server.services,
      logger: createLogger('silent'),
      startup,
    });
    try {
      const before = await app.inject({ method: 'GET', url: '/readyz' });
      expect(before.statusCode).toBe(503);
      expect(before.json()).toEqual({
        status: 'unavailable',
        checks: { startup: 'failed', database: 'ok' },
      });
      startup.done = true;
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('serves an OpenAPI document generated from the contract', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json<{
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    }>();
    expect(doc.openapi).toBe('3.1.0');
    for (const route of [
      '/v1/login',
      '/v1/login2',
      '/v1/logout',
      '/v1/user',
      '/v1/password',
      '/v1/password2',
      '/healthz',
      '/readyz',
    ]) {
      expect(Object.keys(doc.paths)).toContain(route);
    }
    expect(JSON.stringify(doc.paths['/v1/password']?.put?.requestBody)).toContain('newpassword');
    // The spec's un-prefixed paths of admin calls are documented beside the admin paths.
    for (const [admin, spec] of Object.entries(SPEC_PATH_ALIASES))
      expect(Object.keys(doc.paths[spec] ?? {}).sort(), spec).toEqual(
        Object.keys(doc.paths[admin] ?? {}).sort(),
      );
    expect(Object.keys(doc.paths['/v1/terms_policy'] ?? {}).sort()).toEqual([
      'delete',
      'get',
      'put',
    ]);
    // The session refresh authenticates by its HttpOnly cookie, not by the access token.
    const documented = doc as unknown as {
      components: { securitySchemes: Record<string, { in: string; name: string }> };
      paths: Record<string, Record<string, { security?: unknown }>>;
    };
    expect(documented.paths['/v1/session/refresh']?.post?.security).toEqual([
      { RefreshCookie: [] },
    ]);
    expect(documented.components.securitySchemes.RefreshCookie).toMatchObject({
      in: 'cookie',
      name: REFRESH_TOKEN_COOKIE,
    });
  });

  it('answers the spec’s un-prefixed paths as the admin paths', async () => {
    const { accesstoken } = await apiLogin(server.app);
    const get = (url: string) =>
      server.app.inject({ method: 'GET', url, headers: { authorization: accesstoken } });
    for (const [admin, spec] of [
      [
        '/v1/admin/message_template?template_type=INVITE_MESSAGE',
        '/v1/message_template?template_type=INVITE_MESSAGE',
      ],
      ['/v1/admin/ses_verified_email', '/v1/ses_verified_email'],
      [
        '/v1/admin/dashboard/update?current_version=1.0.0',
        '/v1/dashboard/update?current_version=1.0.0',
      ],
    ] as const) {
      const [viaAdmin, viaSpec] = await Promise.all([get(admin), get(spec)]);
      expect(viaSpec.statusCode, spec).toBe(200);
      expect(viaSpec.json(), spec).toEqual(viaAdmin.json());
    }
  });

  it('tells the login page the deployment mode', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/v1/deployment_info' });
    expect(response.json()).toMatchObject({
      deployment_mode: 'standard',
      sign_up_enabled: true,
      social_providers: [],
    });
  });

  it('reports the diagnostics option on by default, and off when DIAGNOSTICS_LINKS is off', async () => {
    const info = async (app: TestServer['app']) =>
      (await app.inject({ method: 'GET', url: '/v1/deployment_info' })).json<{
        diagnostics_links: boolean;
      }>();
    expect((await info(server.app)).diagnostics_links).toBe(true);
    const { buildApp } = await import('../src/app.js');
    const { createLogger } = await import('../src/logger.js');
    const { parseConfig } = await import('../src/config/env.js');
    const off = await buildApp({
      config: {
        ...server.config,
        diagnosticsLinks: parseConfig({ DIAGNOSTICS_LINKS: 'off' }).diagnosticsLinks,
      },
      database: server.database,
      services: server.services,
      logger: createLogger('silent'),
    });
    try {
      expect((await info(off)).diagnostics_links).toBe(false);
    } finally {
      await off.close();
    }
    const doc = (await server.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json<{
      paths: Record<string, { get?: unknown }>;
    }>();
    expect(JSON.stringify(doc.paths['/v1/deployment_info']?.get)).toContain('diagnostics_links');
  });

  it('answers unknown API routes with the failure body and sets security headers', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/v1/does-not-exist' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      status: 'failure',
      description: 'Route not found',
      error_code: 100015,
    });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(String(response.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(String(response.headers['content-security-policy'])).toContain("script-src 'self'");
  });

  it('says clearly when the dashboard is not built', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/home/nodes' });
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain('npm run build');
  });

  it('keeps migrations idempotent and the schema complete', async () => {
    expect(await migrateToLatest(server.database.db)).toEqual([]);
    const tables = [
      'users',
      'user_roles',
      'roles',
      'role_permissions',
      'sessions',
      'refresh_tokens',
      'system_secrets',
    ];
    for (const table of tables) {
      const result = await sql<{
        n: number;
      }>`select count(*) as n from ${sql.table(table)}`.execute(server.database.db);
      expect(Number(result.rows[0]?.n)).toBeGreaterThanOrEqual(0);
    }
    const roles = await server.database.db.selectFrom('roles').select('role').execute();
    expect(roles.map((r) => r.role).sort()).toEqual([
      'admin',
      'manufacturing_engineer_role',
      'manufacturing_manager_role',
      'service_engineer_role',
      'service_manager_role',
      'super_admin',
      'user',
    ]);
  });

  it('creates the first super admin only once, and never with a weak configured password', async () => {
    const again = await bootstrapFirstSuperAdmin(server.database.db, {
      email: 'second@fleetdeck.test',
      password: 'Another-Strong-99',
    });
    expect(again).toBeUndefined();
    const users = await server.database.db.selectFrom('users').select('user_name').execute();
    expect(users).toHaveLength(1);
  });
});

describe('first start without a configured password', () => {
  it('generates a strong password that signs in, and prints nothing reusable twice', async () => {
    const server = await createTestServer('sqlite');
    try {
      await server.database.db.deleteFrom('users').execute();
      const result = await bootstrapFirstSuperAdmin(server.database.db, {
        email: undefined,
        password: undefined,
      });
      expect(result?.userName).toBe('admin@fleetdeck.local');
      expect(result?.generatedPassword).toBeDefined();
      expect(NewPasswordSchema.safeParse(result?.generatedPassword).success).toBe(true);
      const login = await server.app.inject({
        method: 'POST',
        url: '/v1/login',
        payload: { user_name: 'admin@fleetdeck.local', password: result?.generatedPassword },
      });
      expect(login.statusCode).toBe(200);
      const stored = await server.database.db
        .selectFrom('users')
        .select('password_hash')
        .executeTakeFirstOrThrow();
      expect(stored.password_hash).toMatch(/^\$argon2id\$/);
      expect(stored.password_hash).not.toContain(result?.generatedPassword ?? '');
    } finally {
      await server.close();
    }
  });

  it('refuses a weak or well-known FLEETDECK_ADMIN_PASSWORD', async () => {
    const server = await createTestServer('sqlite');
    try {
      await server.database.db.deleteFrom('users').execute();
      await expect(
        bootstrapFirstSuperAdmin(server.database.db, { email: 'a@b.io', password: 'short' }),
      ).rejects.toThrow(/FLEETDECK_ADMIN_PASSWORD/);
      await expect(
        bootstrapFirstSuperAdmin(server.database.db, { email: 'a@b.io', password: 'Password1' }),
      ).rejects.toThrow(/well-known/);
      await expect(
        bootstrapFirstSuperAdmin(server.database.db, {
          email: 'not-mail',
          password: 'Strong-Pass-42',
        }),
      ).rejects.toThrow(/FLEETDECK_ADMIN_EMAIL/);
    } finally {
      await server.close();
    }
  });

  it('generates different passwords every time', () => {
    const seen = new Set(Array.from({ length: 50 }, () => generateStrongPassword()));
    expect(seen.size).toBe(50);
  });

  it('keeps a per-install signing key: two installs never share one', async () => {
    const a = await createTestServer('sqlite');
    const b = await createTestServer('sqlite');
    try {
      const keyOf = async (s: TestServer) =>
        (
          await s.database.db
            .selectFrom('system_secrets')
            .select('value')
            .where('name', '=', 'jwt_signing_key')
            .executeTakeFirstOrThrow()
        ).value;
      expect(await keyOf(a)).not.toBe(await keyOf(b));
      const login = await a.app.inject({
        method: 'POST',
        url: '/v1/login',
        payload: { user_name: 'root@fleetdeck.test', password: 'Ops-Console-2031' },
      });
      const token = login.json<{ accesstoken: string }>().accesstoken;
      const foreign = await b.app.inject({
        method: 'GET',
        url: '/v1/user',
        headers: { authorization: token },
      });
      expect(foreign.statusCode).toBe(401);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('the built dashboard', () => {
  const source = `console.log(${JSON.stringify('fleetdeck '.repeat(400))});`;
  let server: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><div id="root">fleetdeck-spa</div>',
    );
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    // A bigger asset with the compressed copies the build writes next to it.
    const file = path.join(dist, 'assets', 'big-def456.js');
    fs.writeFileSync(file, source);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(source));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(source));
    server = await createTestServer('sqlite', { env: { WEB_DIST_DIR: dist } });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('serves index.html for every history route, case-insensitively', async () => {
    for (const url of [
      '/',
      '/login',
      '/home',
      '/home/change-password/',
      '/home/Georegion',
      '/home/georegion',
    ]) {
      const response = await server.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('fleetdeck-spa');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed assets with long caching', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('sends the Brotli or gzip copy the build wrote when the browser accepts it', async () => {
    const url = '/assets/big-def456.js';
    const br = await server.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(source);
    expect(br.rawPayload.length).toBeLessThan(source.length / 5);
    const gz = await server.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(source);
    const plain = await server.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(source);
  });

  it('does not answer API misses or writes with the SPA', async () => {
    const api = await server.app.inject({ method: 'GET', url: '/v1/nope' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ status: 'failure' });
    const post = await server.app.inject({ method: 'POST', url: '/home/nodes' });
    expect(post.statusCode).toBe(404);
  });

  it("answers a missing build file with 404, not with the page (another build's chunk)", async () => {
    const missing = await server.app.inject({ method: 'GET', url: '/assets/gone-0a1b2c.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/plain/);
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.body).not.toContain('fleetdeck-spa');
    // A screen whose path holds a dot (a user's e-mail) is still the page.
    const user = await server.app.inject({ method: 'GET', url: '/home/user-details/a@b.example' });
    expect(user.statusCode).toBe(200);
    expect(user.body).toContain('fleetdeck-spa');
  });

  it('serves the files of a build made while it runs, and the new index.html', async () => {
    // `npm run build` beside a running server: new hashed names, a new page naming them.
    fs.writeFileSync(path.join(dist, 'assets', 'app-fe9876.js'), 'console.log(2)');
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><div id="root">fleetdeck-spa rebuilt</div>',
    );
    try {
      const asset = await server.app.inject({ method: 'GET', url: '/assets/app-fe9876.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.body).toBe('console.log(2)');
      expect(asset.headers['cache-control']).toContain('immutable');
      const head = await server.app.inject({ method: 'HEAD', url: '/assets/app-fe9876.js' });
      expect(head.statusCode).toBe(200);
      expect((await server.app.inject({ method: 'GET', url: '/home/nodes' })).body).toContain(
        'fleetdeck-spa rebuilt',
      );
      // A directory is not a file: the page, not a listing or a redirect.
      const directory = await server.app.inject({ method: 'GET', url: '/assets' });
      expect(directory.statusCode).toBe(200);
      expect(directory.body).toContain('fleetdeck-spa');
    } finally {
      fs.rmSync(path.join(dist, 'assets', 'app-fe9876.js'));
      fs.writeFileSync(
        path.join(dist, 'index.html'),
        '<!doctype html><div id="root">fleetdeck-spa</div>',
      );
    }
  });
});

describe('the built dashboard with static shells (ADR 35)', () => {
  let server: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-dist-'));
    fs.mkdirSync(path.join(dist, 'shells'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<div id="root">fleetdeck-spa</div>');
    fs.writeFileSync(path.join(dist, 'shells', 'login.html'), '<div id="root">shell-login</div>');
    fs.writeFileSync(
      path.join(dist, 'shells', 'login-customer.html'),
      '<div id="root">shell-login-customer</div>',
    );
    fs.writeFileSync(
      path.join(dist, 'shells', 'devices.html'),
      '<div id="root">shell-devices</div>',
    );
    fs.writeFileSync(
      path.join(dist, 'shells', 'dashboard.html'),
      '<div id="root">shell-dashboard</div>',
    );
    fs.writeFileSync(
      path.join(dist, 'shells', 'manifest.json'),
      JSON.stringify({
        login: { standard: 'login.html', customer: 'login-customer.html' },
        signedIn: { '/home/nodes': 'devices.html' },
        dashboard: 'dashboard.html',
      }),
    );
    server = await createTestServer('sqlite', { env: { WEB_DIST_DIR: dist } });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const page = (url: string, cookie?: string) =>
    server.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const signedIn = `${MARKER_COOKIES.userName}=ops%40example.com`;

  it('answers a browser without the session markers with the sign-in shell', async () => {
    for (const url of ['/', '/login', '/home/nodes', '/home/Georegion']) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('shell-login');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['vary']).toMatch(/cookie/i);
    }
    // A public page other than sign-in has none.
    expect((await page('/sign-up')).body).toContain('fleetdeck-spa');
  });

  it('answers a signed-in browser with the frames its manifest lists, /home by role', async () => {
    expect((await page('/home/nodes/', signedIn)).body).toContain('shell-devices');
    expect((await page('/home/NODES?status=true', signedIn)).body).toContain('shell-devices');
    expect((await page('/home', `${signedIn}; ${MARKER_COOKIES.userRole}=admin`)).body).toContain(
      'shell-dashboard',
    );
    for (const url of ['/login', '/home', '/home/georegion']) {
      const response = await page(url, signedIn);
      expect(response.body, url).toContain('fleetdeck-spa');
      expect(response.headers['vary']).toMatch(/cookie/i);
    }
  });

  it("answers with customer mode's sign-in shell in a customer deployment", async () => {
    const customer = await createTestServer('sqlite', {
      env: { WEB_DIST_DIR: dist, DEPLOYMENT_MODE: 'customer' },
    });
    try {
      const response = await customer.app.inject({ method: 'GET', url: '/home/nodes' });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('shell-login-customer');
    } finally {
      await customer.close();
    }
  });

  it('follows a shell manifest rewritten while it runs (a new build)', async () => {
    const manifestFile = path.join(dist, 'shells', 'manifest.json');
    const before = fs.readFileSync(manifestFile, 'utf8');
    fs.writeFileSync(path.join(dist, 'shells', 'groups.html'), '<div id="root">shell-groups</div>');
    fs.writeFileSync(
      manifestFile,
      JSON.stringify({
        login: { standard: 'login.html', customer: 'login-customer.html' },
        signedIn: { '/home/nodes': 'devices.html', '/home/nodegroups': 'groups.html' },
        dashboard: 'dashboard.html',
        // Padding so that size tells the copies apart where the clock's resolution would not.
        build: 'rebuilt',
      }),
    );
    try {
      expect((await page('/home/NodeGroups', signedIn)).body).toContain('shell-groups');
      expect((await page('/home/nodes', signedIn)).body).toContain('shell-devices');
    } finally {
      fs.writeFileSync(manifestFile, before);
      fs.rmSync(path.join(dist, 'shells', 'groups.html'));
    }
    // And back: the old manifest names no Device Groups shell.
    expect((await page('/home/nodegroups', signedIn)).body).toContain('fleetdeck-spa');
  });
});
