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

/**
 * Node ids of the given type whose current params report `value` for the parameter `param` in any
 * device (`{"<device>": {"<param>": value}}`), compared as text. JSON functions differ by dialect:
 * SQLite's json_each, PostgreSQL's jsonb_each. A scan, meant for one-off target resolution.
 */
export async function nodesReportingParam(
  db: QueryExecutorProvider,
  type: string,
  param: string,
  value: string,
): Promise<string[]> {
  const query =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? sql<{ node_id: string }>`select distinct n.node_id from nodes n
          cross join lateral jsonb_each(case when jsonb_typeof(n.params::jsonb) = 'object' then n.params::jsonb else '{}'::jsonb end) d
          cross join lateral jsonb_each(case when jsonb_typeof(d.value) = 'object' then d.value else '{}'::jsonb end) p
          where n.type = ${type} and n.params is not null and p.key = ${param} and p.value #>> '{}' = ${value}
          order by n.node_id`
      : sql<{
          node_id: string;
        }>`select distinct n.node_id from nodes n, json_each(n.params) d, json_each(d.value) p
          where n.type = ${type} and n.params is not null and json_valid(n.params)
            and d.type = 'object' and p.key = ${param} and cast(p.value as text) = ${value}
          order by n.node_id`;
  const result = await query.execute(db);
  return result.rows.map((row) => row.node_id);
}
