import type { Generated } from 'kysely';

/** Booleans are stored as 0/1 integers so one schema serves SQLite and PostgreSQL. */
export type DbBool = number;
/** Times are epoch seconds (bigint on PostgreSQL, parsed back to numbers). */
export type EpochSeconds = number;

export interface UsersTable {
  user_id: string;
  user_name: string;
  password_hash: string | null;
  name: string;
  super_admin: DbBool;
  verified: DbBool;
  mfa: DbBool;
  phone_number: string | null;
  created_at: EpochSeconds;
  updated_at: EpochSeconds;
  password_changed_at: EpochSeconds | null;
}

export interface UserRolesTable {
  user_id: string;
  role: string;
}

export interface RolesTable {
  role: string;
  label: string;
}

export interface RolePermissionsTable {
  role: string;
  permission: string;
}

/** A session is one refresh-token family: revoking it ends every token issued in it. */
export interface SessionsTable {
  session_id: string;
  user_id: string;
  created_at: EpochSeconds;
  expires_at: EpochSeconds;
  revoked_at: EpochSeconds | null;
  revoked_reason: string | null;
  user_agent: string | null;
  ip: string | null;
}

export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  issued_at: EpochSeconds;
  expires_at: EpochSeconds;
  rotated_at: EpochSeconds | null;
}

export interface SystemSecretsTable {
  name: string;
  value: string;
  created_at: EpochSeconds;
}

export interface NodesTable {
  node_id: string;
  name: string;
  type: string;
  model: string;
  fw_version: string;
  city: string | null;
  serial: string | null;
  /** JSON array of `key:value` strings, in the order they were given. */
  tags: string;
  credential_hash: string;
  /** The MQTT password in Mosquitto's `$7$` form (external brokers); null for older rows. */
  broker_credential: string | null;
  secret_key_hash: string;
  registered_at: EpochSeconds;
  activated_at: EpochSeconds | null;
  /** null: never connected; 1: online; 0: offline. */
  connected: number | null;
  /** Epoch milliseconds of the last connectivity change. */
  conn_changed_at: number | null;
  conn_session: number;
  /** The last params document the node reported (its config is in `node_configs`). */
  params: string | null;
  config_updated_at: EpochSeconds | null;
  params_updated_at: EpochSeconds | null;
  last_activity_at: EpochSeconds | null;
  primary_user_id: string | null;
  claimed_at: EpochSeconds | null;
}

/** The last node config document each node published (ADR 26: kept out of the `nodes` row). */
export interface NodeConfigsTable {
  node_id: string;
  config: string;
}

export interface NodeTagsTable {
  tag: string;
  node_id: string;
}

export interface NodeAlertsTable {
  alert_id: string;
  node_id: string;
  created_at: EpochSeconds;
  payload: string;
}

export interface UserNodeMappingsTable {
  request_id: string;
  node_id: string;
  user_id: string;
  secret_key_hash: string;
  operation: string;
  status: string;
  created_at: EpochSeconds;
  updated_at: EpochSeconds;
}

export interface NodeCountersTable {
  name: string;
  value: number;
}

/** Members per group, kept by triggers (migration 0017, ADR 21). */
export interface NodeGroupCountsTable {
  group_id: string;
  n: number;
}

export interface NodeGroupsTable {
  group_id: string;
  group_name: string;
  description: string;
  is_automatic: DbBool;
  filter_type: string | null;
  filter_model: string | null;
  filter_fw_version: string | null;
  filter_city: string | null;
  filter_serial: string | null;
  created_at: EpochSeconds;
}

export interface NodeGroupMembersTable {
  group_id: string;
  node_id: string;
  source: 'filter' | 'manual';
}

export interface OtaImagesTable {
  ota_image_id: string;
  image_name: string;
  type: string;
  model: string;
  fw_version: string;
  fault_id: string | null;
  file_name: string;
  blob_key: string;
  file_size: number;
  file_md5: string;
  file_sha256: string;
  signature: string;
  is_package: DbBool;
  archived: DbBool;
  uploaded_by: string | null;
  upload_timestamp: EpochSeconds;
}

/** A signed upload URL handed out and, once the PUT completed, the size of what arrived. */
export interface OtaUploadsTable {
  file_path: string;
  file_name: string;
  blob_key: string;
  user_id: string;
  file_size: number | null;
  created_at: EpochSeconds;
  completed_at: EpochSeconds | null;
}

export interface OtaJobsTable {
  ota_job_id: string;
  ota_job_name: string;
  ota_image_id: string;
  description: string;
  status: 'active' | 'finished' | 'cancelled';
  force_push: DbBool;
  /** JSON array of group ids as requested. */
  groups: string;
  /** JSON array of node ids as requested. */
  nodes: string;
  total_count: number;
  archived: DbBool;
  created_by: string | null;
  request_key: string | null;
  triggered_timestamp: EpochSeconds;
  cancelled_timestamp: EpochSeconds | null;
  finished_timestamp: EpochSeconds | null;
}

export interface OtaExecutionsTable {
  ota_job_id: string;
  node_id: string;
  status: string;
  additional_info: string;
  status_timestamp: EpochSeconds;
  ts_source: string;
  /**
   * Epoch milliseconds of the latest offer (the claim an offer is made under, ADR 7 amendment).
   * Rows offered before that amendment hold seconds, which read as long ago.
   */
  offered_at: number | null;
  offer_count: number;
}

export interface OtaExecutionHistoryTable {
  /** Storage order: breaks ties between entries reported in the same second. */
  seq: Generated<number>;
  ota_job_id: string;
  node_id: string;
  entry_key: string;
  status: string;
  additional_info: string;
  timestamp: EpochSeconds;
  ts_source: string;
  received_at: EpochSeconds;
}

/** A named JSON document (`admin/common_custom_data`), e.g. the fault catalogues. */
export interface CommonCustomDataTable {
  name: string;
  /** JSON text. */
  value: string;
  updated_at: EpochSeconds;
  updated_by: string | null;
}

/** A node's current fault: a row only while its fault param reports a code. */
export interface NodeFaultsTable {
  node_id: string;
  param: string;
  value: string;
  since: EpochSeconds;
}

/** Every change of a node's fault param, appended; value '' = cleared. */
export interface NodeFaultHistoryTable {
  id: Generated<number>;
  node_id: string;
  param: string;
  value: string;
  timestamp: EpochSeconds;
}

/** Statistics rollups (ADR 8): one value per metric and UTC epoch day. */
export interface StatsDailyTable {
  metric: string;
  /** Days since 1970-01-01 UTC. */
  day: number;
  value: number;
}

/** Diagnostics (ESP Insights): what a node last said about itself. */
export interface DiagNodeInfoTable {
  node_id: string;
  project: string;
  app_version: string;
  chip: string | null;
  sha256: string | null;
  last_boot: EpochSeconds | null;
  last_seen: EpochSeconds;
}

/** One diagnostics log record (error, warning, event, crash, reboot). */
export interface DiagLogsTable {
  id: Generated<number>;
  node_id: string;
  ts: EpochSeconds;
  type: string;
  tag: string;
  message: string;
  task: string | null;
  sha256: string | null;
  elf_missing: number;
  /** JSON text. */
  data: string | null;
}

/** A metric a node reports, with its label and unit. */
export interface DiagMetricMetaTable {
  node_id: string;
  metric_id: string;
  label: string;
  unit: string;
  path: string | null;
}

/** One point of a metric series. */
export interface DiagMetricPointsTable {
  node_id: string;
  metric_id: string;
  ts: EpochSeconds;
  val: number;
}

/** A diagnostics variable (param) and where it sits in the variables tree. */
export interface DiagParamMetaTable {
  node_id: string;
  param_id: string;
  label: string;
  /** Folder labels above the param, joined with '/'. */
  path: string;
  position: number;
}

/** One value of a diagnostics variable; `val` is JSON text of the scalar. */
export interface DiagParamValuesTable {
  node_id: string;
  param_id: string;
  ts: EpochSeconds;
  val: string;
}

/** Every table Kysely knows about. */
/** Every mail and SMS Fleetdeck sends (or, without a transport, keeps for an operator to read). */
export interface OutboxMessagesTable {
  message_id: string;
  channel: 'email' | 'sms';
  recipient: string;
  sender: string | null;
  subject: string | null;
  body_text: string;
  body_html: string | null;
  purpose: string;
  transport: 'smtp' | 'sms' | 'outbox';
  created_at: EpochSeconds;
  delivered_at: EpochSeconds | null;
  error: string | null;
  /** The account the message was sent on behalf of (its hourly cap), when there is one. */
  account_id: string | null;
}

/** One row per capped send key (recipient or account), locked while a send is counted. */
export interface SendQuotaLocksTable {
  lock_key: string;
  locked_at: EpochSeconds;
}

/** One-time codes (sign-up, password reset, MFA, phone, deletion), kept as HMACs. */
export interface VerificationCodesTable {
  code_id: string;
  purpose: string;
  subject: string;
  code_hash: string;
  payload: string | null;
  created_at: EpochSeconds;
  expires_at: EpochSeconds;
  attempts: number;
  consumed_at: EpochSeconds | null;
}

/** Named deployment values (config_generation, terms documents, dashboard acknowledgement). */
export interface DeploymentConfigTable {
  name: string;
  value: string;
  updated_at: EpochSeconds;
}

/** The uploaded licence (.pem) and what was read from it (JSON). */
export interface LicenseFilesTable {
  file_name: string;
  content: string;
  details: string;
  date_modified: EpochSeconds;
}

/** The push master switch (service and endpoint `mobile_push_notification`). */
export interface WebhookIntegrationsTable {
  service_name: string;
  endpoint_name: string;
  enabled: number;
  updated_at: EpochSeconds;
}

/** Per-event switches; integrations is a JSON array of names. */
export interface EventFiltersTable {
  event_type: string;
  entity_type: string;
  entity_id: string;
  enabled: number;
  integrations: string;
  updated_at: EpochSeconds;
}

/** A mobile platform application (one per platform type); credentials are SecretBox-sealed. */
export interface PushPlatformsTable {
  platform_application_arn: string;
  platform: string;
  name: string;
  credentials: string;
  attributes: string;
  created_at: EpochSeconds;
}

/** An end user's registered phone (device token) on one platform application. */
export interface PushEndpointsTable {
  platform_endpoint_arn: string;
  platform_application_arn: string;
  user_id: string;
  device_token: string;
  token_hash: string;
  created_at: EpochSeconds;
}

/** A social sign-in provider of one user pool (migration 0011). */
export interface IdentityProvidersTable {
  pool: string;
  provider_type: string;
  client_id: string;
  /** client_secret (Google, GitHub) or private_key (Apple), sealed with SecretBox. */
  secret_sealed: string;
  provider_name: string | null;
  key_id: string | null;
  team_id: string | null;
  /** JSON array of URLs. */
  callback_urls: string;
  enabled: DbBool;
  issuer: string | null;
  created_at: EpochSeconds;
  updated_at: EpochSeconds;
}

/** An app client of a user pool: its callback URLs are the allow-list of sign-in redirects. */
export interface AppClientsTable {
  client_id: string;
  pool: string;
  client_name: string;
  /** JSON arrays. */
  callback_urls: string;
  identity_providers: string;
  created_at: EpochSeconds;
  updated_at: EpochSeconds;
}

export interface CognitoDomainsTable {
  pool: string;
  domain_name: string;
  created_at: EpochSeconds;
}

export interface AppClientBackupsTable {
  pool: string;
  /** JSON array of the pool's app clients as they were. */
  app_clients: string;
  client_count: number;
  created_at: EpochSeconds;
}

/** A provider account (issuer, subject) linked to a Fleetdeck user. */
export interface SocialIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: string;
  provider_type: string;
  email: string | null;
  created_at: EpochSeconds;
  last_login_at: EpochSeconds;
}

/** A pending social sign-in ('state') or the one-time code it produced ('code'). */
export interface OAuthRequestsTable {
  key_hash: string;
  kind: string;
  pool: string;
  provider_type: string;
  redirect_uri: string;
  code_verifier: string | null;
  nonce: string | null;
  app_code_challenge: string | null;
  user_id: string | null;
  created_at: EpochSeconds;
  expires_at: EpochSeconds;
  used_at: EpochSeconds | null;
}

/** The Add User profile of an account (migration 0012). */
export interface UserProfilesTable {
  user_id: string;
  first_name: string;
  last_name: string;
  city: string;
  phone_number: string;
  geo_region: string;
  registration_date: string;
  created_by: string | null;
  updated_at: EpochSeconds;
}

/** One custom-data entry of a user; `value` is JSON text. */
export interface UserCustomDataTable {
  user_id: string;
  data_key: string;
  value: string;
  updated_at: EpochSeconds;
}

/** A stored e-mail template; '' as from address means the deployment's MAIL_FROM. */
export interface MessageTemplatesTable {
  template_type: string;
  message_subject: string;
  message_text: string;
  from_email_address: string;
  from_user_name: string;
  updated_by: string | null;
  updated_at: EpochSeconds;
}

/** A sender address; verified once its owner confirmed the code mailed to it. */
export interface SenderAddressesTable {
  email: string;
  requested_by: string | null;
  requested_at: EpochSeconds;
  verified_at: EpochSeconds | null;
}

/** Second-factor state of one user (migration 0010). */
export interface UserMfaTable {
  user_id: string;
  pending_phone_number: string | null;
  totp_secret_sealed: string | null;
  totp_pending_sealed: string | null;
  totp_enabled_at: EpochSeconds | null;
  totp_last_step: number | null;
  updated_at: EpochSeconds;
}

/** A one-use recovery code of an authenticator-app user, stored as a SHA-256 hash. */
export interface MfaRecoveryCodesTable {
  code_hash: string;
  user_id: string;
  created_at: EpochSeconds;
  used_at: EpochSeconds | null;
}

/** The pending second step of a sign-in; the opaque session value is stored hashed. */
export interface MfaChallengesTable {
  challenge_hash: string;
  user_id: string;
  method: string;
  created_at: EpochSeconds;
  expires_at: EpochSeconds;
  attempts: number;
  consumed_at: EpochSeconds | null;
}

/** Exact node counts per facet value, kept by triggers (migration 0014, ADR 16). */
export interface NodeFacetCountsTable {
  facet: 'type' | 'model' | 'fw_version' | 'city' | 'tag';
  value: string;
  n: number | string;
}

/** A secondary user of a node, valid while the node keeps the primary user and claim it names. */
export interface NodeSharesTable {
  node_id: string;
  user_id: string;
  granted_by: string;
  /** The node's `claimed_at` when the share was granted. */
  granted_claim: EpochSeconds;
  created_at: EpochSeconds;
}

/** A node or group sharing request (migration 0016). */
export interface SharingRequestsTable {
  request_id: string;
  kind: 'node' | 'group';
  from_user_id: string;
  to_user_id: string;
  /** JSON array of node or group ids. */
  entity_ids: string;
  status: 'pending' | 'accepted' | 'declined';
  created_at: EpochSeconds;
  updated_at: EpochSeconds;
}

/** A user who accepted a device group's notifications. */
export interface GroupSharesTable {
  group_id: string;
  user_id: string;
  shared_by: string | null;
  created_at: EpochSeconds;
}

/** An end user's automation: one param condition on a node, params to set on nodes. */
export interface NodeAutomationsTable {
  automation_id: string;
  user_id: string;
  node_id: string;
  name: string;
  enabled: DbBool;
  device: string;
  param: string;
  check_op: string;
  /** JSON of the compared value. */
  value: string;
  event_operator: string;
  /** JSON array of {node_id, params}. */
  actions: string;
  retrigger: DbBool;
  created_at: EpochSeconds;
  updated_at: EpochSeconds;
}

export interface Database {
  user_profiles: UserProfilesTable;
  user_custom_data: UserCustomDataTable;
  message_templates: MessageTemplatesTable;
  sender_addresses: SenderAddressesTable;
  users: UsersTable;
  user_mfa: UserMfaTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  mfa_challenges: MfaChallengesTable;
  user_roles: UserRolesTable;
  roles: RolesTable;
  role_permissions: RolePermissionsTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  system_secrets: SystemSecretsTable;
  nodes: NodesTable;
  node_configs: NodeConfigsTable;
  node_tags: NodeTagsTable;
  node_alerts: NodeAlertsTable;
  user_node_mappings: UserNodeMappingsTable;
  node_counters: NodeCountersTable;
  node_groups: NodeGroupsTable;
  node_group_counts: NodeGroupCountsTable;
  node_group_members: NodeGroupMembersTable;
  ota_images: OtaImagesTable;
  ota_uploads: OtaUploadsTable;
  ota_jobs: OtaJobsTable;
  ota_executions: OtaExecutionsTable;
  ota_execution_history: OtaExecutionHistoryTable;
  stats_daily: StatsDailyTable;
  common_custom_data: CommonCustomDataTable;
  node_faults: NodeFaultsTable;
  node_fault_history: NodeFaultHistoryTable;
  diag_node_info: DiagNodeInfoTable;
  diag_logs: DiagLogsTable;
  diag_metric_meta: DiagMetricMetaTable;
  diag_metric_points: DiagMetricPointsTable;
  diag_param_meta: DiagParamMetaTable;
  diag_param_values: DiagParamValuesTable;
  outbox_messages: OutboxMessagesTable;
  send_quota_locks: SendQuotaLocksTable;
  node_facet_counts: NodeFacetCountsTable;
  verification_codes: VerificationCodesTable;
  deployment_config: DeploymentConfigTable;
  license_files: LicenseFilesTable;
  webhook_integrations: WebhookIntegrationsTable;
  event_filters: EventFiltersTable;
  push_platforms: PushPlatformsTable;
  push_endpoints: PushEndpointsTable;
  identity_providers: IdentityProvidersTable;
  app_clients: AppClientsTable;
  cognito_domains: CognitoDomainsTable;
  app_client_backups: AppClientBackupsTable;
  social_identities: SocialIdentitiesTable;
  oauth_requests: OAuthRequestsTable;
  node_shares: NodeSharesTable;
  sharing_requests: SharingRequestsTable;
  group_shares: GroupSharesTable;
  node_automations: NodeAutomationsTable;
}
