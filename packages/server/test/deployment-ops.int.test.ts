import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, type Migration } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from './helpers/push-stand-ins.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** Every migration file of the server, by name (what migrator.ts registers). */
async function migrationsOnDisk(): Promise<Record<string, Migration>> {
  const dir = path.resolve(import.meta.dirname, '../src/db/migrations');
  const result: Record<string, Migration> = {};
  for (const file of fs.readdirSync(dir).filter((name) => /^\d{4}-.*\.ts$/.test(name)))
    result[file.replace(/\.ts$/, '')] = (await import(path.join(dir, file))) as Migration;
  return result;
}

describe.each(DIALECTS)('deployment operations settings on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let fleetAdmin: string;
  let endUser: string;
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-web-'));

  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    token: string | null = admin,
  ) =>
    server.app.inject({
      method,
      url,
      headers: token ? { authorization: token } : {},
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    server = await createTestServer(dialect, {
      env: { WEB_DIST_DIR: webDist, CONFIG_POLL_SECONDS: '0' },
    });
    admin = (await apiLogin(server.app)).accesstoken;
    for (const [name, role] of [
      ['fleet-admin@fleetdeck.test', 'admin'],
      ['end-user@fleetdeck.test', 'user'],
    ] as const) {
      const created = await call('POST', '/v1/admin/user2', {
        user_name: name,
        password: 'Settings-Member-2031',
        roles: [role],
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    fleetAdmin = (await apiLogin(server.app, 'fleet-admin@fleetdeck.test', 'Settings-Member-2031'))
      .accesstoken;
    endUser = (await apiLogin(server.app, 'end-user@fleetdeck.test', 'Settings-Member-2031'))
      .accesstoken;
  });

  afterAll(async () => {
    await server.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('keeps every settings route to deployment admins', async () => {
    for (const [method, url] of [
      ['PUT', '/v1/admin/update_apigateway'],
      ['GET', '/v1/admin/terms_policy'],
      ['PUT', '/v1/admin/license_file'],
      ['GET', '/v1/admin/license_file'],
      ['GET', '/v1/admin/webhook_integration'],
      ['GET', '/v1/admin/push_notification/mobile_platform'],
    ] as const) {
      expect(
        (
          await call(
            method,
            url,
            method === 'PUT' ? { file_content_b64: 'QQ==' } : undefined,
            fleetAdmin,
          )
        ).statusCode,
        url,
      ).toBe(403);
      expect(
        (await call(method, url, method === 'PUT' ? { file_content_b64: 'QQ==' } : undefined, null))
          .statusCode,
        url,
      ).toBe(401);
    }
  });

  it('Upgrade APIs applies a pending migration and moves the configuration generation', async () => {
    const first = await call('PUT', '/v1/admin/update_apigateway');
    expect(first.statusCode, first.body).toBe(200);
    const before = first.json<{ config_generation: number; applied_migrations: string[] }>();
    expect(before.applied_migrations).toEqual([]);
    expect(first.json<{ description: string }>().description).toMatch(
      /^Applied 0 migration\(s\); configuration generation \d+; reloaded: push notifications, node automations\.$/,
    );

    // Undo the newest migration, as an older schema after a binary upgrade would be.
    const migrations = await migrationsOnDisk();
    const newest = Object.keys(migrations).sort().at(-1) ?? '';
    const migrator = new Migrator({
      db: server.database.db,
      provider: { getMigrations: () => Promise.resolve(migrations) },
    });
    const down = await migrator.migrateDown();
    expect(down.error).toBeUndefined();
    expect(down.results?.[0]?.migrationName).toBe(newest);

    const upgraded = await call('PUT', '/v1/admin/update_apigateway');
    expect(upgraded.statusCode, upgraded.body).toBe(200);
    const after = upgraded.json<{
      config_generation: number;
      applied_migrations: string[];
      description: string;
    }>();
    expect(after.applied_migrations).toEqual([newest]);
    expect(after.description).toContain(`Applied 1 migration(s) (${newest})`);
    // Without pending migrations, each upgrade moves the generation by one.
    const third = (await call('PUT', '/v1/admin/update_apigateway')).json<{
      config_generation: number;
    }>();
    expect(third.config_generation).toBe(after.config_generation + 1);
    expect(before.config_generation).toBeGreaterThanOrEqual(2);
  });

  it('stores Privacy Policy and Terms as public, sandboxed files the login page links to', async () => {
    expect((await call('GET', '/v1/admin/terms_policy')).json()).toEqual({
      privacy_policy: { content: '', file_url: '' },
      terms_of_use: { content: '', file_url: '' },
    });
    expect((await call('GET', '/v1/terms_policy', undefined, null)).json()).toEqual({
      privacy_policy_file_url: null,
      terms_of_use_file_url: null,
    });
    const nothing = await call('PUT', '/v1/admin/terms_policy', {});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json()).toMatchObject({
      description: 'Either Terms of Use or Privacy Policy should be specified',
    });

    const html = '<h1>Privacy</h1><p>We keep little.</p><script>alert(document.cookie)</script>';
    const saved = await call('PUT', '/v1/admin/terms_policy', { privacy_policy: html });
    expect(saved.statusCode, saved.body).toBe(200);
    const urls = saved.json<{ privacy_policy_file_url: string; terms_of_use_file_url: string }>();
    expect(urls.privacy_policy_file_url).toMatch(
      /^http:\/\/fleetdeck\.test\/v1\/terms_policy\/privacy_policy\?v=\d+$/,
    );
    expect(urls.terms_of_use_file_url).toBe('');

    const file = await call(
      'GET',
      new URL(urls.privacy_policy_file_url).pathname,
      undefined,
      undefined,
    );
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(String(file.headers['content-security-policy'])).toMatch(/^sandbox; default-src 'none'/);
    expect(String(file.headers['content-security-policy'])).not.toContain('script-src');
    expect(file.body).toBe(html);

    await call('PUT', '/v1/admin/terms_policy', { terms_of_use: 'Be kind.\nNo spam.' });
    const terms = await call('GET', '/v1/terms_policy/terms_of_use', undefined, null);
    expect(terms.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((await call('GET', '/v1/admin/terms_policy?file=terms_of_use')).json()).toEqual({
      terms_of_use: {
        content: 'Be kind.\nNo spam.',
        file_url: expect.stringContaining('/v1/terms_policy/terms_of_use?v=') as string,
      },
    });
    const links = (await call('GET', '/v1/terms_policy', undefined, null)).json<
      Record<string, string | null>
    >();
    expect(links.privacy_policy_file_url).toContain('/v1/terms_policy/privacy_policy');
    expect(links.terms_of_use_file_url).toContain('/v1/terms_policy/terms_of_use');

    expect((await call('DELETE', '/v1/admin/terms_policy?file=cookies')).statusCode).toBe(400);
    expect((await call('DELETE', '/v1/admin/terms_policy?file=terms_of_use')).statusCode).toBe(200);
    const again = await call('DELETE', '/v1/admin/terms_policy?file=terms_of_use');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ error_code: 116006 });
    expect((await call('GET', '/v1/terms_policy/terms_of_use', undefined, null)).statusCode).toBe(
      404,
    );
    expect((await call('GET', '/v1/terms_policy', undefined, null)).json()).toMatchObject({
      terms_of_use_file_url: null,
    });
  });

  it('answers the public policy pages with the published document, or null when there is none', async () => {
    const publicDocument = async (file: string) => {
      const response = await call('GET', `/v1/terms_policy?file=${file}`, undefined, null);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ document?: unknown; terms_of_use_file_url: string | null }>();
    };
    await call('DELETE', '/v1/admin/terms_policy?file=privacy_policy');
    await call('DELETE', '/v1/admin/terms_policy?file=terms_of_use');
    expect(await publicDocument('terms_of_use')).toEqual({
      privacy_policy_file_url: null,
      terms_of_use_file_url: null,
      document: null,
    });
    // Without ?file= the answer stays the links alone.
    expect(
      (await call('GET', '/v1/terms_policy', undefined, null)).json<object>(),
    ).not.toHaveProperty('document');

    const html = '<h2>Privacy</h2><p>We keep little.</p>';
    await call('PUT', '/v1/admin/terms_policy', { privacy_policy: html, terms_of_use: 'Be kind.' });
    const privacy = await publicDocument('privacy_policy');
    expect(privacy.document).toEqual({
      file: 'privacy_policy',
      content: html,
      file_url: expect.stringMatching(
        /^http:\/\/fleetdeck\.test\/v1\/terms_policy\/privacy_policy\?v=\d+$/,
      ) as string,
      format: 'html',
    });
    const terms = await publicDocument('terms_of_use');
    expect(terms.document).toMatchObject({
      file: 'terms_of_use',
      content: 'Be kind.',
      format: 'text',
    });
    expect(terms.terms_of_use_file_url).toContain('/v1/terms_policy/terms_of_use?v=');
    expect((await call('GET', '/v1/terms_policy?file=cookies', undefined, null)).statusCode).toBe(
      400,
    );
  });

  it('accepts a PEM licence, reads its certificate, and refuses what is not PEM', async () => {
    expect((await call('GET', '/v1/admin/license_file')).json()).toEqual({
      status: 'success',
      license_files: [],
    });
    const refuse = async (content: string) => {
      const response = await call('PUT', '/v1/admin/license_file', { file_content_b64: content });
      expect(response.statusCode).toBe(400);
      return response.json<{ description: string }>().description;
    };
    expect(await refuse('')).toBe('Base64 license file is missing');
    expect(await refuse('not base64!')).toBe('The license file is not valid base64.');
    expect(await refuse(b64('just some text'))).toMatch(/not a valid PEM file/);
    expect(await refuse(b64('-----BEGIN CERTIFICATE-----\nAAAA\n-----END LICENSE-----\n'))).toMatch(
      /not a valid PEM file/,
    );
    expect(
      await refuse(b64('-----BEGIN CERTIFICATE-----\nQUJDREVGR0g=\n-----END CERTIFICATE-----\n')),
    ).toMatch(/not a valid X.509 certificate/);

    const { cert } = selfSignedCertificate('/CN=Fleetdeck Licence/O=Appliance Maker');
    const uploaded = await call('PUT', '/v1/admin/license_file', {
      file_content_b64: b64(cert),
      file_name: 'fleetdeck-licence.pem',
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const listed = (await call('GET', '/v1/admin/license_file')).json<{
      license_files: Array<{
        file_name: string;
        date_modified: number;
        details: Record<string, string>;
      }>;
    }>().license_files;
    expect(listed).toHaveLength(1);
    expect(listed[0]?.file_name).toBe('fleetdeck-licence.pem');
    expect(String(listed[0]?.date_modified)).toMatch(/^\d{10}$/);
    expect(listed[0]?.details).toMatchObject({ pem_type: 'CERTIFICATE' });
    expect(listed[0]?.details.subject).toContain('CN=Fleetdeck Licence');

    const wrongName = await call('PUT', '/v1/admin/license_file', {
      file_content_b64: b64(cert),
      file_name: 'licence.txt',
    });
    expect(wrongName.statusCode).toBe(400);
  });

  it('tells an open dashboard when the server serves another web build', async () => {
    expect(
      (
        await call(
          'GET',
          '/v1/admin/dashboard/update?current_version=1.0.0%2Bb1',
          undefined,
          endUser,
        )
      ).json(),
    ).toEqual({
      version: '1.0.0+b1',
      status: 'unknown',
    });
    fs.writeFileSync(path.join(webDist, 'version.json'), JSON.stringify({ version: '1.0.0+b2' }));
    const check = async (version: string) =>
      (
        await call(
          'GET',
          `/v1/admin/dashboard/update?current_version=${encodeURIComponent(version)}`,
          undefined,
          endUser,
        )
      ).json<unknown>();
    expect(await check('1.0.0+b1')).toEqual({ version: '1.0.0+b2', status: 'update_available' });
    expect(await check('1.0.0+b2')).toEqual({ version: '1.0.0+b2', status: 'up_to_date' });
    expect((await call('GET', '/v1/admin/dashboard/update', undefined, endUser)).statusCode).toBe(
      400,
    );
    expect(
      (await call('GET', '/v1/admin/dashboard/update?current_version=x', undefined, null))
        .statusCode,
    ).toBe(401);

    const stale = await call('PUT', '/v1/admin/dashboard/update', { version: '1.0.0+b1' }, endUser);
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toMatchObject({
      error_code: 110001,
      description: 'Dashboard version is invalid',
    });
    const ok = await call('PUT', '/v1/admin/dashboard/update', { version: '1.0.0+b2' }, endUser);
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
