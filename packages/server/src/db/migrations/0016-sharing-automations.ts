import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Node sharing, device-group sharing and node automations (docs/adr/0014): the sources of the
 * push events node_shared_with_user, group_shared_with_user and node_automation_trigger.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const idType = isPostgres(db) ? sql`varchar(64) collate "C"` : sql`varchar(64)`;

  // A secondary user of a node. The grant is valid only while the node's primary user and claim
  // time are the ones it was made under, so a release (remove, factory reset, account deletion)
  // ends every share without each release path having to know about sharing.
  await db.schema
    .createTable('node_shares')
    .addColumn('node_id', idType, (c) =>
      c.notNull().references('nodes.node_id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.notNull().references('users.user_id').onDelete('cascade'),
    )
    .addColumn('granted_by', 'varchar(64)', (c) =>
      c.notNull().references('users.user_id').onDelete('cascade'),
    )
    .addColumn('granted_claim', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('node_shares_pk', ['node_id', 'user_id'])
    .execute();
  await db.schema.createIndex('node_shares_user_idx').on('node_shares').column('user_id').execute();

  // Pending, accepted and declined sharing requests of nodes and of groups. Ids start with the
  // creation time in hex, so id order is age order on both dialects (keyset pages).
  await db.schema
    .createTable('sharing_requests')
    .addColumn('request_id', idType, (c) => c.primaryKey())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('from_user_id', 'varchar(64)', (c) =>
      c.notNull().references('users.user_id').onDelete('cascade'),
    )
    .addColumn('to_user_id', 'varchar(64)', (c) =>
      c.notNull().references('users.user_id').onDelete('cascade'),
    )
    // JSON array of node or group ids.
    .addColumn('entity_ids', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sharing_requests_to_idx')
    .on('sharing_requests')
    .columns(['to_user_id', 'kind', 'request_id'])
    .execute();
  await db.schema
    .createIndex('sharing_requests_from_idx')
    .on('sharing_requests')
    .columns(['from_user_id', 'kind', 'request_id'])
    .execute();

  // A user who accepted a device group's notifications.
  await db.schema
    .createTable('group_shares')
    .addColumn('group_id', idType, (c) =>
      c.notNull().references('node_groups.group_id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.notNull().references('users.user_id').onDelete('cascade'),
    )
    .addColumn('shared_by', 'varchar(64)', (c) =>
      c.references('users.user_id').onDelete('set null'),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('group_shares_pk', ['group_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('group_shares_user_idx')
    .on('group_shares')
    .column('user_id')
    .execute();

  // An end user's automation: one param condition on a node, and params to set on nodes.
  await db.schema
    .createTable('node_automations')
    .addColumn('automation_id', idType, (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.notNull().references('users.user_id').onDelete('cascade'),
    )
    .addColumn('node_id', idType, (c) =>
      c.notNull().references('nodes.node_id').onDelete('cascade'),
    )
    .addColumn('name', 'varchar(256)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('device', 'varchar(128)', (c) => c.notNull())
    .addColumn('param', 'varchar(128)', (c) => c.notNull())
    .addColumn('check_op', 'varchar(2)', (c) => c.notNull())
    // JSON of the compared value (number, boolean or string).
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('event_operator', 'varchar(3)', (c) => c.notNull())
    // JSON array of {node_id, params}.
    .addColumn('actions', 'text', (c) => c.notNull())
    .addColumn('retrigger', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('node_automations_name_idx')
    .on('node_automations')
    .columns(['user_id', 'node_id', 'name'])
    .unique()
    .execute();
  await db.schema
    .createIndex('node_automations_user_idx')
    .on('node_automations')
    .columns(['user_id', 'automation_id'])
    .execute();
  await db.schema
    .createIndex('node_automations_node_idx')
    .on('node_automations')
    .columns(['node_id', 'enabled'])
    .execute();
}

/** Drops the sharing and automation tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('node_automations').execute();
  await db.schema.dropTable('group_shares').execute();
  await db.schema.dropTable('sharing_requests').execute();
  await db.schema.dropTable('node_shares').execute();
}
