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
