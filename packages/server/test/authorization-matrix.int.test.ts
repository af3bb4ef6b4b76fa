import { OTA_PATHS, ROLE_PERMISSIONS, type Permission, type Role } from '@fleetdeck/contract';
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
import {
  caller,
  claimNode,
  createEndUser,
  registerNodes,
  type EndUser,
} from './helpers/end-users.js';

interface RouteCase {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: object;
  /** The permission the route needs; undefined means any signed-in user. */
  permission: Permission | undefined;
  /** A server-sent event stream: a 200 never ends, so the client hangs up after the first chunk. */
  stream?: true;
}

const PASSWORD = 'Matrix-Member-2031';

/** A valid event filter, for its change and its creation. */
const EVENT_FILTER = {
  event_type: 'rmaker.event.node_connected',
  entity_id: 'system.rmaker.event.node_connected',
  entity_type: 'System',
  enabled: true,
  enabled_for_integrations: ['mobile_push_notification'],
};

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
    payload: EVENT_FILTER,
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
  {
    name: 'delete image by its image path (unknown)',
    method: 'DELETE',
    url: '/v1/admin/otaimage?ota_image_id=nope',
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
  // Found missing by the OpenAPI completeness check below.
  { name: 'current user (2)', method: 'GET', url: '/v1/user2', permission: undefined },
  {
    name: 'own account deletion request (alias)',
    method: 'DELETE',
    url: '/v1/user?request=true',
    permission: 'user.self',
  },
  // An invalid logout_all: a caller with a session gets 400 and keeps it (the matrix's tokens).
  {
    name: 'logout (invalid flag)',
    method: 'POST',
    url: '/v1/logout2?logout_all=maybe',
    permission: undefined,
  },
  // Without newpassword: the guard passes, validation refuses, no session ends.
  ...(['/v1/password', '/v1/password2'] as const).map((url): RouteCase => ({
    name: `password change without a new password (${url})`,
    method: 'PUT',
    url,
    payload: { password: 'x' },
    permission: 'user.self',
  })),
  {
    name: 'live events',
    method: 'GET',
    url: '/v1/events',
    permission: 'nodes.read',
    stream: true,
  },
  {
    name: 'mapping request state (unknown)',
    method: 'GET',
    url: '/v1/user/nodes/mapping?request_id=nope',
    permission: 'user.self',
  },
  {
    name: 'edit identity provider',
    method: 'PUT',
    url: '/v1/admin/identity_provider',
    payload: { provider_type: 'Google', client_id: 'x', callback_urls: 'https://a.example' },
    permission: 'settings.deployment',
  },
  {
    name: 'remove identity provider',
    method: 'DELETE',
    url: '/v1/admin/identity_provider',
    payload: { provider_type: 'Google' },
    permission: 'settings.deployment',
  },
  {
    name: 'set app client',
    method: 'PUT',
    url: '/v1/admin/cognito_appclient',
    payload: { client_id: 'nope', callback_urls: 'https://a.example' },
    permission: 'settings.deployment',
  },
  {
    name: 'set cognito domain',
    method: 'POST',
    url: '/v1/admin/cognito_domain',
    payload: { domain_name: 'matrix-domain' },
    permission: 'settings.deployment',
  },
  {
    name: 'take app client backup',
    method: 'PUT',
    url: '/v1/admin/deployment_settings/backup/cognito_appclient',
    permission: 'settings.deployment',
  },
  {
    name: 'push integration create',
    method: 'POST',
    url: '/v1/admin/webhook_integration',
    payload: {
      service_name: 'mobile_push_notification',
      endpoint_name: 'mobile_push_notification',
      enabled: true,
    },
    permission: 'settings.deployment',
  },
  {
    name: 'event filter create',
    method: 'POST',
    url: '/v1/admin/event_filter',
    payload: EVENT_FILTER,
    permission: 'settings.deployment',
  },
  {
    name: 'unregister a phone (unknown)',
    method: 'DELETE',
    url: '/v1/user/push_notification/mobile_platform_endpoint?mobile_device_token=nope',
    permission: 'user.self',
  },
  {
    name: 'own node holders',
    method: 'GET',
    url: '/v1/user/nodes/sharing',
    permission: 'user.self',
  },
  {
    name: 'own node holders of one node (not held)',
    method: 'GET',
    url: '/v1/user/nodes/sharing?node_id=MATRIX1',
    permission: 'user.self',
  },
  {
    name: 'end a node share (not held)',
    method: 'DELETE',
    url: '/v1/user/nodes/sharing?nodes=MATRIX1&user_name=nobody@fleetdeck.test',
    permission: 'user.self',
  },
  {
    name: 'sent sharing requests',
    method: 'GET',
    url: '/v1/user/nodes/sharing/requests?primary_user=true',
    permission: 'user.self',
  },
  {
    name: 'decide a sharing request (unknown)',
    method: 'PUT',
    url: '/v1/user/nodes/sharing/requests',
    payload: { request_id: 'nope', accept: true },
    permission: 'user.self',
  },
  {
    name: 'withdraw a sharing request (unknown)',
    method: 'DELETE',
    url: '/v1/user/nodes/sharing/requests?request_id=nope',
    permission: 'user.self',
  },
  {
    name: 'device groups shared with me',
    method: 'GET',
    url: '/v1/user/node_group/sharing',
    permission: 'user.self',
  },
  {
    name: 'leave a device group (not shared)',
    method: 'DELETE',
    url: '/v1/user/node_group/sharing?groups=0000-0000',
    permission: 'user.self',
  },
  {
    name: 'group sharing requests',
    method: 'GET',
    url: '/v1/user/node_group/sharing/requests',
    permission: 'user.self',
  },
  {
    name: 'decide a group sharing request (unknown)',
    method: 'PUT',
    url: '/v1/user/node_group/sharing/requests',
    payload: { request_id: 'nope', accept: false },
    permission: 'user.self',
  },
  {
    name: 'add an automation (node not held)',
    method: 'POST',
    url: '/v1/user/node_automation',
    payload: {
      name: 'Matrix',
      node_id: 'MATRIX1',
      event_type: 'node_params',
      events: [{ params: { Thermostat: { Temperature: 30 } }, check: '>' }],
      actions: [{ node_id: 'MATRIX1', params: { Thermostat: { Power: true } } }],
    },
    permission: 'user.self',
  },
  {
    name: 'change an automation (unknown)',
    method: 'PUT',
    url: '/v1/user/node_automation?automation_id=nope',
    payload: { name: 'Matrix' },
    permission: 'user.self',
  },
  {
    name: 'remove an automation (unknown)',
    method: 'DELETE',
    url: '/v1/user/node_automation?automation_id=nope',
    permission: 'user.self',
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

/** Firmware and OTA calls answer at `/v1/admin/…` and at RainMaker's un-prefixed twin alike. */
const OTA_TWINS: ReadonlyArray<readonly [string, string]> = [
  [OTA_PATHS.image, OTA_PATHS.imageAlias],
  [OTA_PATHS.package, OTA_PATHS.packageAlias],
  [OTA_PATHS.packageUpload, OTA_PATHS.packageUploadAlias],
  [OTA_PATHS.job, OTA_PATHS.jobAlias],
  [OTA_PATHS.jobStatus, OTA_PATHS.jobStatusAlias],
  [OTA_PATHS.jobSummary, OTA_PATHS.jobSummaryAlias],
];
const routeKey = (method: string, url: string) => `${method} ${url.split('?')[0] ?? url}`;
const listed = new Set(ROUTES.map((route) => routeKey(route.method, route.url)));
ROUTES.push(
  ...ROUTES.flatMap((route): RouteCase[] => {
    const [path, query] = route.url.split('?') as [string, string | undefined];
    const twin = OTA_TWINS.find((pair) => pair.includes(path))?.find((other) => other !== path);
    if (!twin || listed.has(routeKey(route.method, twin))) return [];
    listed.add(routeKey(route.method, twin));
    return [
      { ...route, name: `${route.name} (twin path)`, url: query ? `${twin}?${query}` : twin },
    ];
  }),
);

/**
 * Documented operations that need credentials but are not in the matrix, each with the reason.
 * The completeness check below fails on any other documented operation ROUTES leaves out.
 */
const NOT_IN_MATRIX: Readonly<Record<string, string>> = {
  // Its credential is the RTK refresh cookie, not the access token the matrix's roles hold: a
  // signed-in API client without the cookie gets 401 by design (tokens.int.test.ts covers it).
  'POST /v1/session/refresh': 'authenticates by the refresh-token cookie',
};

/** The part of the OpenAPI document the completeness checks read. */
interface OpenApiDocument {
  security?: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, { security?: Array<Record<string, string[]>> }>>;
}

/** `METHOD /path` of every documented operation, and whether it needs the access token. */
function operationsOf(document: OpenApiDocument): Array<{ key: string; needsToken: boolean }> {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${path}`,
      needsToken: (operation.security ?? document.security ?? []).length > 0,
    })),
  );
}

/** Whether a documented `METHOD /path/{param}` is the method and path of `key`. */
function sameOperation(documented: string, key: string): boolean {
  const pattern = documented
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${pattern}$`).test(key);
}

/**
 * A second opinion written without ROLE_PERMISSIONS, so a wrong entry in the table the server
 * enforces cannot also make the expected answer wrong: every write to the fleet (nodes, groups,
 * images, jobs, users, templates, settings), by hand. No read-only role may make any of them.
 */
const FLEET_WRITES: ReadonlyArray<readonly [RouteCase['method'], string]> = [
  ['POST', '/v1/admin/node_ids'],
  ['PUT', '/v1/admin/nodes'],
  ['POST', '/v1/admin/node_group'],
  ['PUT', '/v1/admin/node_group'],
  ['DELETE', '/v1/admin/node_group'],
  ['PUT', '/v1/admin/node_group/sharing'],
  ['DELETE', '/v1/admin/node_group/sharing'],
  ['POST', '/v1/admin/otaimage'],
  ['PUT', '/v1/admin/otaimage'],
  ['DELETE', '/v1/admin/otaimage'],
  ['POST', '/v1/otaimage'],
  ['PUT', '/v1/otaimage'],
  ['DELETE', '/v1/otaimage'],
  ['POST', '/v1/admin/otaimage/package'],
  ['DELETE', '/v1/admin/otaimage/package'],
  ['POST', '/v1/otaimage/package'],
  ['DELETE', '/v1/otaimage/package'],
  // A signed upload URL is the first half of adding an image.
  ['GET', '/v1/admin/otaimage/package/upload'],
  ['GET', '/v1/otaimage/package/upload'],
  ['POST', '/v1/admin/otajob'],
  ['PUT', '/v1/admin/otajob'],
  ['POST', '/v1/otajob'],
  ['PUT', '/v1/otajob'],
  ['POST', '/v1/admin/user2'],
  ['PUT', '/v1/admin/user2'],
  ['DELETE', '/v1/admin/user2'],
  ['PUT', '/v1/admin/custom_data'],
  ['PUT', '/v1/admin/common_custom_data'],
  ['POST', '/v1/admin/message_template'],
  ['POST', '/v1/message_template'],
  ['POST', '/v1/admin/ses_verified_email'],
  ['PUT', '/v1/admin/ses_verified_email'],
  ['DELETE', '/v1/admin/ses_verified_email'],
  ['POST', '/v1/ses_verified_email'],
  ['PUT', '/v1/ses_verified_email'],
  ['DELETE', '/v1/ses_verified_email'],
  ['PUT', '/v1/admin/update_apigateway'],
  ['PUT', '/v1/admin/terms_policy'],
  ['DELETE', '/v1/admin/terms_policy'],
  ['PUT', '/v1/terms_policy'],
  ['DELETE', '/v1/terms_policy'],
  ['PUT', '/v1/admin/license_file'],
  ['POST', '/v1/admin/webhook_integration'],
  ['PUT', '/v1/admin/webhook_integration'],
  ['POST', '/v1/admin/event_filter'],
  ['PUT', '/v1/admin/event_filter'],
  ['POST', '/v1/admin/push_notification/mobile_platform'],
  ['DELETE', '/v1/admin/push_notification/mobile_platform'],
  ['POST', '/v1/admin/identity_provider'],
  ['PUT', '/v1/admin/identity_provider'],
  ['DELETE', '/v1/admin/identity_provider'],
  ['PUT', '/v1/admin/cognito_appclient'],
  ['PUT', '/v1/cognito_appclient'],
  ['POST', '/v1/admin/cognito_domain'],
  ['DELETE', '/v1/admin/cognito_domain'],
  ['POST', '/v1/cognito_domain'],
  ['DELETE', '/v1/cognito_domain'],
  ['PUT', '/v1/admin/deployment_settings/backup/cognito_appclient'],
  ['PUT', '/v1/admin/deployment_settings/restore/cognito_appclient'],
];

/** The roles that only read, named by hand (not read off the permission table). */
const READ_ONLY_ROLES = ['service_engineer_role', 'manufacturing_engineer_role', 'user'] as const;

/**
 * Where a signed-in user acts on their own account, nodes, shares and automations. Everything
 * else needs a staff permission. The dashboard update check is any signed-in user's (ADR 14).
 */
const OWN_ACCOUNT = [
  /^\S+ \/v1\/user(2)?(\/|$)/,
  /^GET \/v1\/nodes$/,
  /^\S+ \/v1\/password2?$/,
  /^POST \/v1\/logout2?$/,
  /^\S+ \/v1(\/admin)?\/dashboard\/update$/,
];
const isOwnAccount = (key: string) => OWN_ACCOUNT.some((pattern) => pattern.test(key));

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

  /** Answers `route` as the holder of `token` (none: anonymous). */
  async function send(
    route: RouteCase,
    token?: string,
  ): Promise<{ statusCode: number; body: string }> {
    const options = {
      method: route.method,
      url: route.url,
      ...(token ? { headers: { authorization: token } } : {}),
      ...(route.payload ? { payload: route.payload } : {}),
    };
    if (!route.stream) {
      const response = await server.app.inject(options);
      return { statusCode: response.statusCode, body: response.body };
    }
    // An event stream answers for as long as the client listens: read the answer's first chunk,
    // then hang up as a closed dashboard tab does (a refusal ends by itself).
    const response = await server.app.inject({ ...options, payloadAsStream: true });
    let body = '';
    for await (const chunk of response.stream()) {
      body += String(chunk);
      if (response.statusCode === 200) break;
    }
    response.raw.res.req.destroy();
    return { statusCode: response.statusCode, body };
  }

  it.each(ROUTES)('$name: anonymous gets 401', async (route) => {
    const response = await send(route);
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({
      status: 'failure',
      description: 'Unauthorized',
    });
  });

  it.each(ROUTES)(
    '$name: each role gets exactly what the permission table grants',
    async (route) => {
      for (const role of ROLES_UNDER_TEST) {
        const granted =
          route.permission === undefined || ROLE_PERMISSIONS[role].includes(route.permission);
        const response = await send(route, tokens.get(role) ?? '');
        if (granted) {
          expect([401, 403], `${role} ${route.name}: ${response.body}`).not.toContain(
            response.statusCode,
          );
          expect(response.statusCode, `${role} ${route.name}: ${response.body}`).toBeLessThan(500);
          if (route.stream) expect(response.body).toContain(': connected');
        } else {
          expect(response.statusCode, `${role} ${route.name}`).toBe(403);
          expect(JSON.parse(response.body)).toMatchObject({
            status: 'failure',
            error_code: 100004,
          });
        }
      }
    },
  );

  it('covers every documented operation that needs a token, or says why not', async () => {
    const document = (
      await server.app.inject({ method: 'GET', url: '/v1/openapi.json' })
    ).json<OpenApiDocument>();
    const operations = operationsOf(document);
    const covered = [...new Set(ROUTES.map((route) => routeKey(route.method, route.url)))];
    const missing = operations
      .filter(({ key, needsToken }) => needsToken && !(key in NOT_IN_MATRIX))
      .filter(({ key }) => !covered.some((route) => sameOperation(key, route)))
      .map(({ key }) => key);
    expect(missing, 'documented operations without a matrix case').toEqual([]);
    // A stale exclusion or a case for an undocumented route is a mistake in this file.
    const documented = new Set(operations.filter((o) => o.needsToken).map((o) => o.key));
    expect(Object.keys(NOT_IN_MATRIX).filter((key) => !documented.has(key))).toEqual([]);
    expect(
      covered.filter((route) => !operations.some(({ key }) => sameOperation(key, route))),
    ).toEqual([]);
  });

  it('answers every operation documented as public without a token', async () => {
    const document = (
      await server.app.inject({ method: 'GET', url: '/v1/openapi.json' })
    ).json<OpenApiDocument>();
    const publicOperations = operationsOf(document).filter(({ needsToken }) => !needsToken);
    expect(publicOperations.length).toBeGreaterThan(0);
    for (const { key } of publicOperations) {
      const [method, path] = key.split(' ') as [RouteCase['method'], string];
      const response = await server.app.inject({ method, url: path.replace(/\{[^}]+\}/g, 'x') });
      expect([401, 403], `anonymous ${key}: ${response.body}`).not.toContain(response.statusCode);
    }
  });

  it('lists by hand every documented write that is not to the caller’s own account', async () => {
    const document = (
      await server.app.inject({ method: 'GET', url: '/v1/openapi.json' })
    ).json<OpenApiDocument>();
    const operations = operationsOf(document);
    const listedWrites = new Set(FLEET_WRITES.map(([method, path]) => `${method} ${path}`));
    const unlisted = operations
      .filter(({ key, needsToken }) => needsToken && !key.startsWith('GET '))
      .filter(({ key }) => !isOwnAccount(key) && !(key in NOT_IN_MATRIX) && !listedWrites.has(key))
      .map(({ key }) => key);
    expect(unlisted, 'writes missing from FLEET_WRITES').toEqual([]);
    const documented = new Set(operations.map(({ key }) => key));
    expect([...listedWrites].filter((key) => !documented.has(key))).toEqual([]);
  });

  it.each(READ_ONLY_ROLES)(
    '%s gets 403 on every write to the fleet, by the hand-written list',
    async (role) => {
      for (const [method, url] of FLEET_WRITES) {
        const response = await server.app.inject({
          method,
          url,
          headers: { authorization: tokens.get(role) ?? '' },
        });
        expect(response.statusCode, `${role} ${method} ${url}: ${response.body}`).toBe(403);
      }
    },
  );

  it('gives an end user 403 on every documented operation outside their own account', async () => {
    const document = (
      await server.app.inject({ method: 'GET', url: '/v1/openapi.json' })
    ).json<OpenApiDocument>();
    const staffOnly = operationsOf(document).filter(
      ({ key, needsToken }) => needsToken && !isOwnAccount(key) && !(key in NOT_IN_MATRIX),
    );
    // Every /v1/admin/ call is among them but the dashboard update check (ADR 14).
    expect(staffOnly.filter(({ key }) => key.includes(' /v1/admin/')).length).toBe(
      operationsOf(document).filter(
        ({ key }) => key.includes(' /v1/admin/') && !key.endsWith('/dashboard/update'),
      ).length,
    );
    for (const { key } of staffOnly) {
      const [method, path] = key.split(' ') as [RouteCase['method'], string];
      const response = await server.app.inject({
        method,
        url: path.replace(/\{[^}]+\}/g, 'x'),
        headers: { authorization: tokens.get('user') ?? '' },
      });
      expect(response.statusCode, `user ${key}: ${response.body}`).toBe(403);
    }
  });

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

  // Own and foreign objects (QUALITY S1): Bob, an end user like Alice, reaches for each of Alice's
  // objects by id. Every attempt is refused or answers as if the object did not exist, nothing of
  // Alice's (or of Carol, whom she shares with) shows in an answer, and nothing of hers changes.
  describe('one end user and another’s objects', () => {
    let alice: EndUser;
    let bob: EndUser;
    let carol: EndUser;
    let mappingRequest: string;
    let automationId: string;
    let sharingRequest: string;
    let call: ReturnType<typeof caller>;

    beforeAll(async () => {
      call = caller(server);
      const admin = tokens.get('super_admin') ?? '';
      alice = await createEndUser(server, admin, 'alice.matrix@fleetdeck.test');
      bob = await createEndUser(server, admin, 'bob.matrix@fleetdeck.test');
      carol = await createEndUser(server, admin, 'carol.matrix@fleetdeck.test');
      await registerNodes(server, admin, ['OWNA1', 'OWNA2']);
      await claimNode(server, alice, 'OWNA1');
      // A mapping request of Alice's that OWNA2 never confirms.
      const mapping = await call('PUT', '/v1/user/nodes/mapping', alice.token, {
        node_id: 'OWNA2',
        secret_key: 'alice-secret',
        operation: 'add',
      });
      expect(mapping.statusCode, mapping.body).toBe(200);
      mappingRequest = mapping.json<{ request_id: string }>().request_id;
      const automation = await call('POST', '/v1/user/node_automation', alice.token, {
        name: 'Alice cools',
        node_id: 'OWNA1',
        event_type: 'node_params',
        events: [{ params: { Thermostat: { Temperature: 30 } }, check: '>' }],
        actions: [{ node_id: 'OWNA1', params: { Thermostat: { Power: true } } }],
      });
      expect(automation.statusCode, automation.body).toBe(200);
      automationId = automation.json<{ automation_id: string }>().automation_id;
      const shared = await call('PUT', '/v1/user/nodes/sharing', alice.token, {
        nodes: ['OWNA1'],
        user_name: carol.userName,
      });
      expect(shared.statusCode, shared.body).toBe(200);
      sharingRequest = shared.json<{ request_id: string }>().request_id;
    });

    /** What Alice and Carol see of Alice's objects. */
    const aliceObjects = async () => {
      const read = async (url: string, token: string) => {
        const response = await call('GET', url, token);
        return { status: response.statusCode, body: response.json<unknown>() };
      };
      return {
        nodes: await read('/v1/user/nodes', alice.token),
        mapping: await read(`/v1/user/nodes/mapping?request_id=${mappingRequest}`, alice.token),
        automation: await read(
          `/v1/user/node_automation?automation_id=${automationId}`,
          alice.token,
        ),
        holders: await read('/v1/user/nodes/sharing?node_id=OWNA1', alice.token),
        sent: await read('/v1/user/nodes/sharing/requests?primary_user=true', alice.token),
        received: await read('/v1/user/nodes/sharing/requests', carol.token),
      };
    };

    it('refuses Bob every one of Alice’s objects and leaves them as they were', async () => {
      const before = await aliceObjects();
      expect(before.nodes.body).toMatchObject({ nodes: ['OWNA1'] });
      expect(before.mapping.body).toMatchObject({ request_status: 'requested' });
      expect(before.automation.status).toBe(200);
      expect(before.received.body).toMatchObject({
        sharing_requests: [{ request_id: sharingRequest, request_status: 'pending' }],
      });

      const attempts: Array<{
        name: string;
        method: RouteCase['method'];
        url: string;
        payload?: object;
        status: number;
        /** For a read that answers 200: the empty answer Bob gets. */
        empty?: object;
      }> = [
        {
          name: 'read her mapping request',
          method: 'GET',
          url: `/v1/user/nodes/mapping?request_id=${mappingRequest}`,
          status: 404,
        },
        {
          name: 'remove her node',
          method: 'PUT',
          url: '/v1/user/nodes/mapping',
          payload: { node_id: 'OWNA1', secret_key: 'guess', operation: 'remove' },
          status: 400,
        },
        {
          name: 'read her node',
          method: 'GET',
          url: '/v1/user/nodes?node_id=OWNA1&node_details=true',
          status: 200,
          empty: { nodes: [], node_info: [], node_details: [], total: 0 },
        },
        {
          name: 'read her node (alias)',
          method: 'GET',
          url: '/v1/nodes?node_id=OWNA1',
          status: 200,
          empty: { nodes: [], node_info: [], total: 0 },
        },
        {
          name: 'read her automation',
          method: 'GET',
          url: `/v1/user/node_automation?automation_id=${automationId}`,
          status: 400,
        },
        {
          name: 'list the automations of her node',
          method: 'GET',
          url: '/v1/user/node_automation?node_id=OWNA1',
          status: 200,
          empty: { automation_trigger_actions: [] },
        },
        {
          name: 'change her automation',
          method: 'PUT',
          url: `/v1/user/node_automation?automation_id=${automationId}`,
          payload: { name: 'Bob was here', enabled: false },
          status: 400,
        },
        {
          name: 'delete her automation',
          method: 'DELETE',
          url: `/v1/user/node_automation?automation_id=${automationId}`,
          status: 400,
        },
        {
          name: 'automate her node',
          method: 'POST',
          url: '/v1/user/node_automation',
          payload: {
            name: 'Bob cools',
            node_id: 'OWNA1',
            event_type: 'node_params',
            events: [{ params: { Thermostat: { Temperature: 30 } }, check: '>' }],
            actions: [{ node_id: 'OWNA1', params: { Thermostat: { Power: true } } }],
          },
          status: 400,
        },
        {
          name: 'read who holds her node',
          method: 'GET',
          url: '/v1/user/nodes/sharing?node_id=OWNA1',
          status: 400,
        },
        {
          name: 'share her node with himself',
          method: 'PUT',
          url: '/v1/user/nodes/sharing',
          payload: { nodes: ['OWNA1'], user_name: bob.userName },
          status: 400,
        },
        {
          name: 'end her share with Carol',
          method: 'DELETE',
          url: `/v1/user/nodes/sharing?nodes=OWNA1&user_name=${carol.userName}`,
          status: 400,
        },
        {
          name: 'read her sharing request as the sender',
          method: 'GET',
          url: `/v1/user/nodes/sharing/requests?request_id=${sharingRequest}&primary_user=true`,
          status: 200,
          empty: { sharing_requests: [] },
        },
        {
          name: 'read her sharing request as the recipient',
          method: 'GET',
          url: `/v1/user/nodes/sharing/requests?request_id=${sharingRequest}`,
          status: 200,
          empty: { sharing_requests: [] },
        },
        {
          name: 'accept her sharing request to Carol',
          method: 'PUT',
          url: '/v1/user/nodes/sharing/requests',
          payload: { request_id: sharingRequest, accept: true },
          status: 400,
        },
        {
          name: 'withdraw her sharing request',
          method: 'DELETE',
          url: `/v1/user/nodes/sharing/requests?request_id=${sharingRequest}`,
          status: 404,
        },
      ];
      for (const attempt of attempts) {
        const response = await call(attempt.method, attempt.url, bob.token, attempt.payload);
        const what = `Bob: ${attempt.name}: ${response.body}`;
        expect(response.statusCode, what).toBe(attempt.status);
        if (attempt.empty) expect(response.json(), what).toEqual(attempt.empty);
        for (const secret of [alice.userName, alice.userId, carol.userName, 'alice-secret'])
          expect(response.body, what).not.toContain(secret);
      }

      expect(await aliceObjects()).toEqual(before);
    });
  });

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
