import { z } from 'zod';
import { PUSH_EVENTS, PUSH_EVENT_PREFIX, PUSH_PLATFORMS } from '../constants.js';

/**
 * Push notifications (access §2, §3, §4, §7, §9): the master switch (a webhook integration), the
 * per-event filters, the mobile platforms (FCM and APNs credentials) and the end users' registered
 * devices. Shapes follow RainMaker (`reference/rainmaker-contract.md` A.8 and the main OpenAPI file).
 */

/** The one integration Fleetdeck runs: service and endpoint name of the master switch. */
export const MOBILE_PUSH_INTEGRATION = 'mobile_push_notification';

/** The 12 event types with their prefix, e.g. `rmaker.event.node_connected`. */
export const PUSH_EVENT_TYPES = PUSH_EVENTS.map((event) => `${PUSH_EVENT_PREFIX}${event}`) as [
  string,
  ...string[],
];
export type PushEvent = (typeof PUSH_EVENTS)[number];

/** The event type of a push event name. */
export function pushEventType(event: PushEvent): string {
  return `${PUSH_EVENT_PREFIX}${event}`;
}

/** The entity id of a system-wide event filter: `system.` plus the event type. */
export function systemEntityId(eventType: string): string {
  return `system.${eventType}`;
}

/** Labels of the 12 event switches, in the order of §9. */
export const PUSH_EVENT_LABELS: Readonly<Record<PushEvent, string>> = {
  user_node_added: 'User node added',
  node_shared_with_user: 'Node shared with user',
  user_node_removed: 'User node removed',
  node_connected: 'Node connected',
  node_disconnected: 'Node disconnected',
  node_params_changed: 'Node params change',
  node_alert: 'Node alerts',
  node_automation_trigger: 'Node automation trigger',
  group_removed: 'Group removed',
  node_config_changed: 'Node config change',
  group_added: 'Group added',
  group_shared_with_user: 'Group shared with user',
};

export type PushPlatform = (typeof PUSH_PLATFORMS)[number];
export const PUSH_PLATFORM_LABELS: Readonly<Record<PushPlatform, string>> = {
  GCM: 'Google (FCM)',
  APNS: 'Apple (APNs)',
  APNS_SANDBOX: 'Apple sandbox (APNs)',
};

/** Error codes (RainMaker families 113xxx and 114xxx). */
/** Limits of push notifications. */
export const PUSH_LIMITS = {
  /**
   * Phones one user keeps registered; registering another drops the oldest. Without a bound one
   * account could register tokens without end, each a row and a send for every event.
   */
  endpointsPerUser: 20,
} as const;

export const PUSH_ERROR_CODES = {
  integrationInvalid: 113013,
  integrationMissing: 113011,
  integrationExists: 113012,
  invalidEntityType: 113107,
  filterMissing: 113109,
  filterExists: 113110,
  noIntegrations: 113133,
  invalidPlatform: 114002,
  credentialsInvalid: 114005,
  platformExists: 114006,
  platformMissing: 114014,
  endpointExists: 114016,
  endpointTarget: 114021,
  endpointMissing: 114036,
  noPlatforms: 114037,
} as const;

/** Server texts (the spec quotes none for these failures). */
export const PUSH_MESSAGES = {
  integrationInvalid: `Invalid service or endpoint name: only ${MOBILE_PUSH_INTEGRATION} is supported`,
  integrationMissing:
    "Integration webhook configuration doesn't exist for given Integration Service Name and Endpoint Name; create it with POST first",
  integrationExists:
    'Integration webhook configuration already exists for Integration Service Name and Endpoint Name; change it with PUT',
  integrationSaved: 'Mobile push notification integration saved',
  invalidEventType: 'Invalid event type',
  invalidEntityType: 'Invalid Entity Type: only System event filters are supported',
  invalidEntityId: 'The entity id of a System event filter is system. followed by the event type',
  noIntegrations: `Please specify at least one Webhook Integrations (${MOBILE_PUSH_INTEGRATION})`,
  filterMissing: "Event Entity Mapping doesn't exist; create it with POST first",
  filterExists: 'Event Entity Mapping already exist; change it with PUT',
  filterSaved: 'Event filter saved',
  invalidPlatform: 'Please provide a valid platform (GCM, APNS or APNS_SANDBOX)',
  platformExists: 'A platform application of this type exists already; delete it first',
  platformMissing: 'Platform Application does not exist',
  noPlatforms: 'No platform applications found',
  platformCreated: 'Platform application created',
  platformDeleted: 'Platform application deleted',
  fcmKeyInvalid:
    'Platform credentials are invalid: for FCM HTTP v1 the API key is the service-account JSON file (project_id, client_email, private_key)',
  apnsCertificateInvalid:
    'Platform credentials are invalid: the SSL certificate is not a valid PEM certificate',
  apnsKeyInvalid:
    'Platform credentials are invalid: the private key is not a valid PEM private key',
  apnsKeyMismatch:
    'Platform credentials are invalid: the private key does not belong to the certificate',
  apnsCertificateExpired: 'Platform credentials are invalid: the certificate has expired',
  endpointExists: 'Platform endpoint already exist',
  endpointMissing: 'No platform endpoint found',
  endpointTarget: 'Either mobile device token or endpoint must be specified',
  endpointDeleted: 'Platform endpoint removed',
} as const;

export const WebhookIntegrationBodySchema = z.object({
  service_name: z.string().min(1, { error: 'Service Name is missing' }).max(128),
  endpoint_name: z.string().min(1, { error: 'Endpoint Name is missing' }).max(128),
  enabled: z.boolean({ error: 'Integration Enabled is missing' }),
});
export type WebhookIntegrationBody = z.infer<typeof WebhookIntegrationBodySchema>;

export const WebhookIntegrationQuerySchema = z.object({
  service_name: z.string().max(128).optional(),
  endpoint_name: z.string().max(128).optional(),
});

export const WebhookIntegrationSchema = z.object({
  service_name: z.string(),
  endpoint_name: z.string(),
  enabled: z.boolean(),
});
export type WebhookIntegration = z.infer<typeof WebhookIntegrationSchema>;

/** `GET /v1/admin/webhook_integration` (an empty list when the switch was never set). */
export const WebhookIntegrationListSchema = z.object({
  integration_info_list: z.array(WebhookIntegrationSchema),
});
export type WebhookIntegrationList = z.infer<typeof WebhookIntegrationListSchema>;

export const EVENT_ENTITY_TYPES = ['User', 'Node', 'System'] as const;

export const EventFilterSchema = z.object({
  event_type: z.string(),
  entity_id: z.string(),
  entity_type: z.enum(EVENT_ENTITY_TYPES),
  enabled: z.boolean(),
  enabled_for_integrations: z.array(z.string()),
});
export type EventFilter = z.infer<typeof EventFilterSchema>;

/** `POST/PUT /v1/admin/event_filter`. */
export const EventFilterBodySchema = z.object({
  event_type: z.enum(PUSH_EVENT_TYPES, { error: PUSH_MESSAGES.invalidEventType }),
  entity_id: z.string().min(1, { error: 'Entity Id is missing' }).max(256),
  entity_type: z.enum(EVENT_ENTITY_TYPES, { error: PUSH_MESSAGES.invalidEntityType }),
  enabled: z.boolean({ error: 'Enabled at Entity Level is missing' }),
  enabled_for_integrations: z.array(z.string().max(128), {
    error: 'Enabled for Integration is missing',
  }),
});
export type EventFilterBody = z.infer<typeof EventFilterBodySchema>;

export const EventFilterQuerySchema = z.object({
  event_type: z.string().max(128).optional(),
  entity_type: z.enum(EVENT_ENTITY_TYPES).optional(),
  entity_id: z.string().max(256).optional(),
});

/** `GET /v1/admin/event_filter?event_type=` (an empty list when none exists for it). */
export const EventFilterListSchema = z.object({
  event_entity_mapping_list: z.array(EventFilterSchema),
});
export type EventFilterList = z.infer<typeof EventFilterListSchema>;

const pemText = z.string().min(1).max(20_000);
const platformName = z
  .string()
  .regex(/^[\w.-]{2,256}$/, {
    error:
      'Name must be 2 to 256 characters long, including hyphens (-), underscores (_), and periods (.)',
  })
  .optional();

/** `POST /v1/admin/push_notification/mobile_platform`. */
export const MobilePlatformCreateBodySchema = z.discriminatedUnion(
  'platform',
  [
    z.object({
      platform: z.literal('GCM'),
      name: platformName,
      api_key: z.string().min(1, { error: 'API key is missing' }).max(20_000),
    }),
    z.object({
      platform: z.enum(['APNS', 'APNS_SANDBOX']),
      name: platformName,
      auth_type: z.literal('certificate').optional(),
      ssl_certificate: pemText,
      private_key: pemText,
      /** The app's bundle id (apns-topic); read from the certificate when absent. */
      bundle_id: z.string().max(256).optional(),
    }),
  ],
  { error: PUSH_MESSAGES.invalidPlatform },
);
export type MobilePlatformCreateBody = z.infer<typeof MobilePlatformCreateBodySchema>;

export const MobilePlatformCreateResponseSchema = z.object({
  status: z.literal('success'),
  description: z.string(),
  platform_application_arn: z.string(),
});

export const MobilePlatformSchema = z.object({
  platform_application_arn: z.string(),
  name: z.string(),
  platform: z.enum(PUSH_PLATFORMS),
  Attributes: z.object({
    Enabled: z.string(),
    AuthenticationMethod: z.string().optional(),
    AppleCertificateExpirationDate: z.string().optional(),
    /** The FCM project of a GCM platform. */
    ProjectId: z.string().optional(),
  }),
});
export type MobilePlatform = z.infer<typeof MobilePlatformSchema>;

/** `GET …/mobile_platform`: a 400 (114037) when none exists. */
export const MobilePlatformListSchema = z.object({
  platform_applications: z.array(MobilePlatformSchema),
});
export type MobilePlatformList = z.infer<typeof MobilePlatformListSchema>;

export const MobilePlatformDeleteQuerySchema = z.object({
  platform_application_arn: z.string().min(1).max(512),
});

/** `POST /v1/user/push_notification/mobile_platform_endpoint` (an end user's phone). */
export const PlatformEndpointCreateBodySchema = z.object({
  platform: z.enum(PUSH_PLATFORMS, { error: PUSH_MESSAGES.invalidPlatform }),
  mobile_device_token: z
    .string({ error: 'Mobile token is missing' })
    .min(1, { error: 'Mobile token is missing' })
    .max(4096),
});
export type PlatformEndpointCreateBody = z.infer<typeof PlatformEndpointCreateBodySchema>;

export const PlatformEndpointCreateResponseSchema = z.object({
  status: z.literal('success'),
  platform_endpoint_arn: z.string(),
});

export const PlatformEndpointSchema = z.object({
  mobile_device_token: z.string(),
  platform_endpoint_arn: z.string(),
  platform_application_arn: z.string(),
});
export const PlatformEndpointListSchema = z.object({
  platform_endpoints: z.array(PlatformEndpointSchema),
});
export type PlatformEndpointList = z.infer<typeof PlatformEndpointListSchema>;

export const PlatformEndpointDeleteQuerySchema = z.object({
  mobile_device_token: z.string().max(4096).optional(),
  endpoint: z.string().max(512).optional(),
});

/** API paths of push notifications. */
export const PUSH_PATHS = {
  webhookIntegration: '/v1/admin/webhook_integration',
  eventFilter: '/v1/admin/event_filter',
  mobilePlatform: '/v1/admin/push_notification/mobile_platform',
  mobilePlatformEndpoint: '/v1/user/push_notification/mobile_platform_endpoint',
} as const;
