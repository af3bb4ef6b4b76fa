import { PostgresAdapter, sql, type Kysely, type QueryExecutorProvider } from 'kysely';

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
