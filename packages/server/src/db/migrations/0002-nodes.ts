import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * The node registry: nodes with their connectivity, documents and claim; tags for index-backed
 * tag filters; alerts; user ↔ node mapping requests; maintained counters for fast totals.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Node ids sort and prefix-match by code point on both databases (keyset paging, id search).
  const idType = isPostgres(db) ? sql`varchar(64) collate "C"` : sql`varchar(64)`;

  await db.schema
    .createTable('nodes')
    .addColumn('node_id', idType, (c) => c.primaryKey())
    .addColumn('name', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('model', 'varchar(64)', (c) => c.notNull())
    .addColumn('fw_version', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('city', 'varchar(128)')
    .addColumn('serial', 'varchar(128)')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('credential_hash', 'varchar(128)', (c) => c.notNull())
    .addColumn('secret_key_hash', 'varchar(128)', (c) => c.notNull())
    .addColumn('registered_at', 'bigint', (c) => c.notNull())
    .addColumn('activated_at', 'bigint')
    // null: never connected (not_activated); 1 online; 0 offline.
    .addColumn('connected', 'integer')
    .addColumn('conn_changed_at', 'bigint')
    .addColumn('conn_session', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('config', 'text')
    .addColumn('params', 'text')
    .addColumn('config_updated_at', 'bigint')
    .addColumn('params_updated_at', 'bigint')
    .addColumn('last_activity_at', 'bigint')
    .addColumn('primary_user_id', 'varchar(64)')
    .addColumn('claimed_at', 'bigint')
    .execute();
  for (const column of [
    'connected',
    'type',
    'model',
    'fw_version',
    'city',
    'serial',
    'primary_user_id',
  ]) {
    await db.schema
      .createIndex(`nodes_${column}_idx`)
      .on('nodes')
      .columns([column, 'node_id'])
      .execute();
  }
  await db.schema
    .createIndex('nodes_type_connected_idx')
    .on('nodes')
    .columns(['type', 'connected', 'node_id'])
    .execute();

  await db.schema
    .createTable('node_tags')
    .addColumn('tag', 'varchar(160)', (c) => c.notNull())
    .addColumn('node_id', idType, (c) =>
      c.notNull().references('nodes.node_id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('node_tags_pk', ['tag', 'node_id'])
    .execute();
  await db.schema.createIndex('node_tags_node_idx').on('node_tags').column('node_id').execute();

  await db.schema
    .createTable('node_alerts')
    .addColumn('alert_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('node_id', idType, (c) =>
      c.notNull().references('nodes.node_id').onDelete('cascade'),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('node_alerts_node_idx')
    .on('node_alerts')
    .columns(['node_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('user_node_mappings')
    .addColumn('request_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('node_id', idType, (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.notNull().references('users.user_id').onDelete('cascade'),
    )
    .addColumn('secret_key_hash', 'varchar(128)', (c) => c.notNull())
    .addColumn('operation', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('user_node_mappings_node_idx')
    .on('user_node_mappings')
    .columns(['node_id', 'status'])
    .execute();
  await db.schema
    .createIndex('user_node_mappings_status_idx')
    .on('user_node_mappings')
    .columns(['status', 'created_at'])
    .execute();

  await db.schema
    .createTable('node_counters')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute();
}

/** Drops everything `up` made. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'node_counters',
    'user_node_mappings',
    'node_alerts',
    'node_tags',
    'nodes',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
