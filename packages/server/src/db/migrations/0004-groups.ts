import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/** Device groups with optional automatic-add filters, and their members. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const idType = isPostgres(db) ? sql`varchar(64) collate "C"` : sql`varchar(64)`;
  await db.schema
    .createTable('node_groups')
    .addColumn('group_id', idType, (c) => c.primaryKey())
    .addColumn('group_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('is_automatic', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('filter_type', 'varchar(64)')
    .addColumn('filter_model', 'varchar(64)')
    .addColumn('filter_fw_version', 'varchar(64)')
    // Stored as the nodes table stores them: city lower-case, serial upper-case.
    .addColumn('filter_city', 'varchar(128)')
    .addColumn('filter_serial', 'varchar(128)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('node_groups_automatic_idx')
    .on('node_groups')
    .column('is_automatic')
    .execute();

  await db.schema
    .createTable('node_group_members')
    .addColumn('group_id', idType, (c) =>
      c.notNull().references('node_groups.group_id').onDelete('cascade'),
    )
    .addColumn('node_id', idType, (c) =>
      c.notNull().references('nodes.node_id').onDelete('cascade'),
    )
    // 'filter' rows follow the group's filters; 'manual' rows stay until removed.
    .addColumn('source', 'varchar(8)', (c) => c.notNull())
    .addPrimaryKeyConstraint('node_group_members_pk', ['group_id', 'node_id'])
    .execute();
  await db.schema
    .createIndex('node_group_members_node_idx')
    .on('node_group_members')
    .column('node_id')
    .execute();
}

/** Drops the group tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('node_group_members').execute();
  await db.schema.dropTable('node_groups').execute();
}
