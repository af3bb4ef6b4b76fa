import { PostgresAdapter, type Kysely } from 'kysely';

/** Whether a Kysely instance talks to PostgreSQL (else SQLite). Dialect checks live in db/ only. */
export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
