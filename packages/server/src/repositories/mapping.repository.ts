import type { Kysely, Transaction } from 'kysely';
import type { Database, UserNodeMappingsTable } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Stores a mapping request. */
export async function insertMappingRequest(db: Db, request: UserNodeMappingsTable): Promise<void> {
  await db.insertInto('user_node_mappings').values(request).execute();
}

/** How many mapping requests the user made since `since` that are still open. */
export async function countOpenRequestsOf(db: Db, userId: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('user_node_mappings')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('status', '=', 'requested')
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A mapping request by id. */
export async function findMappingRequest(
  db: Db,
  requestId: string,
): Promise<UserNodeMappingsTable | undefined> {
  return db
    .selectFrom('user_node_mappings')
    .selectAll()
    .where('request_id', '=', requestId)
    .executeTakeFirst();
}

/** The newest open `add` request of a user for a node. */
export async function findOpenRequest(
  db: Db,
  nodeId: string,
  userId: string,
): Promise<UserNodeMappingsTable | undefined> {
  return db
    .selectFrom('user_node_mappings')
    .selectAll()
    .where('node_id', '=', nodeId)
    .where('status', '=', 'requested')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

/**
 * Confirms a request that is still open; false when it is not (any more). The status check is in
 * the update, so of two instances confirming the same request at once only one changes the row
 * (the other waits for its commit on PostgreSQL, then finds the request confirmed).
 */
export async function confirmOpenRequest(db: Db, requestId: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('user_node_mappings')
    .set({ status: 'confirmed', updated_at: now })
    .where('request_id', '=', requestId)
    .where('status', '=', 'requested')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Discards every open request for a node except one. */
export async function discardOtherRequests(
  db: Db,
  nodeId: string,
  keepRequestId: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('user_node_mappings')
    .set({ status: 'discarded', updated_at: now })
    .where('node_id', '=', nodeId)
    .where('status', '=', 'requested')
    .where('request_id', '!=', keepRequestId)
    .execute();
}

/** Marks open requests created before `before` as timed out; returns how many. */
export async function markTimedOutMappings(db: Db, before: number, now: number): Promise<number> {
  const result = await db
    .updateTable('user_node_mappings')
    .set({ status: 'timedout', updated_at: now })
    .where('status', '=', 'requested')
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Binds a node to its primary user. */
export async function claimNode(
  db: Db,
  nodeId: string,
  userId: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('nodes')
    .set({ primary_user_id: userId, claimed_at: now })
    .where('node_id', '=', nodeId)
    .execute();
}

/** Drops a node's user association (remove, or a factory reset reported by the node). */
export async function releaseNode(db: Db, nodeId: string): Promise<void> {
  await db
    .updateTable('nodes')
    .set({ primary_user_id: null, claimed_at: null })
    .where('node_id', '=', nodeId)
    .execute();
}
