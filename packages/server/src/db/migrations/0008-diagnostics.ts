import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Device diagnostics (ESP Insights): per-node info, time-ordered logs, metric points and variable
 * values, each indexed by (node, time) for the node pages of B9, plus a time index so the
 * retention purge deletes old rows in small batches without scanning.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  const idType = postgres ? sql`varchar(64) collate "C"` : sql`varchar(64)`;

  await db.schema
    .createTable('diag_node_info')
    .addColumn('node_id', idType, (c) =>
      c.primaryKey().references('nodes.node_id').onDelete('cascade'),
    )
    .addColumn('project', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('app_version', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('chip', 'varchar(32)')
    .addColumn('sha256', 'varchar(64)')
    .addColumn('last_boot', 'bigint')
    .addColumn('last_seen', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('diag_logs')
    // SQLite: an integer primary key is the rowid, assigned in insertion order.
    .addColumn('id', postgres ? 'bigserial' : 'integer', (c) => c.primaryKey())
    .addColumn('node_id', idType, (c) =>
      c.notNull().references('nodes.node_id').onDelete('cascade'),
    )
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('type', 'varchar(8)', (c) => c.notNull())
    .addColumn('tag', 'varchar(64)', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('task', 'varchar(32)')
    .addColumn('sha256', 'varchar(64)')
    .addColumn('elf_missing', 'smallint', (c) => c.notNull().defaultTo(0))
    // JSON text of the crash, reboot or argument data.
    .addColumn('data', 'text')
    .execute();
  // A node's log page newest first (keyset on ts, id) and its counts per window.
  await db.schema
    .createIndex('diag_logs_node_ts_idx')
    .on('diag_logs')
    .columns(['node_id', 'ts', 'id'])
    .execute();
  await db.schema.createIndex('diag_logs_ts_idx').on('diag_logs').column('ts').execute();

  await db.schema
    .createTable('diag_metric_meta')
    .addColumn('node_id', idType, (c) =>
      c.notNull().references('nodes.node_id').onDelete('cascade'),
    )
    .addColumn('metric_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('label', 'varchar(64)', (c) => c.notNull())
    .addColumn('unit', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('path', 'varchar(64)')
    .addPrimaryKeyConstraint('diag_metric_meta_pk', ['node_id', 'metric_id'])
    .execute();

  await db.schema
    .createTable('diag_metric_points')
    .addColumn('node_id', idType, (c) =>
      c.notNull().references('nodes.node_id').onDelete('cascade'),
    )
    .addColumn('metric_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('val', 'double precision', (c) => c.notNull())
    // One series is one index range: (node, metric, time).
    .addPrimaryKeyConstraint('diag_metric_points_pk', ['node_id', 'metric_id', 'ts'])
    .execute();
  await db.schema
    .createIndex('diag_metric_points_ts_idx')
    .on('diag_metric_points')
    .column('ts')
    .execute();

  await db.schema
    .createTable('diag_param_meta')
    .addColumn('node_id', idType, (c) =>
      c.notNull().references('nodes.node_id').onDelete('cascade'),
    )
    .addColumn('param_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('label', 'varchar(64)', (c) => c.notNull())
    // The labels of the folders above the param, joined with '/'.
    .addColumn('path', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('diag_param_meta_pk', ['node_id', 'param_id'])
    .execute();

  await db.schema
    .createTable('diag_param_values')
    .addColumn('node_id', idType, (c) =>
      c.notNull().references('nodes.node_id').onDelete('cascade'),
    )
    .addColumn('param_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    // JSON text of the scalar (string, number or boolean).
    .addColumn('val', 'varchar(300)', (c) => c.notNull())
    .addPrimaryKeyConstraint('diag_param_values_pk', ['node_id', 'param_id', 'ts'])
    .execute();
  await db.schema
    .createIndex('diag_param_values_ts_idx')
    .on('diag_param_values')
    .column('ts')
    .execute();
}

/** Drops the diagnostics tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'diag_param_values',
    'diag_param_meta',
    'diag_metric_points',
    'diag_metric_meta',
    'diag_logs',
    'diag_node_info',
  ])
    await db.schema.dropTable(table).execute();
}
