import {
  MOBILE_PUSH_INTEGRATION,
  PUSH_LIMITS,
  pushEventType,
  systemEntityId,
  type PushEvent,
} from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { SecretBox } from '../src/services/crypto/secret-box.js';
import { PushService } from '../src/services/push/push.service.js';
import { ConfigReloader } from '../src/services/settings/config-reloader.js';
import {
  selfSignedCertificate,
  serviceAccount,
  startApnsStandIn,
  startFcmStandIn,
} from './helpers/push-stand-ins.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';
import {
  claimNode,
  createEndUser,
  registerNodes,
  shareAndAccept,
  type EndUser,
} from './helpers/end-users.js';

const APNS_CERT = selfSignedCertificate(
  '/UID=com.fleetdeck.test/CN=Apple Development IOS Push Services: com.fleetdeck.test',
);
const OTHER_KEY = selfSignedCertificate('/CN=other').key;
const ACCOUNT = serviceAccount();
const MOBILE = { service_name: MOBILE_PUSH_INTEGRATION, endpoint_name: MOBILE_PUSH_INTEGRATION };

describe.each(DIALECTS)('push notifications on %s', (dialect) => {
  let server: TestServer;
  let fcm: Awaited<ReturnType<typeof startFcmStandIn>>;
  let apns: Awaited<ReturnType<typeof startApnsStandIn>>;
  let admin: string;
  let userToken: string;
  let userId: string;

  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    token = admin,
  ) =>
    server.app.inject({
      method,
      url,
      headers: { authorization: token },
      ...(payload ? { payload } : {}),
    });

  const filter = (event: PushEvent, enabled: boolean) => ({
    event_type: pushEventType(event),
    entity_id: systemEntityId(pushEventType(event)),
    entity_type: 'System',
    enabled,
    enabled_for_integrations: [MOBILE_PUSH_INTEGRATION],
  });

  /** Switches an event on or off the way the screen does: POST when none exists, else PUT. */
  const setEvent = async (event: PushEvent, enabled: boolean) => {
    const existing = await call('GET', `/v1/admin/event_filter?event_type=${pushEventType(event)}`);
    const exists =
      existing.json<{ event_entity_mapping_list: unknown[] }>().event_entity_mapping_list.length >
      0;
    const response = await call(
      exists ? 'PUT' : 'POST',
      '/v1/admin/event_filter',
      filter(event, enabled),
    );
    expect(response.statusCode, response.body).toBe(200);
  };

  const settle = async () => {
    await server.services.ingest.flush();
    await server.services.automations.whenIdle();
    await server.services.push.whenIdle();
  };

  beforeAll(async () => {
    fcm = await startFcmStandIn(ACCOUNT.publicKey);
    apns = await startApnsStandIn(APNS_CERT.cert);
    server = await createTestServer(dialect, {
      env: {
        PUSH_FCM_API_URL: fcm.url,
        PUSH_FCM_TOKEN_URL: `${fcm.url}/token`,
        PUSH_APNS_SANDBOX_URL: apns.url,
        PUSH_CA_FILE: apns.caFile,
        CONFIG_POLL_SECONDS: '0',
      },
    });
    admin = (await apiLogin(server.app)).accesstoken;
    const created = await call('POST', '/v1/admin/user2', {
      user_name: 'phone-owner@fleetdeck.test',
      password: 'Pocket-Phone-2031',
      roles: ['user'],
    });
    expect(created.statusCode, created.body).toBe(201);
    userId = created.json<{ user_id: string }>().user_id;
    userToken = (await apiLogin(server.app, 'phone-owner@fleetdeck.test', 'Pocket-Phone-2031'))
      .accesstoken;
    const nodes = await call('POST', '/v1/admin/node_ids', {
      nodes: [
        { node_id: 'PUSH1', type: 'Refrigerator', model: 'FD-R', tags: ['location:Pune'] },
        { node_id: 'PUSH2', type: 'Refrigerator', model: 'FD-R', tags: ['location:Pune'] },
      ],
    });
    expect(nodes.statusCode, nodes.body).toBeLessThan(300);
  });

  afterAll(async () => {
    await server.close();
    await fcm.close();
    await apns.close();
  });

  it('creates the master switch with POST, changes it with PUT, and refuses the other way round', async () => {
    expect((await call('GET', '/v1/admin/webhook_integration')).json()).toEqual({
      integration_info_list: [],
    });
    const early = await call('PUT', '/v1/admin/webhook_integration', { ...MOBILE, enabled: true });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({ status: 'failure', error_code: 113011 });
    expect(
      (await call('POST', '/v1/admin/webhook_integration', { ...MOBILE, enabled: false }))
        .statusCode,
    ).toBe(200);
    const again = await call('POST', '/v1/admin/webhook_integration', { ...MOBILE, enabled: true });
    expect(again.json()).toMatchObject({ error_code: 113012 });
    expect(
      (await call('PUT', '/v1/admin/webhook_integration', { ...MOBILE, enabled: true })).statusCode,
    ).toBe(200);
    expect((await call('GET', '/v1/admin/webhook_integration')).json()).toEqual({
      integration_info_list: [{ ...MOBILE, enabled: true }],
    });
    const other = await call('POST', '/v1/admin/webhook_integration', {
      service_name: 'gva',
      endpoint_name: 'request_sync',
      enabled: true,
    });
    expect(other.json()).toMatchObject({ error_code: 113013 });
    const missing = await call('PUT', '/v1/admin/webhook_integration', { ...MOBILE });
    expect(missing.statusCode).toBe(400);
  });

  it('creates an event filter once, updates it after, and validates its fields', async () => {
    const url = `/v1/admin/event_filter?event_type=${pushEventType('node_alert')}`;
    expect((await call('GET', url)).json()).toEqual({ event_entity_mapping_list: [] });
    const early = await call('PUT', '/v1/admin/event_filter', filter('node_alert', true));
    expect(early.json()).toMatchObject({ status: 'failure', error_code: 113109 });
    expect(
      (await call('POST', '/v1/admin/event_filter', filter('node_alert', true))).statusCode,
    ).toBe(200);
    const twice = await call('POST', '/v1/admin/event_filter', filter('node_alert', false));
    expect(twice.json()).toMatchObject({ error_code: 113110 });
    expect(
      (await call('PUT', '/v1/admin/event_filter', filter('node_alert', false))).statusCode,
    ).toBe(200);
    expect((await call('GET', url)).json()).toEqual({
      event_entity_mapping_list: [filter('node_alert', false)],
    });

    const bad = async (change: object) =>
      (
        await call('POST', '/v1/admin/event_filter', {
          ...filter('node_connected', true),
          ...change,
        })
      ).statusCode;
    expect(await bad({ event_type: 'rmaker.event.coffee_ready' })).toBe(400);
    expect(await bad({ entity_id: 'system.rmaker.event.node_alert' })).toBe(400);
    expect(await bad({ entity_type: 'Node' })).toBe(400);
    expect(await bad({ enabled_for_integrations: [] })).toBe(400);
    expect(await bad({ enabled_for_integrations: ['salesforce'] })).toBe(400);
    expect(await bad({ enabled: 'yes' })).toBe(400);
  });

  it('offers one platform per type: 400 when none, credentials checked, sealed and never shown', async () => {
    const none = await call('GET', '/v1/admin/push_notification/mobile_platform');
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error_code: 114037 });

    const legacyKey = await call('POST', '/v1/admin/push_notification/mobile_platform', {
      platform: 'GCM',
      api_key: 'AAAA-legacy-server-key',
    });
    expect(legacyKey.json()).toMatchObject({ status: 'failure', error_code: 114005 });
    const wrongKey = await call('POST', '/v1/admin/push_notification/mobile_platform', {
      platform: 'APNS_SANDBOX',
      ssl_certificate: APNS_CERT.cert,
      private_key: OTHER_KEY,
    });
    expect(wrongKey.json()).toMatchObject({ error_code: 114005 });
    expect(wrongKey.json<{ description: string }>().description).toMatch(/does not belong/);
    const notPem = await call('POST', '/v1/admin/push_notification/mobile_platform', {
      platform: 'APNS',
      ssl_certificate: 'hello',
      private_key: APNS_CERT.key,
    });
    expect(notPem.statusCode).toBe(400);
    const noPlatform = await call('POST', '/v1/admin/push_notification/mobile_platform', {
      platform: 'WNS',
      api_key: 'x',
    });
    expect(noPlatform.statusCode).toBe(400);

    const gcm = await call('POST', '/v1/admin/push_notification/mobile_platform', {
      platform: 'GCM',
      api_key: ACCOUNT.json,
    });
    expect(gcm.statusCode, gcm.body).toBe(201);
    const sandbox = await call('POST', '/v1/admin/push_notification/mobile_platform', {
      platform: 'APNS_SANDBOX',
      ssl_certificate: APNS_CERT.cert,
      private_key: APNS_CERT.key,
    });
    expect(sandbox.statusCode, sandbox.body).toBe(201);
    const duplicate = await call('POST', '/v1/admin/push_notification/mobile_platform', {
      platform: 'GCM',
      api_key: ACCOUNT.json,
    });
    expect(duplicate.json()).toMatchObject({ error_code: 114006 });

    const list = await call('GET', '/v1/admin/push_notification/mobile_platform');
    expect(list.statusCode).toBe(200);
    const platforms = list.json<{
      platform_applications: Array<{ platform: string; Attributes: Record<string, string> }>;
    }>().platform_applications;
    expect(platforms.map((p) => p.platform).sort()).toEqual(['APNS_SANDBOX', 'GCM']);
    expect(platforms.find((p) => p.platform === 'GCM')?.Attributes.ProjectId).toBe(
      'fleetdeck-test',
    );
    expect(
      platforms.find((p) => p.platform === 'APNS_SANDBOX')?.Attributes
        .AppleCertificateExpirationDate,
    ).toMatch(/^\d{4}-/);
    expect(list.body).not.toContain('PRIVATE KEY');
    const stored = await server.database.db
      .selectFrom('push_platforms')
      .select('credentials')
      .execute();
    for (const row of stored) expect(row.credentials).not.toContain('PRIVATE KEY');

    // Deleting makes the type available again.
    const arn = gcm.json<{ platform_application_arn: string }>().platform_application_arn;
    const gone = await call(
      'DELETE',
      `/v1/admin/push_notification/mobile_platform?platform_application_arn=${encodeURIComponent(arn)}`,
    );
    expect(gone.statusCode).toBe(200);
    const goneAgain = await call(
      'DELETE',
      `/v1/admin/push_notification/mobile_platform?platform_application_arn=${encodeURIComponent(arn)}`,
    );
    expect(goneAgain.json()).toMatchObject({ error_code: 114014 });
    const recreated = await call('POST', '/v1/admin/push_notification/mobile_platform', {
      platform: 'GCM',
      api_key: ACCOUNT.json,
    });
    expect(recreated.statusCode).toBe(201);
  });

  it('lets an end user register, list and remove a phone', async () => {
    const url = '/v1/user/push_notification/mobile_platform_endpoint';
    const noApns = await call(
      'POST',
      url,
      { platform: 'APNS', mobile_device_token: 'abc' },
      userToken,
    );
    expect(noApns.json()).toMatchObject({ error_code: 114014 });
    const noToken = await call('POST', url, { platform: 'GCM' }, userToken);
    expect(noToken.statusCode).toBe(400);

    const first = await call(
      'POST',
      url,
      { platform: 'GCM', mobile_device_token: 'fcm-phone-1' },
      userToken,
    );
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      status: 'success',
      platform_endpoint_arn: expect.any(String) as string,
    });
    const twice = await call(
      'POST',
      url,
      { platform: 'GCM', mobile_device_token: 'fcm-phone-1' },
      userToken,
    );
    expect(twice.json()).toMatchObject({ error_code: 114016 });
    const temporary = await call(
      'POST',
      url,
      { platform: 'GCM', mobile_device_token: 'fcm-phone-2' },
      userToken,
    );
    expect(temporary.statusCode).toBe(201);

    const listed = await call('GET', url, undefined, userToken);
    expect(
      listed
        .json<{ platform_endpoints: Array<{ mobile_device_token: string }> }>()
        .platform_endpoints.map((e) => e.mobile_device_token),
    ).toEqual(['fcm-phone-1', 'fcm-phone-2']);
    // Another user sees none of them.
    expect((await call('GET', url)).json()).toEqual({ platform_endpoints: [] });

    expect(
      (await call('DELETE', `${url}?mobile_device_token=fcm-phone-2`, undefined, userToken))
        .statusCode,
    ).toBe(200);
    const again = await call(
      'DELETE',
      `${url}?mobile_device_token=fcm-phone-2`,
      undefined,
      userToken,
    );
    expect(again.json()).toMatchObject({ error_code: 114036 });
    expect((await call('DELETE', url, undefined, userToken)).json()).toMatchObject({
      error_code: 114021,
    });

    const apple = await call(
      'POST',
      url,
      { platform: 'APNS_SANDBOX', mobile_device_token: 'a1b2c3d4e5f6' },
      userToken,
    );
    expect(apple.statusCode).toBe(201);
  });

  it('sends nothing for a switched-off event and reaches FCM and APNs when it is on', async () => {
    // The user holds PUSH1 (a claim confirmed by the node) — user_node_added is still off.
    const ask = await call(
      'PUT',
      '/v1/user/nodes/mapping',
      { node_id: 'PUSH1', secret_key: 'pocket-secret', operation: 'add' },
      userToken,
    );
    expect(ask.statusCode).toBe(200);
    server.services.ingest.nodeUserMapping(
      'PUSH1',
      { node_id: 'PUSH1', user_id: userId, secret_key: 'pocket-secret' },
      Date.now(),
    );
    await settle();

    // Master on, node_connected never configured: nothing goes out.
    server.services.ingest.nodeConnected('PUSH1', 1, Date.now());
    await settle();
    expect(fcm.messages).toHaveLength(0);
    expect(apns.requests).toHaveLength(0);

    await setEvent('node_connected', true);
    await setEvent('node_disconnected', true);
    server.services.ingest.nodeDisconnected('PUSH1', 1, Date.now());
    await settle();
    expect(fcm.messages).toHaveLength(1);
    const [message] = fcm.messages;
    expect(message?.projectId).toBe('fleetdeck-test');
    expect(message?.bearer).toMatch(/^stand-in-/);
    expect(message?.body.message.token).toBe('fcm-phone-1');
    expect(message?.body.message.data).toMatchObject({
      event_type: 'rmaker.event.node_disconnected',
      node_id: 'PUSH1',
    });
    // The token request went to the configured endpoint, not to the JSON's token_uri.
    expect(fcm.tokenRequests[0]).toMatchObject({
      iss: 'push@fleetdeck-test.iam.gserviceaccount.com',
      aud: `${fcm.url}/token`,
      scope: 'https://www.googleapis.com/auth/firebase.messaging',
    });
    expect(apns.requests).toHaveLength(1);
    expect(apns.requests[0]).toMatchObject({
      path: '/3/device/a1b2c3d4e5f6',
      topic: 'com.fleetdeck.test',
      pushType: 'alert',
      clientFingerprint: apns.clientFingerprint,
    });
    expect(apns.requests[0]?.body.event_type).toBe('rmaker.event.node_disconnected');

    // Nodes of nobody notify nobody.
    server.services.ingest.nodeConnected('PUSH2', 1, Date.now());
    await settle();
    expect(fcm.messages).toHaveLength(1);

    // The per-event switch off again: silence.
    await setEvent('node_connected', false);
    server.services.ingest.nodeConnected('PUSH1', 2, Date.now());
    await settle();
    expect(fcm.messages).toHaveLength(1);

    // The master switch off: even an enabled event stays silent.
    expect(
      (await call('PUT', '/v1/admin/webhook_integration', { ...MOBILE, enabled: false }))
        .statusCode,
    ).toBe(200);
    server.services.ingest.nodeDisconnected('PUSH1', 2, Date.now());
    await settle();
    expect(fcm.messages).toHaveLength(1);
    expect(apns.requests).toHaveLength(1);
    expect(
      (await call('PUT', '/v1/admin/webhook_integration', { ...MOBILE, enabled: true })).statusCode,
    ).toBe(200);
  });

  it('notifies params, alerts, config, user mapping and group events through their own switches', async () => {
    const before = fcm.messages.length;
    const eventsSince = () => fcm.messages.slice(before).map((m) => m.body.message.data.event_type);
    for (const event of [
      'node_params_changed',
      'node_alert',
      'node_config_changed',
      'group_added',
      'group_removed',
      'user_node_removed',
    ] as const)
      await setEvent(event, true);

    server.services.ingest.nodeParams('PUSH1', { Fridge: { temperature: 4 } }, false, Date.now());
    server.services.ingest.nodeAlert('PUSH1', { 'esp.alert.str': 'Door open' }, Date.now());
    server.services.ingest.nodeConfig(
      'PUSH1',
      { node_id: 'PUSH1', info: { name: 'Pantry fridge', fw_version: '1.1' } },
      Date.now(),
    );
    await settle();
    expect(eventsSince().sort()).toEqual([
      'rmaker.event.node_alert',
      'rmaker.event.node_config_changed',
      'rmaker.event.node_params_changed',
    ]);
    const config = fcm.messages.find(
      (m) => m.body.message.data.event_type === 'rmaker.event.node_config_changed',
    );
    expect(config?.body.message.data.node_id).toBe('PUSH1');
    expect(config?.body.message.notification.body).toContain('Pantry fridge');
    expect(
      fcm.messages.find((m) => m.body.message.data.event_type === 'rmaker.event.node_alert')?.body
        .message.notification.body,
    ).toContain('Door open');

    const group = await call('POST', '/v1/admin/node_group', {
      group_name: 'Kitchen',
      nodes: ['PUSH1', 'PUSH2'],
    });
    expect(group.statusCode, group.body).toBe(200);
    await settle();
    expect(eventsSince()).toContain('rmaker.event.group_added');
    const groupId = group.json<{ group_id: string }>().group_id;
    expect((await call('DELETE', `/v1/admin/node_group?group_id=${groupId}`)).statusCode).toBe(200);
    await settle();
    expect(eventsSince()).toContain('rmaker.event.group_removed');
    // A group without claimed nodes has nobody to tell.
    const count = fcm.messages.length;
    const empty = await call('POST', '/v1/admin/node_group', {
      group_name: 'Spare',
      nodes: ['PUSH2'],
    });
    expect(empty.statusCode).toBe(200);
    await settle();
    expect(fcm.messages.length).toBe(count);

    const released = await call(
      'PUT',
      '/v1/user/nodes/mapping',
      { node_id: 'PUSH1', secret_key: 'x', operation: 'remove' },
      userToken,
    );
    expect(released.statusCode, released.body).toBe(200);
    await settle();
    expect(eventsSince()).toContain('rmaker.event.user_node_removed');
  });

  it('drops the endpoint of a device the push service reports as gone', async () => {
    await setEvent('user_node_added', true);
    const url = '/v1/user/push_notification/mobile_platform_endpoint';
    expect(
      (await call('POST', url, { platform: 'GCM', mobile_device_token: 'dead-phone' }, userToken))
        .statusCode,
    ).toBe(201);
    const ask = await call(
      'PUT',
      '/v1/user/nodes/mapping',
      { node_id: 'PUSH1', secret_key: 'again', operation: 'add' },
      userToken,
    );
    expect(ask.statusCode).toBe(200);
    const before = fcm.messages.length;
    server.services.ingest.nodeUserMapping(
      'PUSH1',
      { node_id: 'PUSH1', user_id: userId, secret_key: 'again' },
      Date.now(),
    );
    await settle();
    expect(fcm.messages.slice(before).map((m) => m.body.message.data.event_type)).toEqual([
      'rmaker.event.user_node_added',
    ]);
    const tokens = (await call('GET', url, undefined, userToken))
      .json<{ platform_endpoints: Array<{ mobile_device_token: string }> }>()
      .platform_endpoints.map((e) => e.mobile_device_token);
    expect(tokens).not.toContain('dead-phone');
    expect(tokens).toContain('fcm-phone-1');
    expect(server.services.push.counters.invalidTokens).toBeGreaterThanOrEqual(1);
  });

  it('tells of node sharing, group sharing, automations and config changes only while switched on', async () => {
    const sent = (event: PushEvent) =>
      fcm.messages.filter((m) => m.body.message.data.event_type === pushEventType(event));
    const sentToApple = (event: PushEvent) =>
      apns.requests.filter((r) => r.body.event_type === pushEventType(event));
    const phoneOwner: EndUser = {
      userId,
      userName: 'phone-owner@fleetdeck.test',
      token: userToken,
    };
    const sharer = await createEndUser(server, admin, 'sharer@fleetdeck.test');
    await registerNodes(server, admin, ['PUSH3', 'PUSH4']);
    await claimNode(server, phoneOwner, 'PUSH3');
    await claimNode(server, sharer, 'PUSH4');

    // node_shared_with_user: off, then on.
    await setEvent('node_shared_with_user', false);
    await shareAndAccept(server, sharer, phoneOwner, ['PUSH4']);
    await settle();
    expect(sent('node_shared_with_user')).toHaveLength(0);
    expect(sentToApple('node_shared_with_user')).toHaveLength(0);
    const unshared = await call(
      'DELETE',
      `/v1/user/nodes/sharing?nodes=PUSH4&user_name=${phoneOwner.userName}`,
      undefined,
      sharer.token,
    );
    expect(unshared.statusCode, unshared.body).toBe(200);
    await setEvent('node_shared_with_user', true);
    await shareAndAccept(server, sharer, phoneOwner, ['PUSH4']);
    await settle();
    expect(sent('node_shared_with_user').map((m) => m.body.message.data)).toEqual([
      expect.objectContaining({ node_id: 'PUSH4' }),
    ]);
    expect(sent('node_shared_with_user')[0]?.body.message.token).toBe('fcm-phone-1');
    expect(sentToApple('node_shared_with_user')).toHaveLength(1);
    // As a secondary user the phone owner now hears about PUSH4's events too.
    const alertsBefore = sent('node_alert').length;
    server.services.ingest.nodeAlert('PUSH4', { 'esp.alert.str': 'Filter' }, Date.now());
    await settle();
    expect(
      sent('node_alert')
        .slice(alertsBefore)
        .map((m) => m.body.message.data.node_id),
    ).toEqual(['PUSH4']);

    // group_shared_with_user: a group of a node nobody holds, offered to the phone owner.
    const group = await call('POST', '/v1/admin/node_group', {
      group_name: 'Lobby',
      nodes: ['PUSH2'],
    });
    expect(group.statusCode, group.body).toBe(200);
    const groupId = group.json<{ group_id: string }>().group_id;
    const offerGroup = async () => {
      const offered = await call('PUT', '/v1/admin/node_group/sharing', {
        groups: [groupId],
        user_name: phoneOwner.userName,
      });
      expect(offered.statusCode, offered.body).toBe(200);
      const accepted = await call(
        'PUT',
        '/v1/user/node_group/sharing/requests',
        { request_id: offered.json<{ request_id: string }>().request_id, accept: true },
        userToken,
      );
      expect(accepted.statusCode, accepted.body).toBe(200);
      await settle();
    };
    await setEvent('group_shared_with_user', false);
    await offerGroup();
    expect(sent('group_shared_with_user')).toHaveLength(0);
    const removed = await call(
      'DELETE',
      `/v1/admin/node_group/sharing?groups=${groupId}&user_name=${phoneOwner.userName}`,
    );
    expect(removed.statusCode, removed.body).toBe(200);
    await setEvent('group_shared_with_user', true);
    await offerGroup();
    expect(sent('group_shared_with_user').map((m) => m.body.message.data)).toEqual([
      expect.objectContaining({ group_id: groupId }),
    ]);
    expect(sent('group_shared_with_user')[0]?.body.message.notification.body).toContain('Lobby');
    expect(sentToApple('group_shared_with_user')).toHaveLength(1);
    // The group's node, held by nobody, now reaches the user it is shared with.
    const lobbyBefore = sent('node_alert').length;
    server.services.ingest.nodeAlert('PUSH2', { 'esp.alert.str': 'Lobby door' }, Date.now());
    await settle();
    expect(
      sent('node_alert')
        .slice(lobbyBefore)
        .map((m) => m.body.message.data.node_id),
    ).toEqual(['PUSH2']);

    // node_automation_trigger: the phone owner's automation on PUSH3.
    const automation = await call(
      'POST',
      '/v1/user/node_automation',
      {
        name: 'Defrost when warm',
        node_id: 'PUSH3',
        events: [{ params: { Fridge: { temperature: 8 } }, check: '>' }],
        actions: [{ node_id: 'PUSH3', params: { Fridge: { defrost: true } } }],
      },
      userToken,
    );
    expect(automation.statusCode, automation.body).toBe(200);
    const temperature = async (value: number) => {
      server.services.ingest.nodeParams(
        'PUSH3',
        { Fridge: { temperature: value } },
        false,
        Date.now(),
      );
      await settle();
    };
    await setEvent('node_automation_trigger', false);
    await temperature(4);
    await temperature(9);
    expect(server.services.automations.counters.triggered).toBe(1);
    expect(sent('node_automation_trigger')).toHaveLength(0);
    await setEvent('node_automation_trigger', true);
    await temperature(4);
    await temperature(10);
    expect(server.services.automations.counters.triggered).toBe(2);
    expect(sent('node_automation_trigger')).toHaveLength(1);
    expect(sent('node_automation_trigger')[0]?.body.message.data.node_id).toBe('PUSH3');
    expect(sent('node_automation_trigger')[0]?.body.message.notification.body).toContain(
      'Defrost when warm',
    );
    expect(sentToApple('node_automation_trigger')).toHaveLength(1);

    // node_config_changed: off, then on again.
    const configs = sent('node_config_changed').length;
    await setEvent('node_config_changed', false);
    server.services.ingest.nodeConfig('PUSH3', { node_id: 'PUSH3', info: {} }, Date.now());
    await settle();
    expect(sent('node_config_changed')).toHaveLength(configs);
    await setEvent('node_config_changed', true);
    server.services.ingest.nodeConfig('PUSH3', { node_id: 'PUSH3', info: {} }, Date.now());
    await settle();
    expect(sent('node_config_changed')).toHaveLength(configs + 1);
  });

  it('reaches another instance once it sees the configuration generation move', async () => {
    const db = server.database.db;
    const reloader = new ConfigReloader(db, createLogger('silent'), 0);
    const other = new PushService(
      db,
      await SecretBox.create(db),
      reloader,
      { send: () => Promise.resolve({ result: 'sent' }), close: () => Promise.resolve() },
      createLogger('silent'),
    );
    await reloader.start();
    expect(other.isEnabled('node_disconnected')).toBe(true);
    await setEvent('node_disconnected', false);
    // Until it polls, the other instance still has the old switch…
    expect(other.isEnabled('node_disconnected')).toBe(true);
    expect(await reloader.poll()).toBe(true);
    expect(other.isEnabled('node_disconnected')).toBe(false);
    expect(await reloader.poll()).toBe(false);
    await other.stop();
  });
  // ASVS 5.0 V2.4.1 (no quota exhaustion by repeated calls): one account registering push tokens
  // without end made a row for each, and a send to each for every event.
  it('keeps at most PUSH_LIMITS.endpointsPerUser phones per user, dropping the oldest (ASVS 2.4.1)', async () => {
    const created = await call('POST', '/v1/admin/user2', {
      user_name: 'many-phones@fleetdeck.test',
      password: 'Pocket-Phone-2031',
      roles: ['user'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const token = (await apiLogin(server.app, 'many-phones@fleetdeck.test', 'Pocket-Phone-2031'))
      .accesstoken;
    const url = '/v1/user/push_notification/mobile_platform_endpoint';
    const total = PUSH_LIMITS.endpointsPerUser + 5;
    for (let i = 0; i < total; i += 1) {
      const registered = await call(
        'POST',
        url,
        { platform: 'GCM', mobile_device_token: `many-phones-${i}` },
        token,
      );
      expect(registered.statusCode, registered.body).toBe(201);
    }
    const listed = (await call('GET', url, undefined, token)).json<{
      platform_endpoints: Array<{ mobile_device_token: string }>;
    }>().platform_endpoints;
    expect(listed).toHaveLength(PUSH_LIMITS.endpointsPerUser);
    const tokens = listed.map((endpoint) => endpoint.mobile_device_token);
    expect(tokens).toContain(`many-phones-${total - 1}`);
    const stored = await server.database.db
      .selectFrom('push_endpoints')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', created.json<{ user_id: string }>().user_id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(PUSH_LIMITS.endpointsPerUser);
  });
});
