import {
  MESSAGES,
  SERVER_MESSAGES,
  type AppClient,
  type AppClientBackup,
  type DeploymentDetails,
  type IdentityProviderList,
} from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Failure {
  status: string;
  description: string;
}
import { SecretBox } from '../src/services/crypto/secret-box.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

const GOOGLE_SECRET = 'GOCSPX-very-secret-value-7Q2x';
const APPLE_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgFAKEkeyFAKEkeyFAKE
-----END PRIVATE KEY-----`;

describe.each(DIALECTS)('identity settings on %s', (dialect) => {
  let server: TestServer;
  let token: string;

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    auth = token,
  ) =>
    server.app.inject({
      method,
      url,
      headers: { authorization: auth },
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    server = await createTestServer(dialect, {
      env: {
        MQTT_URL: 'mqtts://fleetdeck:broker-secret@broker.fleetdeck.test:8883',
        REGION: 'eu-west-1',
      },
    });
    token = (await apiLogin(server.app)).accesstoken;
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses providers with missing fields or blank callback URLs with the spec messages', async () => {
    const google = await call('POST', '/v1/admin/identity_provider?email_mobile_userpool=true', {
      provider_type: 'Google',
      client_id: 'google-client',
      callback_urls: 'https://fleet.example.com/socialauth',
    });
    expect(google.statusCode).toBe(400);
    expect(google.json()).toMatchObject({
      status: 'failure',
      description: MESSAGES.provideAllDetails,
    });

    const apple = await call('POST', '/v1/admin/identity_provider', {
      provider_type: 'SignInWithApple',
      client_id: 'com.example.web',
      provider_name: 'SignInWithApple',
      key_id: 'KEY123',
      private_key: APPLE_KEY,
      callback_urls: 'https://fleet.example.com/socialauth',
    });
    expect(apple.json<Failure>().description).toBe(MESSAGES.provideAllDetails);

    const blank = await call('POST', '/v1/admin/identity_provider', {
      provider_type: 'Google',
      client_id: 'google-client',
      client_secret: GOOGLE_SECRET,
      callback_urls: ' , ',
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json<Failure>().description).toBe(MESSAGES.callbackUrlsBlank);

    const bad = await call('POST', '/v1/admin/identity_provider', {
      provider_type: 'Google',
      client_id: 'google-client',
      client_secret: GOOGLE_SECRET,
      callback_urls: 'javascript:alert(1)',
    });
    expect(bad.json<Failure>().description).toBe(SERVER_MESSAGES.callbackUrlInvalid);

    const unknownType = await call('POST', '/v1/admin/identity_provider', {
      provider_type: 'Facebook',
      client_id: 'x',
      client_secret: 'y',
      callback_urls: 'https://a.example',
    });
    expect(unknownType.json<Failure>().description).toBe(SERVER_MESSAGES.providerTypeInvalid);
  });

  it('stores secrets sealed, answers them masked, and keeps them on an edit that leaves them out', async () => {
    const created = await call('POST', '/v1/admin/identity_provider?email_mobile_userpool=true', {
      provider_type: 'Google',
      client_id: 'google-client',
      client_secret: GOOGLE_SECRET,
      callback_urls: 'https://fleet.example.com/socialauth, https://fleet.example.com/socialauth',
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json<Failure>().description).toBe(MESSAGES.identityProviderConfigured);

    const row = await server.database.db
      .selectFrom('identity_providers')
      .selectAll()
      .where('provider_type', '=', 'Google')
      .executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(GOOGLE_SECRET);
    expect(row.secret_sealed).toMatch(/^v1\./);
    const box = await SecretBox.create(server.database.db);
    expect(box.open(row.secret_sealed, 'identity_providers:email_mobile:Google')).toBe(
      GOOGLE_SECRET,
    );

    const list = await call('GET', '/v1/admin/identity_provider?email_mobile_userpool=true');
    expect(list.body).not.toContain(GOOGLE_SECRET);
    const google = list.json<IdentityProviderList>().identity_providers.Google;
    expect(google).toMatchObject({
      client_id: 'google-client',
      client_secret: '••••7Q2x',
      callback_urls: ['https://fleet.example.com/socialauth'],
      enabled: true,
    });

    // The editor sends the masked value back: the stored secret stays.
    const edited = await call('PUT', '/v1/admin/identity_provider?email_mobile_userpool=true', {
      provider_type: 'Google',
      client_id: 'google-client-2',
      client_secret: google?.client_secret,
      callback_urls: ['https://fleet.example.com/socialauth'],
    });
    expect(edited.json<Failure>().description).toBe(MESSAGES.identityProviderEdited);
    const after = await server.services.identity.providerSettings('email_mobile', 'Google');
    expect(after).toMatchObject({ clientId: 'google-client-2', secret: GOOGLE_SECRET });

    // The other pool is separate.
    const emailPool = await call('GET', '/v1/admin/identity_provider?email_mobile_userpool=false');
    expect(emailPool.json()).toEqual({ identity_providers: {} });
    const editMissing = await call(
      'PUT',
      '/v1/admin/identity_provider?email_mobile_userpool=false',
      {
        provider_type: 'Google',
        client_id: 'x',
        callback_urls: 'https://a.example',
      },
    );
    expect(editMissing.json<Failure>().description).toBe(SERVER_MESSAGES.identityProviderNotFound);
  });

  it('configures Apple with every field and masks its private key', async () => {
    const response = await call('POST', '/v1/admin/identity_provider?email_mobile_userpool=true', {
      provider_type: 'SignInWithApple',
      client_id: 'com.example.web',
      provider_name: 'SignInWithApple',
      key_id: 'KEY123',
      team_id: 'TEAM456',
      private_key: APPLE_KEY,
      callback_urls: 'https://fleet.example.com/socialauth',
    });
    expect(response.statusCode, response.body).toBe(200);
    const list = await call('GET', '/v1/admin/identity_provider?email_mobile_userpool=true');
    expect(list.body).not.toContain('FAKEkey');
    expect(list.json<IdentityProviderList>().identity_providers.SignInWithApple).toMatchObject({
      team_id: 'TEAM456',
      key_id: 'KEY123',
      private_key: `••••${APPLE_KEY.slice(-4)}`,
    });
  });

  it('creates a default app client per pool and joins configured providers to it', async () => {
    const response = await call('GET', '/v1/admin/cognito_appclient?email_mobile_userpool=true');
    expect(response.statusCode).toBe(200);
    const clients = response.json<AppClient[]>();
    expect(clients).toHaveLength(1);
    const [client] = clients;
    expect(client).toMatchObject({
      client_name: 'fleetdeck-dashboard',
      identity_providers: ['Google', 'SignInWithApple'],
    });
    expect(client?.callback_urls).toEqual([
      'http://fleetdeck.test/socialauth',
      'https://fleet.example.com/socialauth',
    ]);
    const again = await call('GET', '/v1/admin/cognito_appclient?email_mobile_userpool=true');
    expect(again.json<AppClient[]>()[0]?.client_id).toBe(client?.client_id);
    const other = await call('GET', '/v1/admin/cognito_appclient?email_mobile_userpool=false');
    expect(other.json<AppClient[]>()[0]?.client_id).not.toBe(client?.client_id);
    expect(other.json<AppClient[]>()[0]?.user_poolid).not.toBe(client?.user_poolid);
  });

  it('updates one app client and refuses unknown clients, providers and blank URLs', async () => {
    const [client] = (
      await call('GET', '/v1/admin/cognito_appclient?email_mobile_userpool=true')
    ).json<AppClient[]>();
    const clientId = client?.client_id ?? '';
    const ok = await call('PUT', '/v1/admin/cognito_appclient?email_mobile_userpool=true', {
      client_id: clientId,
      callback_urls: ['http://fleetdeck.test/socialauth', 'myapp://callback'],
      providers: ['Google'],
    });
    expect(ok.json()).toEqual({
      status: 'success',
      description: MESSAGES.cognitoConfigurationsUpdated,
    });
    const [updated] = (
      await call('GET', '/v1/admin/cognito_appclient?email_mobile_userpool=true')
    ).json<AppClient[]>();
    expect(updated).toMatchObject({
      callback_urls: ['http://fleetdeck.test/socialauth', 'myapp://callback'],
      identity_providers: ['Google'],
    });

    const unknown = await call('PUT', '/v1/admin/cognito_appclient', {
      client_id: 'nope',
      callback_urls: ['http://fleetdeck.test/socialauth'],
      providers: [],
    });
    expect(unknown.statusCode).toBe(404);
    const notConfigured = await call('PUT', '/v1/admin/cognito_appclient', {
      client_id: clientId,
      callback_urls: ['http://fleetdeck.test/socialauth'],
      providers: ['GitHub'],
    });
    expect(notConfigured.json<Failure>().description).toBe(
      SERVER_MESSAGES.identityProviderNotFound,
    );
    const blank = await call('PUT', '/v1/admin/cognito_appclient', {
      client_id: clientId,
      callback_urls: [],
      providers: [],
    });
    expect(blank.json<Failure>().description).toBe(MESSAGES.callbackUrlsBlank);
  });

  it('validates the domain on the server and keeps one name per pool', async () => {
    expect(
      (await call('GET', '/v1/admin/cognito_domain?email_mobile_userpool=true')).json(),
    ).toEqual({ domain_name: null });
    for (const name of ['Fleet', 'fleet_deck', '-fleet', 'fleet-', 'a'.repeat(64), 'flé']) {
      const response = await call('POST', '/v1/admin/cognito_domain', { domain_name: name });
      expect(response.statusCode, name).toBe(400);
      expect(response.json<Failure>().description, name).toBe(SERVER_MESSAGES.domainInvalid);
    }
    const empty = await call('POST', '/v1/admin/cognito_domain', { domain_name: ' ' });
    expect(empty.json<Failure>().description).toBe(SERVER_MESSAGES.domainMissing);
    const deleteNone = await call('DELETE', '/v1/admin/cognito_domain?email_mobile_userpool=true');
    expect(deleteNone.json<Failure>().description).toBe(SERVER_MESSAGES.domainNotConfigured);

    const added = await call('POST', '/v1/admin/cognito_domain?email_mobile_userpool=true', {
      domain_name: 'acme-fleet-01',
    });
    expect(added.json<Failure>().description).toBe(MESSAGES.cognitoDomainAdded);
    expect(
      (await call('GET', '/v1/admin/cognito_domain?email_mobile_userpool=true')).json(),
    ).toEqual({ domain_name: 'acme-fleet-01' });
    const taken = await call('POST', '/v1/admin/cognito_domain?email_mobile_userpool=false', {
      domain_name: 'acme-fleet-01',
    });
    expect(taken.json<Failure>().description).toBe(SERVER_MESSAGES.domainInOtherPool);
    const deleted = await call('DELETE', '/v1/admin/cognito_domain?email_mobile_userpool=true');
    expect(deleted.json<Failure>().description).toBe(MESSAGES.cognitoDomainDeleted);
    expect(
      (await call('GET', '/v1/admin/cognito_domain?email_mobile_userpool=true')).json(),
    ).toEqual({ domain_name: null });
  });

  it('backs up the app clients and restores them exactly', async () => {
    const none = await call(
      'GET',
      '/v1/admin/deployment_settings/cognito_appclient?email_mobile_userpool=true',
    );
    expect(none.statusCode).toBe(404);
    expect(none.json<Failure>().description).toBe(MESSAGES.noCognitoBackup);
    const restoreNone = await call(
      'PUT',
      '/v1/admin/deployment_settings/restore/cognito_appclient?email_mobile_userpool=true',
    );
    expect(restoreNone.json<Failure>().description).toBe(MESSAGES.noCognitoBackup);

    const before = (
      await call('GET', '/v1/admin/cognito_appclient?email_mobile_userpool=true')
    ).json<AppClient[]>();
    const taken = await call(
      'PUT',
      '/v1/admin/deployment_settings/backup/cognito_appclient?email_mobile_userpool=true',
    );
    expect(taken.statusCode, taken.body).toBe(200);
    const backup = (
      await call(
        'GET',
        '/v1/admin/deployment_settings/cognito_appclient?email_mobile_userpool=true',
      )
    ).json<AppClientBackup>();
    expect(backup.client_count).toBe(1);
    expect(backup.app_clients).toEqual(before);
    expect(backup.created_at).toBeGreaterThan(1_700_000_000);

    await call('PUT', '/v1/admin/cognito_appclient?email_mobile_userpool=true', {
      client_id: before[0]?.client_id,
      callback_urls: ['https://elsewhere.example/cb'],
      providers: [],
    });
    const restored = await call(
      'PUT',
      '/v1/admin/deployment_settings/restore/cognito_appclient?email_mobile_userpool=true',
    );
    expect(restored.json<Failure>().description).toBe(SERVER_MESSAGES.appClientBackupRestored);
    const after = (
      await call('GET', '/v1/admin/cognito_appclient?email_mobile_userpool=true')
    ).json<AppClient[]>();
    expect(after).toEqual(before);
    // The other pool has no backup.
    const otherPool = await call(
      'GET',
      '/v1/admin/deployment_settings/cognito_appclient?email_mobile_userpool=false',
    );
    expect(otherPool.statusCode).toBe(404);
  });

  it('answers the deployment details from the running configuration', async () => {
    const response = await call(
      'GET',
      '/v1/admin/rainmaker_deployment_details?email_mobile_userpool=true',
    );
    expect(response.statusCode).toBe(200);
    const details = response.json<DeploymentDetails>();
    const [client] = (
      await call('GET', '/v1/admin/cognito_appclient?email_mobile_userpool=true')
    ).json<AppClient[]>();
    expect(details).toMatchObject({
      region: 'eu-west-1',
      base_url: 'http://fleetdeck.test',
      mqtt_endpoint: 'mqtts://broker.fleetdeck.test:8883',
      app_client_id: client?.client_id,
      user_pool_id: client?.user_poolid,
      active_pool: true,
    });
    // Fleetdeck's own broker account in MQTT_URL is never shown.
    expect(JSON.stringify(details)).not.toContain('broker-secret');
    expect(details.account_id).toMatch(/^[1-9]\d{11}$/);
    expect(details.build_info).toContain('Fleetdeck server');
    const again = await call(
      'GET',
      '/v1/admin/rainmaker_deployment_details?email_mobile_userpool=false',
    );
    expect(again.json<DeploymentDetails>()).toMatchObject({
      account_id: details.account_id,
      active_pool: false,
    });
  });

  it('offers on the login page exactly the providers a sign-in would accept', async () => {
    const info = async () =>
      (await server.app.inject({ method: 'GET', url: '/v1/deployment_info' })).json<{
        social_providers: string[];
      }>().social_providers;
    // Google is configured and on the client, but there is no domain yet.
    expect(await info()).toEqual([]);
    await call('POST', '/v1/admin/cognito_domain?email_mobile_userpool=true', {
      domain_name: 'acme-fleet',
    });
    expect(await info()).toEqual(['Google']);
    await call('POST', '/v1/admin/identity_provider?email_mobile_userpool=true', {
      provider_type: 'GitHub',
      client_id: 'gh-client',
      client_secret: 'gh-secret-1234',
      callback_urls: 'http://fleetdeck.test/socialauth',
      enabled: false,
    });
    // GitHub joins the client but is shown only when enabled.
    expect(await info()).toEqual(['Google']);
    await call('PUT', '/v1/admin/identity_provider?email_mobile_userpool=true', {
      provider_type: 'GitHub',
      client_id: 'gh-client',
      callback_urls: 'http://fleetdeck.test/socialauth',
      enabled: true,
    });
    expect(await info()).toEqual(['Google', 'GitHub']);
    const removed = await server.app.inject({
      method: 'DELETE',
      url: '/v1/admin/identity_provider?email_mobile_userpool=true',
      headers: { authorization: token },
      payload: { provider_type: 'Google' },
    });
    expect(removed.json<Failure>().description).toBe(SERVER_MESSAGES.identityProviderDeleted);
    expect(await info()).toEqual(['GitHub']);
  });

  it('lets only holders of the admin and deployment-settings permissions in', async () => {
    await server.services.users.createUser('ops-admin@fleetdeck.test', 'Fleet-Admin-2031', [
      'admin',
    ]);
    const adminToken = (await apiLogin(server.app, 'ops-admin@fleetdeck.test', 'Fleet-Admin-2031'))
      .accesstoken;
    for (const [method, url] of [
      ['GET', '/v1/admin/identity_provider'],
      ['GET', '/v1/admin/cognito_appclient'],
      ['GET', '/v1/admin/cognito_domain'],
      ['DELETE', '/v1/admin/cognito_domain'],
      ['GET', '/v1/admin/deployment_settings/cognito_appclient'],
      ['PUT', '/v1/admin/deployment_settings/restore/cognito_appclient'],
      ['GET', '/v1/admin/rainmaker_deployment_details'],
    ] as const) {
      expect((await call(method, url, undefined, adminToken)).statusCode, url).toBe(403);
      expect(
        (await server.app.inject({ method, url })).statusCode,
        `${url} without a session`,
      ).toBe(401);
    }
  });
});

describe.each(DIALECTS)('identity settings in customer mode on %s', (dialect) => {
  // The sign-in itself still works for the pool's app clients: social-login.int.test.ts.
  it('offers no social providers on the login page', async () => {
    const server = await createTestServer(dialect, { env: { DEPLOYMENT_MODE: 'customer' } });
    try {
      const token = (await apiLogin(server.app)).accesstoken;
      const headers = { authorization: token };
      await server.app.inject({
        method: 'POST',
        url: '/v1/admin/identity_provider',
        headers,
        payload: {
          provider_type: 'Google',
          client_id: 'c',
          client_secret: 's',
          callback_urls: 'http://fleetdeck.test/socialauth',
        },
      });
      await server.app.inject({
        method: 'POST',
        url: '/v1/admin/cognito_domain',
        headers,
        payload: { domain_name: 'acme' },
      });
      const info = await server.app.inject({ method: 'GET', url: '/v1/deployment_info' });
      expect(info.json<{ social_providers: string[] }>().social_providers).toEqual([]);
      // Configured, enabled, on the app client and with a domain: only customer mode hides it.
      expect(await server.services.identity.signInProviders()).toEqual(['Google']);
    } finally {
      await server.close();
    }
  });
});
