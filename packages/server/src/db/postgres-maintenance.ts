import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import { isPostgres } from './dialect.js';

/**
 * Tables whose statistics the fleet lists plan from: bulk registrations, big automatic groups
 * and connectivity changes move them far.
 */
export const LIST_TABLES = [
  'nodes',
  'node_tags',
  'node_group_members',
  'node_group_counts',
  'node_facet_counts',
  'node_counters',
] as const;

/** The start-up warning when PostgreSQL's background maintenance is off. */
export const MAINTENANCE_OFF_WARNING =
  "PostgreSQL's background maintenance (autovacuum) is off for Fleetdeck's tables: after bulk " +
  'changes the node lists plan from stale statistics and get slower. Turn autovacuum on, or run ' +
  'VACUUM ANALYZE after bulk changes and regularly.';

/** Boolean option values PostgreSQL reads as false. */
const FALSE_VALUES = ['false', 'off', 'no', '0', 'f', 'n'];

/**
 * What keeps PostgreSQL from vacuuming and analyzing the list tables on its own: the server
 * settings `autovacuum` or `track_counts` off, or tables with `autovacuum_enabled = false`.
 * Empty when nothing does, and always on SQLite.
 */
export async function postgresMaintenanceGaps(db: Kysely<Database>): Promise<string[]> {
  if (!isPostgres(db)) return [];
  const gaps: string[] = [];
  const settings = await sql<{ autovacuum: string; track_counts: string }>`
    select current_setting('autovacuum') as autovacuum,
      current_setting('track_counts') as track_counts`.execute(db);
  const { autovacuum, track_counts: trackCounts } = settings.rows[0]!;
  if (autovacuum !== 'on') gaps.push('autovacuum = off');
  if (trackCounts !== 'on') gaps.push('track_counts = off');
  const tables = await sql<{ relname: string }>`
    select c.relname from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema()
      and c.relname in (${sql.join(LIST_TABLES.map((table) => sql.lit(table)))})
      and exists (
        select 1 from unnest(coalesce(c.reloptions, '{}'::text[])) as o(option)
        where lower(split_part(o.option, '=', 1)) = 'autovacuum_enabled'
          and lower(split_part(o.option, '=', 2)) in (${sql.join(FALSE_VALUES.map((value) => sql.lit(value)))})
      )
    order by c.relname`.execute(db);
  for (const { relname } of tables.rows) gaps.push(`${relname}: autovacuum_enabled = false`);
  return gaps;
}
