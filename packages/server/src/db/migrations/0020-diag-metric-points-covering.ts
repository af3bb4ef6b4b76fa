import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * A node's metric series (GET /insights/v1/node/metric/list) finds its points by the key
 * (node_id, metric_id, ts) and needs `val` as well. Points arrive in time order across the fleet,
 * so a node's points of a day lie on as many table pages as there are points; reading `val`
 * cost one page read per point (B9: ~340 pages for a day of 3 metrics at 100M points on
 * PostgreSQL, 5–30 ms on a 2-core machine). Now the key's own b-tree carries `val`, and a series
 * is read from a few adjacent pages of it:
 *
 * - PostgreSQL: the primary key's index INCLUDEs `val` (not part of the key: uniqueness and
 *   `on conflict (node_id, metric_id, ts)` are unchanged), so the series is an index-only scan
 *   once VACUUM (autovacuum after inserts) has marked the heap pages all-visible: ~2 ms. The
 *   index grows by the 8 bytes of `val` per point (~17 %).
 * - SQLite: the table becomes WITHOUT ROWID, clustered on its primary key (the rowid table and
 *   its separate key index become one b-tree, ~20 % smaller). The points are copied, so this
 *   migration takes about a minute per 10M points.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table diag_metric_points
      drop constraint diag_metric_points_pk,
      add constraint diag_metric_points_pk primary key (node_id, metric_id, ts) include (val)`.execute(
      db,
    );
    return;
  }
  await rebuildSqlite(db, true);
}

/** The primary key without `val`; on SQLite the rowid table again. */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table diag_metric_points
      drop constraint diag_metric_points_pk,
      add constraint diag_metric_points_pk primary key (node_id, metric_id, ts)`.execute(db);
    return;
  }
  await rebuildSqlite(db, false);
}

/** Copies the points into a new table (WITHOUT ROWID or not) that takes the old one's place. */
async function rebuildSqlite(db: Kysely<unknown>, withoutRowid: boolean): Promise<void> {
  let table = db.schema
    .createTable('diag_metric_points_new')
    .addColumn('node_id', 'varchar(64)', (c) =>
      c.notNull().references('nodes.node_id').onDelete('cascade'),
    )
    .addColumn('metric_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('val', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('diag_metric_points_pk', ['node_id', 'metric_id', 'ts']);
  if (withoutRowid) table = table.modifyEnd(sql`without rowid`);
  await table.execute();
  await sql`insert into diag_metric_points_new (node_id, metric_id, ts, val)
    select node_id, metric_id, ts, val from diag_metric_points`.execute(db);
  await db.schema.dropTable('diag_metric_points').execute();
  await db.schema.alterTable('diag_metric_points_new').renameTo('diag_metric_points').execute();
  await db.schema
    .createIndex('diag_metric_points_ts_idx')
    .on('diag_metric_points')
    .column('ts')
    .execute();
}
