import type { Kysely, Transaction } from 'kysely';
import type {
  Database,
  GroupSharesTable,
  NodeSharesTable,
  SharingRequestsTable,
} from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

// --- Node shares ---

/** The nodes among `nodeIds` whose primary user is `userId`, with their claim times. */
export async function heldNodes(
  db: Db,
  userId: string,
  nodeIds: readonly string[],
): Promise<Array<{ node_id: string; claimed_at: number }>> {
  if (nodeIds.length === 0) return [];
  const rows = await db
    .selectFrom('nodes')
    .select(['node_id', 'claimed_at'])
    .where('primary_user_id', '=', userId)
    .where('node_id', 'in', nodeIds)
    .execute();
  return rows.map((row) => ({ node_id: row.node_id, claimed_at: Number(row.claimed_at ?? 0) }));
}

/**
 * Shares still in force: the node keeps the primary user and the claim the share was granted
 * under (a release or a new claim ends it without touching this table).
 */
function validShares(db: Db) {
  return db
    .selectFrom('node_shares as s')
    .innerJoin('nodes as n', (join) =>
      join
        .onRef('n.node_id', '=', 's.node_id')
        .onRef('n.primary_user_id', '=', 's.granted_by')
        .onRef('n.claimed_at', '=', 's.granted_claim'),
    );
}

/** The nodes among `nodeIds` the user holds as a secondary user. */
export async function sharedNodes(
  db: Db,
  userId: string,
  nodeIds: readonly string[],
): Promise<string[]> {
  if (nodeIds.length === 0) return [];
  const rows = await validShares(db)
    .select('s.node_id')
    .where('s.user_id', '=', userId)
    .where('s.node_id', 'in', nodeIds)
    .execute();
  return rows.map((row) => row.node_id);
}

/** The nodes among `nodeIds` the user may control: as primary or as secondary user. */
export async function controllableNodes(
  db: Db,
  userId: string,
  nodeIds: readonly string[],
): Promise<Set<string>> {
  const [held, shared] = await Promise.all([
    heldNodes(db, userId, nodeIds),
    sharedNodes(db, userId, nodeIds),
  ]);
  return new Set([...held.map((row) => row.node_id), ...shared]);
}

/** Grants (or re-grants) shares. */
export async function upsertNodeShares(db: Db, rows: readonly NodeSharesTable[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('node_shares')
    .values([...rows])
    .onConflict((oc) =>
      oc.columns(['node_id', 'user_id']).doUpdateSet((eb) => ({
        granted_by: eb.ref('excluded.granted_by'),
        granted_claim: eb.ref('excluded.granted_claim'),
        created_at: eb.ref('excluded.created_at'),
      })),
    )
    .execute();
}

/** Removes a user's shares of the given nodes; the nodes whose share was in force. */
export async function deleteNodeShares(
  db: Db,
  userId: string,
  nodeIds: readonly string[],
): Promise<string[]> {
  const valid = await sharedNodes(db, userId, nodeIds);
  await db
    .deleteFrom('node_shares')
    .where('user_id', '=', userId)
    .where('node_id', 'in', nodeIds)
    .execute();
  return valid;
}

/** Primary and secondary user names of nodes (ids and names in node order). */
export async function nodeHolders(
  db: Db,
  nodeIds: readonly string[],
): Promise<{
  primary: Map<string, string>;
  secondary: Map<string, string[]>;
}> {
  const primary = new Map<string, string>();
  const secondary = new Map<string, string[]>();
  if (nodeIds.length === 0) return { primary, secondary };
  const [owners, shares] = await Promise.all([
    db
      .selectFrom('nodes as n')
      .innerJoin('users as u', 'u.user_id', 'n.primary_user_id')
      .select(['n.node_id', 'u.user_name'])
      .where('n.node_id', 'in', nodeIds)
      .execute(),
    validShares(db)
      .innerJoin('users as u', 'u.user_id', 's.user_id')
      .select(['s.node_id', 'u.user_name'])
      .where('s.node_id', 'in', nodeIds)
      .orderBy('u.user_name')
      .execute(),
  ]);
  for (const row of owners) primary.set(row.node_id, row.user_name);
  for (const row of shares)
    secondary.set(row.node_id, [...(secondary.get(row.node_id) ?? []), row.user_name]);
  return { primary, secondary };
}

/** Nodes a user holds as primary (at most `limit`, optionally one node). */
export async function primaryNodesOf(
  db: Db,
  userId: string,
  nodeId: string | undefined,
  limit: number,
): Promise<string[]> {
  let query = db.selectFrom('nodes').select('node_id').where('primary_user_id', '=', userId);
  if (nodeId !== undefined) query = query.where('node_id', '=', nodeId);
  const rows = await query.orderBy('node_id').limit(limit).execute();
  return rows.map((row) => row.node_id);
}

/** Nodes a user holds as secondary (at most `limit`, optionally one node). */
export async function secondaryNodesOf(
  db: Db,
  userId: string,
  nodeId: string | undefined,
  limit: number,
): Promise<string[]> {
  let query = validShares(db).select('s.node_id').where('s.user_id', '=', userId);
  if (nodeId !== undefined) query = query.where('s.node_id', '=', nodeId);
  const rows = await query.orderBy('s.node_id').limit(limit).execute();
  return rows.map((row) => row.node_id);
}

/**
 * Everyone told about a node's events: its primary user, its secondary users and the users a
 * device group holding it is shared with.
 */
export async function nodeAudience(db: Db, nodeId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('nodes')
    .select('primary_user_id as user_id')
    .where('node_id', '=', nodeId)
    .where('primary_user_id', 'is not', null)
    .union(validShares(db).select('s.user_id').where('s.node_id', '=', nodeId))
    .union(
      db
        .selectFrom('group_shares as g')
        .innerJoin('node_group_members as m', 'm.group_id', 'g.group_id')
        .select('g.user_id')
        .where('m.node_id', '=', nodeId),
    )
    .execute();
  return rows.flatMap((row) => (row.user_id ? [row.user_id] : []));
}

// --- Sharing requests ---

/** Stores a sharing request. */
export async function insertSharingRequest(db: Db, row: SharingRequestsTable): Promise<void> {
  await db.insertInto('sharing_requests').values(row).execute();
}

/**
 * The pending requests of one kind a user sent (`fromUserId`) or received (`toUserId`), at most
 * `limit` of them: what a new offer is compared with, and counted against the cap (node offers
 * count per sender, group offers per recipient; ADR 14).
 */
export async function pendingRequests(
  db: Db,
  kind: SharingRequestsTable['kind'],
  party: { fromUserId: string } | { toUserId: string },
  limit: number,
): Promise<
  Array<Pick<SharingRequestsTable, 'request_id' | 'from_user_id' | 'to_user_id' | 'entity_ids'>>
> {
  let query = db
    .selectFrom('sharing_requests')
    .select(['request_id', 'from_user_id', 'to_user_id', 'entity_ids'])
    .where('kind', '=', kind)
    .where('status', '=', 'pending');
  query =
    'fromUserId' in party
      ? query.where('from_user_id', '=', party.fromUserId)
      : query.where('to_user_id', '=', party.toUserId);
  return query.limit(limit).execute();
}

/** A sharing request by id. */
export async function findSharingRequest(
  db: Db,
  requestId: string,
): Promise<SharingRequestsTable | undefined> {
  return db
    .selectFrom('sharing_requests')
    .selectAll()
    .where('request_id', '=', requestId)
    .executeTakeFirst();
}

/** Accepts or declines a pending request addressed to `toUserId`; false when it was not pending. */
export async function decideSharingRequest(
  db: Db,
  requestId: string,
  toUserId: string,
  status: 'accepted' | 'declined',
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('sharing_requests')
    .set({ status, updated_at: now })
    .where('request_id', '=', requestId)
    .where('to_user_id', '=', toUserId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes a pending request its sender withdraws; false when there was none. */
export async function withdrawSharingRequest(
  db: Db,
  requestId: string,
  fromUserId: string,
  kind: SharingRequestsTable['kind'],
): Promise<boolean> {
  const result = await db
    .deleteFrom('sharing_requests')
    .where('request_id', '=', requestId)
    .where('from_user_id', '=', fromUserId)
    .where('kind', '=', kind)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A request with the user names of both sides. */
export interface SharingRequestRow extends SharingRequestsTable {
  from_user_name: string;
  to_user_name: string;
}

/**
 * Requests received (`side` to, pending only) or sent (`side` from, every status) by a user,
 * newest first, from `startId` on; one more row than `limit` tells there is a next page.
 */
export async function listSharingRequests(
  db: Db,
  where: {
    kind: SharingRequestsTable['kind'];
    userId: string;
    side: 'to' | 'from';
    requestId?: string | undefined;
    startId?: string | undefined;
    limit: number;
  },
): Promise<SharingRequestRow[]> {
  let query = db
    .selectFrom('sharing_requests as r')
    .innerJoin('users as f', 'f.user_id', 'r.from_user_id')
    .innerJoin('users as t', 't.user_id', 'r.to_user_id')
    .selectAll('r')
    .select(['f.user_name as from_user_name', 't.user_name as to_user_name'])
    .where('r.kind', '=', where.kind);
  query =
    where.side === 'to'
      ? query.where('r.to_user_id', '=', where.userId).where('r.status', '=', 'pending')
      : query.where('r.from_user_id', '=', where.userId);
  if (where.requestId !== undefined) query = query.where('r.request_id', '=', where.requestId);
  if (where.startId !== undefined) query = query.where('r.request_id', '<=', where.startId);
  return query
    .orderBy('r.request_id', 'desc')
    .limit(where.limit + 1)
    .execute();
}

// --- Group shares ---

/** Existing groups among `groupIds`, with their names. */
export async function existingGroups(
  db: Db,
  groupIds: readonly string[],
): Promise<Array<{ group_id: string; group_name: string }>> {
  if (groupIds.length === 0) return [];
  return db
    .selectFrom('node_groups')
    .select(['group_id', 'group_name'])
    .where('group_id', 'in', groupIds)
    .orderBy('group_id')
    .execute();
}

/** The groups among `groupIds` shared with the user. */
export async function sharedGroups(
  db: Db,
  userId: string,
  groupIds: readonly string[],
): Promise<string[]> {
  if (groupIds.length === 0) return [];
  const rows = await db
    .selectFrom('group_shares')
    .select('group_id')
    .where('user_id', '=', userId)
    .where('group_id', 'in', groupIds)
    .execute();
  return rows.map((row) => row.group_id);
}

/** Shares groups with a user (kept when they exist). */
export async function upsertGroupShares(db: Db, rows: readonly GroupSharesTable[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('group_shares')
    .values([...rows])
    .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
    .execute();
}

/** Ends a user's shares of groups; how many there were. */
export async function deleteGroupShares(
  db: Db,
  userId: string,
  groupIds: readonly string[],
): Promise<number> {
  const result = await db
    .deleteFrom('group_shares')
    .where('user_id', '=', userId)
    .where('group_id', 'in', groupIds)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The users a group is shared with. */
export async function groupShareUsers(db: Db, groupId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('group_shares')
    .select('user_id')
    .where('group_id', '=', groupId)
    .execute();
  return rows.map((row) => row.user_id);
}

/** The groups shared with a user, by name. */
export async function groupsSharedWith(
  db: Db,
  userId: string,
): Promise<Array<{ group_id: string; group_name: string }>> {
  return db
    .selectFrom('group_shares as s')
    .innerJoin('node_groups as g', 'g.group_id', 's.group_id')
    .select(['g.group_id', 'g.group_name'])
    .where('s.user_id', '=', userId)
    .orderBy('g.group_name')
    .orderBy('g.group_id')
    .execute();
}
