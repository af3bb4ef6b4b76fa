import {
  DEFAULT_FAULT_CATALOGUES,
  FAULT_CATALOGUE_NAME_BY_TYPE,
  NODE_TYPES,
} from '@fleetdeck/contract';
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Faults (docs/adr/0009-fault-history.md): the common_custom_data store (fault catalogues by
 * name, installed here with the contract's defaults), each node's current fault (a row only while
 * it reports one) and the append-only history of every change, clears included.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  const idType = postgres ? sql`varchar(64) collate "C"` : sql`varchar(64)`;

  await db.schema
    .createTable('common_custom_data')
    .addColumn('name', idType, (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'varchar(64)')
    .execute();

  await db.schema
    .createTable('node_faults')
    .addColumn('node_id', idType, (c) =>
      c.notNull().references('nodes.node_id').onDelete('cascade'),
    )
    .addColumn('param', 'varchar(64)', (c) => c.notNull())
    .addColumn('value', 'varchar(64)', (c) => c.notNull())
    .addColumn('since', 'bigint', (c) => c.notNull())
    // (param, node_id): the value list pages by node id within a dimension.
    .addPrimaryKeyConstraint('node_faults_pk', ['param', 'node_id'])
    .execute();
  // Value filters, the distribution and the fault device list of one code.
  await db.schema
    .createIndex('node_faults_value_idx')
    .on('node_faults')
    .columns(['param', 'value', 'node_id'])
    .execute();
  // The ingest hook reads the current rows of a batch's nodes.
  await db.schema.createIndex('node_faults_node_idx').on('node_faults').column('node_id').execute();

  await db.schema
    .createTable('node_fault_history')
    // SQLite: an integer primary key is the rowid, assigned in insertion order.
    .addColumn('id', postgres ? 'bigserial' : 'integer', (c) => c.primaryKey())
    .addColumn('node_id', idType, (c) =>
      c.notNull().references('nodes.node_id').onDelete('cascade'),
    )
    .addColumn('param', 'varchar(64)', (c) => c.notNull())
    // '' = the fault cleared.
    .addColumn('value', 'varchar(64)', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .execute();
  // A node's changes newest first (id order is arrival order) and the distinct nodes by id.
  await db.schema
    .createIndex('node_fault_history_node_idx')
    .on('node_fault_history')
    .columns(['node_id', 'id'])
    .execute();

  const now = Math.floor(Date.now() / 1000);
  for (const type of NODE_TYPES) {
    const name = FAULT_CATALOGUE_NAME_BY_TYPE[type];
    const value = JSON.stringify(DEFAULT_FAULT_CATALOGUES[type]);
    await sql`insert into common_custom_data (name, value, updated_at) values (${name}, ${value}, ${now})`.execute(
      db,
    );
  }
}

/** Drops the fault tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('node_fault_history').execute();
  await db.schema.dropTable('node_faults').execute();
  await db.schema.dropTable('common_custom_data').execute();
}
