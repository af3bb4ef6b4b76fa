import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * The node config document moves out of `nodes` into `node_configs` (ADR 26). A node publishes its
 * ~1.5 KB config once per connect but its params many times a minute; with the config in the row,
 * every params write rewrote it, and every list page read rows several times wider than what it
 * shows.
 *
 * The migrator runs it in a transaction on both dialects (ADR 27), so a failure leaves the table
 * as it was.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await moveConfigs(db, isPostgres(db) ? sql`varchar(64) collate "C"` : sql`varchar(64)`);
}

async function moveConfigs(db: Kysely<unknown>, idType: ReturnType<typeof sql>): Promise<void> {
  await db.schema
    .createTable('node_configs')
    .addColumn('node_id', idType, (c) =>
      c.primaryKey().references('nodes.node_id').onDelete('cascade'),
    )
    .addColumn('config', 'text', (c) => c.notNull())
    .execute();
  await sql`
    insert into node_configs (node_id, config)
    select node_id, config from nodes where config is not null`.execute(db);
  await db.schema.alterTable('nodes').dropColumn('config').execute();
}

/** Puts the documents back into `nodes.config`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('nodes').addColumn('config', 'text').execute();
  await sql`
    update nodes set config =
      (select c.config from node_configs as c where c.node_id = nodes.node_id)`.execute(db);
  await db.schema.dropTable('node_configs').execute();
}
