import type { Kysely } from 'kysely';

/**
 * Statistics rollups (ADR 8): one row per (metric, UTC day). The primary key is the (metric, day)
 * index every range query scans. `day` is the epoch day (days since 1970-01-01 UTC).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('stats_daily')
    .addColumn('metric', 'varchar(64)', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('stats_daily_pk', ['metric', 'day'])
    .execute();
}

/** Drops the rollups. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('stats_daily').execute();
}
