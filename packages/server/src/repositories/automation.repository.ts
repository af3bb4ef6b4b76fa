import type { Kysely, Transaction } from 'kysely';
import type { Database, NodeAutomationsTable } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Stores an automation; false when the user has one of that name on the node already. */
export async function insertAutomation(db: Db, row: NodeAutomationsTable): Promise<boolean> {
  const result = await db
    .insertInto('node_automations')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'node_id', 'name']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** An automation by id. */
export async function findAutomation(
  db: Db,
  automationId: string,
): Promise<NodeAutomationsTable | undefined> {
  return db
    .selectFrom('node_automations')
    .selectAll()
    .where('automation_id', '=', automationId)
    .executeTakeFirst();
}

/** Whether another automation of the user on the node has this name. */
export async function automationNameTaken(
  db: Db,
  where: { userId: string; nodeId: string; name: string; exceptId: string },
): Promise<boolean> {
  const row = await db
    .selectFrom('node_automations')
    .select('automation_id')
    .where('user_id', '=', where.userId)
    .where('node_id', '=', where.nodeId)
    .where('name', '=', where.name)
    .where('automation_id', '!=', where.exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Replaces an automation's definition. */
export async function updateAutomation(
  db: Db,
  automationId: string,
  row: Omit<NodeAutomationsTable, 'automation_id' | 'user_id' | 'created_at'>,
): Promise<void> {
  await db
    .updateTable('node_automations')
    .set(row)
    .where('automation_id', '=', automationId)
    .execute();
}

/** Deletes a user's automation and returns it; undefined when the user has none with that id. */
export async function deleteAutomation(
  db: Db,
  userId: string,
  automationId: string,
): Promise<NodeAutomationsTable | undefined> {
  const row = await db
    .selectFrom('node_automations')
    .selectAll()
    .where('automation_id', '=', automationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  await db.deleteFrom('node_automations').where('automation_id', '=', automationId).execute();
  return row;
}

/** Deletes a user's automations on the given nodes (their access ended); how many. */
export async function deleteUserAutomationsOn(
  db: Db,
  userId: string,
  nodeIds: readonly string[],
): Promise<number> {
  if (nodeIds.length === 0) return 0;
  const result = await db
    .deleteFrom('node_automations')
    .where('user_id', '=', userId)
    .where('node_id', 'in', nodeIds)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many automations a user keeps. */
export async function countUserAutomations(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('node_automations')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A keyset page of a user's automations (oldest first); one extra row tells of a next page. */
export async function listUserAutomations(
  db: Db,
  where: {
    userId: string;
    automationId?: string | undefined;
    nodeId?: string | undefined;
    startId?: string | undefined;
    limit: number;
  },
): Promise<NodeAutomationsTable[]> {
  let query = db.selectFrom('node_automations').selectAll().where('user_id', '=', where.userId);
  if (where.automationId !== undefined)
    query = query.where('automation_id', '=', where.automationId);
  if (where.nodeId !== undefined) query = query.where('node_id', '=', where.nodeId);
  if (where.startId !== undefined) query = query.where('automation_id', '>=', where.startId);
  return query
    .orderBy('automation_id')
    .limit(where.limit + 1)
    .execute();
}

/** The enabled automations whose condition watches a node. */
export async function enabledAutomationsOfNode(
  db: Db,
  nodeId: string,
): Promise<NodeAutomationsTable[]> {
  return db
    .selectFrom('node_automations')
    .selectAll()
    .where('node_id', '=', nodeId)
    .where('enabled', '=', 1)
    .orderBy('automation_id')
    .execute();
}

/** Every node with at least one enabled automation. */
export async function nodesWithEnabledAutomations(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('node_automations')
    .select('node_id')
    .distinct()
    .where('enabled', '=', 1)
    .execute();
  return rows.map((row) => row.node_id);
}
