import type { Kysely, Transaction } from 'kysely';
import type {
  Database,
  EventFiltersTable,
  PushEndpointsTable,
  PushPlatformsTable,
  WebhookIntegrationsTable,
} from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Webhook integrations, optionally narrowed to one service and/or endpoint. */
export async function listIntegrations(
  db: Db,
  serviceName?: string,
  endpointName?: string,
): Promise<WebhookIntegrationsTable[]> {
  let query = db.selectFrom('webhook_integrations').selectAll();
  if (serviceName !== undefined) query = query.where('service_name', '=', serviceName);
  if (endpointName !== undefined) query = query.where('endpoint_name', '=', endpointName);
  return query.orderBy('service_name').orderBy('endpoint_name').execute();
}

/** Creates an integration; false when it exists already. */
export async function insertIntegration(db: Db, row: WebhookIntegrationsTable): Promise<boolean> {
  const result = await db
    .insertInto('webhook_integrations')
    .values(row)
    .onConflict((oc) => oc.columns(['service_name', 'endpoint_name']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Changes an integration's switch; false when it does not exist. */
export async function updateIntegration(db: Db, row: WebhookIntegrationsTable): Promise<boolean> {
  const result = await db
    .updateTable('webhook_integrations')
    .set({ enabled: row.enabled, updated_at: row.updated_at })
    .where('service_name', '=', row.service_name)
    .where('endpoint_name', '=', row.endpoint_name)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Event filters matching the given fields. */
export async function listEventFilters(
  db: Db,
  where: {
    event_type?: string | undefined;
    entity_type?: string | undefined;
    entity_id?: string | undefined;
  },
): Promise<EventFiltersTable[]> {
  let query = db.selectFrom('event_filters').selectAll();
  if (where.event_type !== undefined) query = query.where('event_type', '=', where.event_type);
  if (where.entity_type !== undefined) query = query.where('entity_type', '=', where.entity_type);
  if (where.entity_id !== undefined) query = query.where('entity_id', '=', where.entity_id);
  return query.orderBy('event_type').execute();
}

/** Creates an event filter; false when one exists for the same event and entity. */
export async function insertEventFilter(db: Db, row: EventFiltersTable): Promise<boolean> {
  const result = await db
    .insertInto('event_filters')
    .values(row)
    .onConflict((oc) => oc.columns(['event_type', 'entity_type', 'entity_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Changes an event filter; false when it does not exist. */
export async function updateEventFilter(db: Db, row: EventFiltersTable): Promise<boolean> {
  const result = await db
    .updateTable('event_filters')
    .set({ enabled: row.enabled, integrations: row.integrations, updated_at: row.updated_at })
    .where('event_type', '=', row.event_type)
    .where('entity_type', '=', row.entity_type)
    .where('entity_id', '=', row.entity_id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Every platform application. */
export async function listPlatforms(db: Db): Promise<PushPlatformsTable[]> {
  return db.selectFrom('push_platforms').selectAll().orderBy('platform').execute();
}

/** The platform application of a platform type. */
export async function findPlatformByType(
  db: Db,
  platform: string,
): Promise<PushPlatformsTable | undefined> {
  return db
    .selectFrom('push_platforms')
    .selectAll()
    .where('platform', '=', platform)
    .executeTakeFirst();
}

/** Stores a platform application; false when one of that type exists. */
export async function insertPlatform(db: Db, row: PushPlatformsTable): Promise<boolean> {
  const result = await db
    .insertInto('push_platforms')
    .values(row)
    .onConflict((oc) => oc.column('platform').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Deletes a platform application (its endpoints go with it); whether it existed. */
export async function deletePlatform(db: Db, arn: string): Promise<boolean> {
  await db.deleteFrom('push_endpoints').where('platform_application_arn', '=', arn).execute();
  const result = await db
    .deleteFrom('push_platforms')
    .where('platform_application_arn', '=', arn)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Registers a device; false when the token is registered on that application already. */
export async function insertEndpoint(db: Db, row: PushEndpointsTable): Promise<boolean> {
  const result = await db
    .insertInto('push_endpoints')
    .values(row)
    .onConflict((oc) => oc.columns(['platform_application_arn', 'token_hash']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** The endpoint of a token on an application, whoever holds it. */
export async function findEndpointByToken(
  db: Db,
  applicationArn: string,
  tokenHash: string,
): Promise<PushEndpointsTable | undefined> {
  return db
    .selectFrom('push_endpoints')
    .selectAll()
    .where('platform_application_arn', '=', applicationArn)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** A user's endpoints. */
export async function listUserEndpoints(db: Db, userId: string): Promise<PushEndpointsTable[]> {
  return db
    .selectFrom('push_endpoints')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

/**
 * Keeps `keepArn` and the user's `keep - 1` newest other endpoints, removing the older ones; the
 * ARNs removed.
 */
export async function trimUserEndpoints(
  db: Db,
  userId: string,
  keepArn: string,
  keep: number,
): Promise<string[]> {
  const stale = await db
    .selectFrom('push_endpoints')
    .select('platform_endpoint_arn')
    .where('user_id', '=', userId)
    .where('platform_endpoint_arn', '!=', keepArn)
    .orderBy('created_at', 'desc')
    .orderBy('platform_endpoint_arn', 'desc')
    .limit(10_000)
    .offset(Math.max(0, keep - 1))
    .execute();
  const arns = stale.map((row) => row.platform_endpoint_arn);
  if (arns.length > 0)
    await db.deleteFrom('push_endpoints').where('platform_endpoint_arn', 'in', arns).execute();
  return arns;
}

/** Removes a user's endpoints by token hash or endpoint ARN; how many went. */
export async function deleteUserEndpoints(
  db: Db,
  userId: string,
  where: { tokenHash?: string | undefined; arn?: string | undefined },
): Promise<number> {
  let query = db.deleteFrom('push_endpoints').where('user_id', '=', userId);
  if (where.tokenHash !== undefined) query = query.where('token_hash', '=', where.tokenHash);
  if (where.arn !== undefined) query = query.where('platform_endpoint_arn', '=', where.arn);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Removes one endpoint (the push service found its token dead). */
export async function deleteEndpoint(db: Db, arn: string): Promise<void> {
  await db.deleteFrom('push_endpoints').where('platform_endpoint_arn', '=', arn).execute();
}

/** A device to notify: endpoint, token and the platform application it belongs to. */
export interface PushTarget {
  platform_endpoint_arn: string;
  device_token: string;
  platform_application_arn: string;
  user_id: string;
}

/** The registered devices of these users. */
export async function endpointsOfUsers(db: Db, userIds: readonly string[]): Promise<PushTarget[]> {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('push_endpoints')
    .select(['platform_endpoint_arn', 'device_token', 'platform_application_arn', 'user_id'])
    .where('user_id', 'in', [...userIds])
    .execute();
}

/** The primary user of a node, if it is claimed. */
export async function primaryUserOfNode(db: Db, nodeId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('nodes')
    .select('primary_user_id')
    .where('node_id', '=', nodeId)
    .executeTakeFirst();
  return row?.primary_user_id ?? undefined;
}
