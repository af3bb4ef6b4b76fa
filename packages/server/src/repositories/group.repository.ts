import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, NodeGroupsTable } from '../db/schema.js';
import { runFixedQuery } from '../db/raw-query.js';
import { listNodesWithScalar, type PageWithScalar, type SqlText } from './node.repository.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Stores a group. */
export async function insertGroup(db: Db, group: NodeGroupsTable): Promise<void> {
  await db.insertInto('node_groups').values(group).execute();
}

/** A group by id. */
export async function findGroup(db: Db, groupId: string): Promise<NodeGroupsTable | undefined> {
  // Every page of a group's nodes reads it: a fixed text (a named statement on PostgreSQL).
  const { rows } = await runFixedQuery<NodeGroupsTable>(
    db,
    'select * from node_groups where group_id = ?',
    [groupId],
  );
  return rows[0];
}

/** A keyset page of groups ordered by id (`limit + 1` rows so the caller sees the next cursor). */
export async function listGroups(
  db: Db,
  startId: string | undefined,
  limit: number,
): Promise<NodeGroupsTable[]> {
  let query = db.selectFrom('node_groups').selectAll();
  if (startId !== undefined) query = query.where('group_id', '>=', startId);
  return query
    .orderBy('group_id')
    .limit(limit + 1)
    .execute();
}

/** Number of groups. */
export async function countGroups(db: Db): Promise<number> {
  const row = await db
    .selectFrom('node_groups')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Member counts of the given groups. */
export async function memberCounts(
  db: Db,
  groupIds: readonly string[],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>(groupIds.map((id) => [id, 0]));
  if (groupIds.length === 0) return counts;
  // Kept by triggers on every membership change (migration 0017): one row per group.
  const rows = await db
    .selectFrom('node_group_counts')
    .select(['group_id', 'n'])
    .where('group_id', 'in', [...groupIds])
    .execute();
  for (const row of rows) counts.set(row.group_id, Number(row.n));
  return counts;
}

/** Members counted from the membership rows (repair and tests; pages read `memberCounts`). */
export async function recountMembers(db: Db, groupId: string): Promise<number> {
  const row = await db
    .selectFrom('node_group_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The read of a group's member count, kept by triggers (no row: 0). Column `n`. */
function memberCountQuery(groupId: string): SqlText {
  return { text: 'select n from node_group_counts where group_id = ?', values: [groupId] };
}

/**
 * A keyset page of a group's nodes ordered by node id, with the columns a list presents, and
 * the group's member count read by the same statement (`scalar`).
 */
export function listGroupNodes(
  db: Db,
  groupId: string,
  startId: string | undefined,
  limit: number,
): Promise<PageWithScalar> {
  // The node list's fixed SQL, walking the group's (group_id, node_id) key for one page.
  return listNodesWithScalar(db, { groupId }, startId, limit, false, memberCountQuery(groupId));
}

/** Node ids once each, in one order, so concurrent writers take their rows in that order too. */
function sortedUnique(nodeIds: readonly string[]): string[] {
  return [...new Set(nodeIds)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Adds nodes by hand; a node that was in by filter stays in for good. */
export async function addManualMembers(
  db: Db,
  groupId: string,
  nodeIds: readonly string[],
): Promise<void> {
  const sorted = sortedUnique(nodeIds);
  for (let i = 0; i < sorted.length; i += 500) {
    const chunk = sorted.slice(i, i + 500);
    await db
      .insertInto('node_group_members')
      .values(chunk.map((node_id) => ({ group_id: groupId, node_id, source: 'manual' as const })))
      .onConflict((oc) => oc.columns(['group_id', 'node_id']).doUpdateSet({ source: 'manual' }))
      .execute();
  }
}

/** Removes nodes from a group. */
export async function removeMembers(
  db: Db,
  groupId: string,
  nodeIds: readonly string[],
): Promise<number> {
  const result = await db
    .deleteFrom('node_group_members')
    .where('group_id', '=', groupId)
    .where('node_id', 'in', sortedUnique(nodeIds))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes a group and its memberships. */
export async function deleteGroup(db: Db, groupId: string): Promise<boolean> {
  await db.deleteFrom('node_group_members').where('group_id', '=', groupId).execute();
  const result = await db
    .deleteFrom('node_groups')
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Inserts the filter matches of automatic groups, set-based: every (group, node) pair where each
 * filter of the group is unset or equals the node's value. Restricted to one group (a new group)
 * or to some nodes (nodes that registered or changed).
 */
async function insertMatches(
  db: Db,
  scope: { groupId?: string; nodeIds?: readonly string[] },
): Promise<void> {
  let select = db
    .selectFrom('node_groups as g')
    .innerJoin('nodes as n', (join) =>
      join.on((eb) =>
        eb.and([
          eb.or([eb('g.filter_type', 'is', null), eb('g.filter_type', '=', eb.ref('n.type'))]),
          eb.or([eb('g.filter_model', 'is', null), eb('g.filter_model', '=', eb.ref('n.model'))]),
          eb.or([
            eb('g.filter_fw_version', 'is', null),
            eb('g.filter_fw_version', '=', eb.ref('n.fw_version')),
          ]),
          eb.or([eb('g.filter_city', 'is', null), eb('g.filter_city', '=', eb.ref('n.city'))]),
          eb.or([
            eb('g.filter_serial', 'is', null),
            eb('g.filter_serial', '=', eb.ref('n.serial')),
          ]),
        ]),
      ),
    )
    .select(['g.group_id', 'n.node_id', sql<'filter'>`'filter'`.as('source')])
    .where('g.is_automatic', '=', 1);
  if (scope.groupId !== undefined) select = select.where('g.group_id', '=', scope.groupId);
  if (scope.nodeIds !== undefined) select = select.where('n.node_id', 'in', [...scope.nodeIds]);
  await db
    .insertInto('node_group_members')
    .columns(['group_id', 'node_id', 'source'])
    .expression(select)
    .onConflict((oc) => oc.columns(['group_id', 'node_id']).doNothing())
    .execute();
}

/** Fills a new automatic group with every node its filters match. */
export async function populateAutomaticGroup(db: Db, groupId: string): Promise<void> {
  await insertMatches(db, { groupId });
}

/**
 * Re-evaluates automatic membership of nodes that registered or changed: their filter rows are
 * dropped and the current matches inserted again; manual rows are untouched.
 */
export async function refreshAutomaticMembership(
  db: Db,
  nodeIds: readonly string[],
): Promise<void> {
  for (let i = 0; i < nodeIds.length; i += 500) {
    const chunk = nodeIds.slice(i, i + 500);
    await db
      .deleteFrom('node_group_members')
      .where('source', '=', 'filter')
      .where('node_id', 'in', chunk)
      .execute();
    await insertMatches(db, { nodeIds: chunk });
  }
}

/** Whether any automatic group exists (lets hot paths skip the refresh). */
export async function hasAutomaticGroups(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('node_groups')
    .select('group_id')
    .where('is_automatic', '=', 1)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The distinct primary users of a group's member nodes (who group push events go to). */
export async function memberPrimaryUsers(db: Db, groupId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('node_group_members as m')
    .innerJoin('nodes as n', 'n.node_id', 'm.node_id')
    .select('n.primary_user_id')
    .distinct()
    .where('m.group_id', '=', groupId)
    .where('n.primary_user_id', 'is not', null)
    .execute();
  return rows.flatMap((row) => (row.primary_user_id ? [row.primary_user_id] : []));
}
