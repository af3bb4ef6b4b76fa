import { createHash } from 'node:crypto';
import { PostgresAdapter, sql, type Kysely, type QueryExecutorProvider } from 'kysely';
import type { NodeGroupsTable } from './schema.js';

/** Whether a Kysely instance talks to PostgreSQL (else SQLite). Dialect checks live in db/ only. */
export function isPostgres<DB>(db: Kysely<DB>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An arbitrary constant key for the group-membership advisory lock. */
const GROUP_MEMBERSHIP_LOCK = 74_201;

/**
 * Serialises automatic group-membership maintenance inside the current transaction. SQLite has one
 * writer already; on PostgreSQL a transaction-scoped advisory lock keeps a group being created
 * and a node changing at the same moment from missing each other.
 */
export async function lockGroupMembership(trx: QueryExecutorProvider): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter)
    await sql`select pg_advisory_xact_lock(${GROUP_MEMBERSHIP_LOCK})`.execute(trx);
}

/**
 * Reads a group and, on PostgreSQL, locks its row until the transaction ends, before anything of
 * the group is written: concurrent membership changes of one group then run one after the other
 * instead of locking member rows in different orders, and a change that waited for a deletion
 * sees the group gone (ADR 37). `members` (FOR NO KEY UPDATE) still lets other transactions add
 * members that reference the group (automatic membership); `delete` (FOR UPDATE) does not.
 * SQLite has one writer already: there it is a plain read.
 */
export async function lockGroup(
  trx: QueryExecutorProvider,
  groupId: string,
  purpose: 'members' | 'delete',
): Promise<NodeGroupsTable | undefined> {
  const lock = !(trx.getExecutor().adapter instanceof PostgresAdapter)
    ? sql``
    : purpose === 'delete'
      ? sql`for update`
      : sql`for no key update`;
  const { rows } = await sql<NodeGroupsTable>`select * from node_groups
    where group_id = ${groupId} ${lock}`.execute(trx);
  return rows[0];
}

/**
 * Locks the tag counts a node's tag change will move, in (facet, value) order, before the
 * node_tags triggers move them one statement after another (removals, then additions): two nodes
 * swapping tags would otherwise take the same two rows in opposite orders (ADR 37). A missing
 * row is created with 0, so it is taken in order too. SQLite has one writer already.
 */
export async function lockTagCounts(
  trx: QueryExecutorProvider,
  tags: readonly string[],
): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter) || tags.length === 0) return;
  // Sorted by the database (its collation), as the counting triggers sort their rows.
  const values = sql.join([...new Set(tags)].map((tag) => sql`(${tag}::varchar)`));
  await sql`insert into node_facet_counts (facet, value, n)
    select 'tag', t.value, 0 from (values ${values}) as t (value) order by t.value
    on conflict (facet, value) do update set n = node_facet_counts.n`.execute(trx);
}

/** An arbitrary constant key for the node-ownership (claim/release statistics) advisory lock. */
const NODE_OWNERSHIP_LOCK = 74_202;

/**
 * Serialises claims and releases inside the current transaction, so "did this user hold another
 * node?" (the users-with-nodes statistics) cannot be answered from a stale view on PostgreSQL.
 * SQLite has one writer already.
 */
export async function lockNodeOwnership(trx: QueryExecutorProvider): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter)
    await sql`select pg_advisory_xact_lock(${NODE_OWNERSHIP_LOCK})`.execute(trx);
}

/** The first key of the per-user sharing-offer locks; the second is derived from the user id. */
const SHARING_OFFER_LOCK = 74_204;

/**
 * Serialises, inside the current transaction, the sharing offers counted against one user (a
 * node offer's sender, a group offer's recipient): "is the same offer pending, is the cap
 * reached?" and the insert then run as one step, so offers sent at the same moment neither copy
 * each other nor pass the cap together. SQLite has one writer already.
 */
export async function lockSharingOffersOf(
  trx: QueryExecutorProvider,
  userId: string,
): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  const key = createHash('sha256').update(userId).digest().readInt32BE(0);
  await sql`select pg_advisory_xact_lock(${SHARING_OFFER_LOCK}, ${key})`.execute(trx);
}

/** The first key of the per-job OTA dispatch locks; the second is derived from the job id. */
const OTA_DISPATCH_LOCK = 74_203;

/**
 * Runs `work` for a job unless another instance is running it for that job, and says whether it
 * ran. On PostgreSQL it holds a session advisory lock (`pg_try_advisory_lock`, never waiting) on
 * a pooled connection of its own, which `work` gets for its queries too, so a long dispatch takes
 * one connection, not two; the lock goes when `work` settles or when the connection ends with a
 * dead instance. SQLite serves one instance, whose caller keeps its own jobs apart: `work` runs.
 */
export async function runAloneForJob<DB>(
  db: Kysely<DB>,
  jobId: string,
  work: (db: Kysely<DB>) => Promise<void>,
): Promise<boolean> {
  if (!isPostgres(db)) {
    await work(db);
    return true;
  }
  const key = createHash('sha256').update(jobId).digest().readInt32BE(0);
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ locked: boolean }>`select
        pg_try_advisory_lock(${OTA_DISPATCH_LOCK}, ${key}) as locked`.execute(conn);
    if (rows[0]?.locked !== true) return false;
    try {
      await work(conn);
    } finally {
      await sql`select pg_advisory_unlock(${OTA_DISPATCH_LOCK}, ${key})`.execute(conn);
    }
    return true;
  });
}

/**
 * Blocks every other writer of `stats_daily` until the current transaction ends (the rebuild),
 * so no increment lands between its recount and its rewrite. SQLite has one writer already.
 */
export async function lockStatsRollups(trx: QueryExecutorProvider): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter)
    await sql`lock table stats_daily in share row exclusive mode`.execute(trx);
}

/**
 * Node ids of the given type whose current fault param `param` reports `value` (the fault-image
 * job targets). Reads `node_faults`, the current-fault table the ingest batch maintains
 * (docs/adr/0009-fault-history.md); values are the reported codes as text. Same SQL on both
 * dialects; it stays here because the OTA service has always resolved targets through it.
 */
export async function nodesReportingParam(
  db: QueryExecutorProvider,
  type: string,
  param: string,
  value: string,
): Promise<string[]> {
  const result = await sql<{ node_id: string }>`select f.node_id from node_faults f
      join nodes n on n.node_id = f.node_id
      where f.param = ${param} and f.value = ${value} and n.type = ${type}
      order by f.node_id`.execute(db);
  return result.rows.map((row) => row.node_id);
}

/**
 * Locks one firmware image's row until the current transaction ends: `update` to delete it,
 * `share` to start a job with it. On PostgreSQL a job being created and the image being deleted
 * at the same moment then see each other (the delete finds the job, or the job finds no image);
 * SQLite has one writer already. Returns whether the image exists and is not archived.
 */
export async function lockImageRow(
  trx: QueryExecutorProvider,
  otaImageId: string,
  mode: 'update' | 'share',
): Promise<{ exists: boolean; archived: boolean }> {
  const lock =
    trx.getExecutor().adapter instanceof PostgresAdapter ? sql.raw(` for ${mode}`) : sql``;
  const result = await sql<{ archived: number }>`select archived from ota_images
      where ota_image_id = ${otaImageId}${lock}`.execute(trx);
  const row = result.rows[0];
  return { exists: row !== undefined, archived: row !== undefined && Number(row.archived) !== 0 };
}

/**
 * Locks the given accounts and every super admin's account until the current transaction ends,
 * in user id order, so two such transactions wait for each other instead of deadlocking. Role
 * changes and deletions take it first; their checks ("is the caller still a super admin", "does
 * another super admin remain", "does the account still exist") then read a state no concurrent
 * change can invalidate before commit, on any number of instances. SQLite has one writer already.
 */
export async function lockAccountsAndSuperAdmins(
  trx: QueryExecutorProvider,
  userIds: readonly string[],
): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  const ids = userIds.length > 0 ? sql.join(userIds) : sql`null`;
  await sql`select u.user_id from users u
      where u.user_id in (${ids}) or u.super_admin = 1
        or exists (select 1 from user_roles r where r.user_id = u.user_id and r.role = 'super_admin')
      order by u.user_id
      for update of u`.execute(trx);
}
