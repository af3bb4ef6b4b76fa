import { ROLE_PERMISSIONS, type Permission, type Role } from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  DIALECTS,
  apiLogin,
  createTestServer,
  type TestServer,
} from './helpers/test-server.js';
import { SPEC_METHOD_ALIASES, SPEC_PATH_ALIASES } from '../src/http/spec-path-aliases.js';

interface RouteCase {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: object;
  /** The permission the route needs; undefined means any signed-in user. */
  permission: Permission | undefined;
}

const PASSWORD = 'Matrix-Member-2031';

// QUALITY S1 (ASVS 5.0 V8.2.1, V8.2.2): every route × every role, as the contract's table says.
const ROUTES: RouteCase[] = [
  { name: 'current user', method: 'GET', url: '/v1/user', permission: undefined },
  {
    name: 'own settings',
    method: 'PUT',
    url: '/v1/user2',
    payload: { name: 'Matrix Member' },
    permission: 'user.self',
  },
  {
    name: 'own settings (alias)',
    method: 'PUT',
    url: '/v1/user',
    payload: {},
    permission: 'user.self',
  },
  { name: 'authenticator enrol', method: 'POST', url: '/v1/user2/totp', permission: 'user.self' },
  {
    name: 'authenticator confirm',
    method: 'PUT',
    url: '/v1/user2/totp',
    payload: { code: '123456' },
    permission: 'user.self',
  },
  {
    name: 'authenticator removal',
    method: 'DELETE',
    url: '/v1/user2/totp',
    payload: { code: '123456' },
    permission: 'user.self',
  },
  {
    name: 'own account deletion request',
    method: 'DELETE',
    url: '/v1/user2?request=true',
    permission: 'user.self',
  },
  { name: 'outbox', method: 'GET', url: '/v1/admin/outbox', permission: 'admin' },
  // Deployment settings, operations side (ADR 14).
  {
    name: 'upgrade APIs',
    method: 'PUT',
    url: '/v1/admin/update_apigateway',
    permission: 'settings.deployment',
  },
  {
    name: 'terms read',
    method: 'GET',
    url: '/v1/admin/terms_policy',
    permission: 'settings.deployment',
  },
  {
    name: 'terms save',
    method: 'PUT',
    url: '/v1/admin/terms_policy',
    payload: { terms_of_use: 'Matrix terms' },
    permission: 'settings.deployment',
  },
  {
    name: 'terms delete',
    method: 'DELETE',
    url: '/v1/admin/terms_policy?file=privacy_policy',
    permission: 'settings.deployment',
  },
  {
    name: 'licence read',
    method: 'GET',
    url: '/v1/admin/license_file',
    permission: 'settings.deployment',
  },
  {
    name: 'licence upload',
    method: 'PUT',
    url: '/v1/admin/license_file',
    payload: { file_content_b64: 'bm90IGEgcGVt' },
    permission: 'settings.deployment',
  },
  {
    name: 'dashboard update check',
    method: 'GET',
    url: '/v1/admin/dashboard/update?current_version=matrix',
    permission: undefined,
  },
  {
    name: 'dashboard update',
    method: 'PUT',
    url: '/v1/admin/dashboard/update',
    payload: { version: 'matrix' },
    permission: undefined,
  },
  {
    name: 'push master switch',
    method: 'GET',
    url: '/v1/admin/webhook_integration',
    permission: 'settings.deployment',
  },
  {
    name: 'push master switch change',
    method: 'PUT',
    url: '/v1/admin/webhook_integration',
    payload: {
      service_name: 'mobile_push_notification',
      endpoint_name: 'mobile_push_notification',
      enabled: true,
    },
    permission: 'settings.deployment',
  },
  {
    name: 'event filters',
    method: 'GET',
    url: '/v1/admin/event_filter',
    permission: 'settings.deployment',
  },
  {
    name: 'event filter change',
    method: 'PUT',
    url: '/v1/admin/event_filter',
    payload: {
      event_type: 'rmaker.event.node_connected',
      entity_id: 'system.rmaker.event.node_connected',
      entity_type: 'System',
      enabled: true,
      enabled_for_integrations: ['mobile_push_notification'],
    },
    permission: 'settings.deployment',
  },
  {
    name: 'mobile platforms',
    method: 'GET',
    url: '/v1/admin/push_notification/mobile_platform',
    permission: 'settings.deployment',
  },
  {
    name: 'mobile platform create',
    method: 'POST',
    url: '/v1/admin/push_notification/mobile_platform',
    payload: { platform: 'GCM', api_key: 'not-json' },
    permission: 'settings.deployment',
  },
  {
    name: 'mobile platform delete',
    method: 'DELETE',
    url: '/v1/admin/push_notification/mobile_platform?platform_application_arn=none',
    permission: 'settings.deployment',
  },
  // Sharing and automations (ADR 14): device groups are offered by group writers only.
  {
    name: 'offer a device group',
    method: 'PUT',
    url: '/v1/admin/node_group/sharing',
    payload: { groups: ['no-such-group'], user_name: 'nobody@fleetdeck.test' },
    permission: 'groups.write',
  },
  {
    name: 'end a device group share',
    method: 'DELETE',
    url: '/v1/admin/node_group/sharing?groups=no-such-group&user_name=nobody@fleetdeck.test',
    permission: 'groups.write',
  },
  {
    name: 'share own nodes',
    method: 'PUT',
    url: '/v1/user/nodes/sharing',
    payload: { nodes: ['NO-SUCH-NODE'], user_name: 'nobody@fleetdeck.test' },
    permission: 'user.self',
  },
  {
    name: 'sharing requests',
    method: 'GET',
    url: '/v1/user/nodes/sharing/requests',
    permission: 'user.self',
  },
  {
    name: 'own automations',
    method: 'GET',
    url: '/v1/user/node_automation',
    permission: 'user.self',
  },
  {
    name: 'own phones',
    method: 'GET',
    url: '/v1/user/push_notification/mobile_platform_endpoint',
    permission: 'user.self',
  },
  {
    name: 'register a phone',
    method: 'POST',
    url: '/v1/user/push_notification/mobile_platform_endpoint',
    payload: { platform: 'GCM', mobile_device_token: 'matrix-token' },
    permission: 'user.self',
  },
  {
    name: 'statistics',
    method: 'GET',
    url: '/v1/admin/stats_info?duration=daily&start_date=2025-01-01&end_date=2025-01-07',
    permission: 'stats.read',
  },
  { name: 'statistics (alias)', method: 'GET', url: '/v1/stats_info', permission: 'stats.read' },
  {
    name: 'statistics summary',
    method: 'GET',
    url: '/v1/admin/stats_info/summary',
    permission: 'stats.read',
  },
  {
    name: 'fleet list',
    method: 'GET',
    url: '/v1/admin/nodes?num_records=5',
    permission: 'nodes.read',
  },
  {
    name: 'fleet list filtered',
    method: 'GET',
    url: '/v1/admin/nodes?type=Refrigerator&node_status=online&city=Pune',
    permission: 'nodes.read',
  },
  {
    name: 'fleet list with documents',
    method: 'GET',
    url: '/v1/admin/nodes?node_details=true',
    permission: 'nodes.read',
  },
  {
    name: 'register nodes',
    method: 'POST',
    url: '/v1/admin/node_ids',
    payload: { nodes: [{ type: 'Refrigerator', model: 'FD-R', tags: ['location:Pune'] }] },
    permission: 'nodes.write',
  },
  {
    name: 'set tags',
    method: 'PUT',
    url: '/v1/admin/nodes?node_id=MATRIX1',
    payload: { tags: ['location:Delhi'] },
    permission: 'nodes.write',
  },
  { name: 'own nodes', method: 'GET', url: '/v1/user/nodes', permission: 'user.self' },
  {
    name: 'own nodes (alias)',
    method: 'GET',
    url: '/v1/nodes?node_details=true',
    permission: 'user.self',
  },
  {
    name: 'map a node',
    method: 'PUT',
    url: '/v1/user/nodes/mapping',
    payload: { node_id: 'MATRIX1', secret_key: 'k', operation: 'add' },
    permission: 'user.self',
  },
  { name: 'group list', method: 'GET', url: '/v1/admin/node_group', permission: 'groups.read' },
  {
    name: 'group match count',
    method: 'GET',
    url: '/v1/admin/node_group/match_count?node_type=Refrigerator',
    permission: 'groups.read',
  },
  {
    name: 'create group',
    method: 'POST',
    url: '/v1/admin/node_group',
    payload: { group_name: 'Matrix' },
    permission: 'groups.write',
  },
  {
    name: 'add to group (unknown group)',
    method: 'PUT',
    url: '/v1/admin/node_group?group_id=0000-0000',
    payload: { operation: 'add', nodes: ['MATRIX1'] },
    permission: 'groups.write',
  },
  {
    name: 'delete group (unknown)',
    method: 'DELETE',
    url: '/v1/admin/node_group?group_id=0000-0000',
    permission: 'groups.write',
  },
  {
    name: 'create user',
    method: 'POST',
    url: '/v1/admin/user2',
    payload: {
      user_name: 'matrix-new@fleetdeck.test',
      password: 'Another-Member-2032',
      roles: ['user'],
    },
    permission: 'users.manage',
  },
  // User administration, templates and senders (ADR 13).
  { name: 'user list', method: 'GET', url: '/v1/admin/user2?all=true', permission: 'users.manage' },
  {
    name: 'update user (unknown)',
    method: 'PUT',
    url: '/v1/admin/user2?user_name=nobody@fleetdeck.test',
    payload: { city: 'Pune' },
    permission: 'users.manage',
  },
  {
    name: 'request user deletion (unknown)',
    method: 'DELETE',
    url: '/v1/admin/user2?request=true&user_name=nobody@fleetdeck.test',
    permission: 'users.manage',
  },
  {
    name: 'delete user (unknown)',
    method: 'DELETE',
    url: '/v1/admin/user2?user_name=nobody@fleetdeck.test&verification_code=123456',
    permission: 'users.manage',
  },
  {
    name: 'user custom data',
    method: 'GET',
    url: '/v1/admin/custom_data?user_email=root@fleetdeck.test',
    permission: 'users.manage',
  },
  {
    name: 'set user custom data (unknown)',
    method: 'PUT',
    url: '/v1/admin/custom_data?user_email=nobody@fleetdeck.test',
    payload: { personal: { value: { city: 'Pune' } } },
    permission: 'users.manage',
  },
  {
    name: 'message template',
    method: 'GET',
    url: '/v1/admin/message_template?template_type=INVITE_MESSAGE',
    permission: 'templates.manage',
  },
  {
    name: 'save message template',
    method: 'POST',
    url: '/v1/admin/message_template',
    payload: {
      template_type: 'INVITE_MESSAGE',
      message_subject: 'Welcome',
      message_text: 'Set your password: {{link}}',
    },
    permission: 'templates.manage',
  },
  {
    name: 'verified senders',
    method: 'GET',
    url: '/v1/admin/ses_verified_email',
    permission: 'templates.manage',
  },
  {
    name: 'request sender verification',
    method: 'POST',
    url: '/v1/admin/ses_verified_email',
    payload: { email: 'sender-matrix@fleetdeck.test' },
    permission: 'templates.manage',
  },
  {
    name: 'verify sender (unknown)',
    method: 'PUT',
    url: '/v1/admin/ses_verified_email',
    payload: { email: 'nobody@fleetdeck.test', verification_code: '123456' },
    permission: 'templates.manage',
  },
  {
    name: 'remove sender (unknown)',
    method: 'DELETE',
    url: '/v1/admin/ses_verified_email?email=nobody@fleetdeck.test',
    permission: 'templates.manage',
  },
  { name: 'image list', method: 'GET', url: '/v1/admin/otaimage', permission: 'firmware.read' },
  {
    name: 'image list (alias, archived, filtered)',
    method: 'GET',
    url: '/v1/otaimage?archived=true&contains=x&fault_image=true',
    permission: 'firmware.read',
  },
  {
    name: 'signing key',
    method: 'GET',
    url: '/v1/otaimage/signing_key',
    permission: 'firmware.read',
  },
  {
    name: 'add image',
    method: 'POST',
    url: '/v1/admin/otaimage',
    payload: { image_name: 'm', type: 'Refrigerator', base64_fwimage: 'AAAA' },
    permission: 'firmware.write',
  },
  {
    name: 'upload URL',
    method: 'GET',
    url: '/v1/otaimage/package/upload?file_name=a.bin',
    permission: 'firmware.write',
  },
  {
    name: 'add package (unknown upload)',
    method: 'POST',
    url: '/v1/otaimage/package',
    payload: { image_name: 'm', type: 'Refrigerator', file_path: 'nope' },
    permission: 'firmware.write',
  },
  {
    name: 'archive image (unknown)',
    method: 'PUT',
    url: '/v1/admin/otaimage?ota_image_id=nope&archive=true',
    permission: 'firmware.write',
  },
  {
    name: 'delete image (unknown)',
    method: 'DELETE',
    url: '/v1/otaimage/package?ota_image_id=nope',
    permission: 'firmware.write',
  },
  { name: 'job list', method: 'GET', url: '/v1/admin/otajob', permission: 'ota.read' },
  {
    name: 'job list (alias, archived, search)',
    method: 'GET',
    url: '/v1/otajob?archived=true&ota_job_name=x&fault_image=false',
    permission: 'ota.read',
  },
  {
    name: 'job summary (unknown)',
    method: 'GET',
    url: '/v1/otajob/status/summary?ota_job_id=nope',
    permission: 'ota.read',
  },
  {
    name: 'job nodes (unknown)',
    method: 'GET',
    url: '/v1/otajob/status?ota_job_id=nope&node_id=MATRIX1',
    permission: 'ota.read',
  },
  {
    name: 'start job (unknown image)',
    method: 'POST',
    url: '/v1/admin/otajob?force_push=true',
    payload: { ota_job_name: 'm', ota_image_id: 'nope', nodes: ['MATRIX1'] },
    permission: 'ota.write',
  },
  {
    name: 'cancel job (unknown)',
    method: 'PUT',
    url: '/v1/otajob',
    payload: { ota_job_id: 'nope' },
    permission: 'ota.write',
  },
  {
    name: 'fault catalogue',
    method: 'GET',
    url: '/v1/admin/common_custom_data?name=ac_faults',
    permission: 'faults.read',
  },
  {
    name: 'save common custom data',
    method: 'PUT',
    url: '/v1/admin/common_custom_data',
    payload: { name: 'matrix_note', value: { seen: true } },
    permission: 'admin',
  },
  {
    name: 'insights fault values',
    method: 'GET',
    url: '/insights/v1/param/value/list?dimensionname=ACFault&datatype=2',
    permission: 'faults.read',
  },
  {
    name: 'insights fault distribution',
    method: 'GET',
    url: '/insights/v1/param/byvalue/count?dimensionname=RefFault&datatype=2',
    permission: 'faults.read',
  },
  {
    name: 'fault device list',
    method: 'GET',
    url: '/v1/admin/faults/nodes?type=Refrigerator&code=5',
    permission: 'faults.read',
  },
  {
    name: 'fault breakdown',
    method: 'GET',
    url: '/v1/admin/faults/breakdown?type=Refrigerator&code=5',
    permission: 'faults.read',
  },
  {
    name: 'fault history',
    method: 'GET',
    url: '/v1/admin/faults/history?search=MATRIX',
    permission: 'faults.read',
  },
  {
    name: 'insights API URL',
    method: 'GET',
    url: '/v1/admin/deployment_capabilities?name=InsightsAPIUrl',
    permission: 'diagnostics.read',
  },
  ...(
    [
      'node/info?node_id=MATRIX1',
      'node/log/count?node_id=MATRIX1&time=Week',
      'node/log/byinterval/count?node_id=MATRIX1',
      'node/log/list?node_id=MATRIX1',
      'node/metric/meta?node_id=MATRIX1',
      'node/metric/list?node_id=MATRIX1&start=1750000000&end=1750003600&id=heap.free',
      'node/param/meta?node_id=MATRIX1',
      'node/param/list?node_id=MATRIX1&start=1750000000&end=1750003600',
      'query/event/list?filters=%7B%22Node.ID%22%3A%22MATRIX1%22%7D',
    ] as const
  ).map((path): RouteCase => ({
    name: `insights ${path.split('?')[0] ?? path}`,
    method: 'GET',
    url: `/insights/v1/${path}`,
    permission: 'diagnostics.read',
  })),
  // Identity side of Deployment Settings (super admins: admin + settings.deployment).
  {
    name: 'identity providers',
    method: 'GET',
    url: '/v1/admin/identity_provider?email_mobile_userpool=true',
    permission: 'settings.deployment',
  },
  {
    name: 'configure identity provider',
    method: 'POST',
    url: '/v1/admin/identity_provider',
    payload: { provider_type: 'Google', client_id: 'x', callback_urls: 'https://a.example' },
    permission: 'settings.deployment',
  },
  {
    name: 'app clients',
    method: 'GET',
    url: '/v1/admin/cognito_appclient',
    permission: 'settings.deployment',
  },
  {
    name: 'cognito domain',
    method: 'GET',
    url: '/v1/admin/cognito_domain',
    permission: 'settings.deployment',
  },
  {
    name: 'delete cognito domain',
    method: 'DELETE',
    url: '/v1/admin/cognito_domain',
    permission: 'settings.deployment',
  },
  {
    name: 'app client backup',
    method: 'GET',
    url: '/v1/admin/deployment_settings/cognito_appclient',
    permission: 'settings.deployment',
  },
  {
    name: 'restore app client backup',
    method: 'PUT',
    url: '/v1/admin/deployment_settings/restore/cognito_appclient',
    permission: 'settings.deployment',
  },
  {
    name: 'deployment details',
    method: 'GET',
    url: '/v1/admin/rainmaker_deployment_details?email_mobile_userpool=true',
    permission: 'settings.deployment',
  },
];

/** The spec's un-prefixed paths of admin calls answer exactly as the admin paths do. */
function specPathCase(route: RouteCase): RouteCase[] {
  const [path, query] = route.url.split('?') as [string, string | undefined];
  const to =
    SPEC_PATH_ALIASES[path] ??
    SPEC_METHOD_ALIASES.find((entry) => entry.from === path && entry.methods.includes(route.method))
      ?.to;
  if (!to) return [];
  return [{ ...route, name: `${route.name} (spec path)`, url: query ? `${to}?${query}` : to }];
}
ROUTES.push(...ROUTES.flatMap(specPathCase));

const ROLES_UNDER_TEST: Role[] = [
  'super_admin',
  'admin',
  'service_manager_role',
  'service_engineer_role',
  'manufacturing_manager_role',
  'manufacturing_engineer_role',
  'user',
];

describe.each(DIALECTS)('authorization matrix on %s', (dialect) => {
  let server: TestServer;
  const tokens = new Map<Role, string>();

  beforeAll(async () => {
    server = await createTestServer(dialect);
    const adminToken = (await apiLogin(server.app, ADMIN_EMAIL, ADMIN_PASSWORD)).accesstoken;
    tokens.set('super_admin', adminToken);
    for (const role of ROLES_UNDER_TEST.filter((r) => r !== 'super_admin')) {
      const userName = `matrix-${role.replace(/_/g, '-')}@fleetdeck.test`;
      const created = await server.app.inject({
        method: 'POST',
        url: '/v1/admin/user2',
        headers: { authorization: adminToken },
        payload: { user_name: userName, password: PASSWORD, roles: [role] },
      });
      expect(created.statusCode, created.body).toBe(201);
      tokens.set(role, (await apiLogin(server.app, userName, PASSWORD)).accesstoken);
    }
    await server.app.inject({
      method: 'POST',
      url: '/v1/admin/node_ids',
      headers: { authorization: adminToken },
      payload: {
        nodes: [
          { node_id: 'MATRIX1', type: 'Refrigerator', model: 'FD-R', tags: ['location:Pune'] },
        ],
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(ROUTES)('$name: anonymous gets 401', async (route) => {
    const response = await server.app.inject({
      method: route.method,
      url: route.url,
      ...(route.payload ? { payload: route.payload } : {}),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ status: 'failure', description: 'Unauthorized' });
  });

  it.each(ROUTES)(
    '$name: each role gets exactly what the permission table grants',
    async (route) => {
      for (const role of ROLES_UNDER_TEST) {
        const granted =
          route.permission === undefined || ROLE_PERMISSIONS[role].includes(route.permission);
        const response = await server.app.inject({
          method: route.method,
          url: route.url,
          headers: { authorization: tokens.get(role) ?? '' },
          ...(route.payload ? { payload: route.payload } : {}),
        });
        if (granted) {
          expect([401, 403], `${role} ${route.name}: ${response.body}`).not.toContain(
            response.statusCode,
          );
          expect(response.statusCode, `${role} ${route.name}: ${response.body}`).toBeLessThan(500);
        } else {
          expect(response.statusCode, `${role} ${route.name}`).toBe(403);
          expect(response.json()).toMatchObject({ status: 'failure', error_code: 100004 });
        }
      }
    },
  );

  // The guard runs before validation: without the right, a malformed request still gets 401/403,
  // never the route's validation messages (which would describe the route to an outsider).
  it.each(ROUTES.filter((route) => route.method !== 'GET' && route.permission !== undefined))(
    '$name: a malformed body still gets 401 anonymous and 403 without the permission',
    async (route) => {
      const bad = { payload: { unexpected: ['not', 'valid'] }, url: route.url };
      const anonymous = await server.app.inject({ method: route.method, ...bad });
      expect(anonymous.statusCode, anonymous.body).toBe(401);
      const denied = ROLES_UNDER_TEST.find(
        (role) => !ROLE_PERMISSIONS[role].includes(route.permission!),
      );
      if (!denied) return;
      const response = await server.app.inject({
        method: route.method,
        headers: { authorization: tokens.get(denied) ?? '' },
        ...bad,
      });
      expect(response.statusCode, `${denied} ${route.name}: ${response.body}`).toBe(403);
    },
  );

  it('lets nobody but a super admin create a super admin', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/user2',
      headers: { authorization: tokens.get('admin') ?? '' },
      payload: {
        user_name: 'escalate@fleetdeck.test',
        password: 'Escalate-Attempt-2031',
        roles: ['super_admin'],
      },
    });
    expect(response.statusCode).toBe(403);
  });
});
