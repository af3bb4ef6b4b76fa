import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * A version of the set of node ids, in `node_counters` as `id_version`: triggers add to it in the
 * same transaction as every insert into or delete from `nodes`. A node-id search's total depends
 * on nothing else, so it is counted again only when the version moved (ADR 22).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into node_counters (name, value) values ('id_version', 0)
    on conflict (name) do nothing`.execute(db);
  if (isPostgres(db)) {
    await sql
      .raw(
        `create function nodes_id_version_bump() returns trigger language plpgsql as $$
         begin
           update node_counters set value = value + 1 where name = 'id_version';
           return null;
         end $$`,
      )
      .execute(db);
    for (const op of ['insert', 'delete'])
      await sql
        .raw(
          `create trigger nodes_id_version_${op} after ${op} on nodes
           for each statement execute function nodes_id_version_bump()`,
        )
        .execute(db);
  } else {
    for (const op of ['insert', 'delete'])
      await sql
        .raw(
          `create trigger nodes_id_version_${op} after ${op} on nodes begin
             update node_counters set value = value + 1 where name = 'id_version';
           end`,
        )
        .execute(db);
  }
}

/** Drops the triggers and the counter. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const op of ['insert', 'delete'])
    await sql
      .raw(`drop trigger if exists nodes_id_version_${op}${isPostgres(db) ? ' on nodes' : ''}`)
      .execute(db);
  if (isPostgres(db)) await sql`drop function if exists nodes_id_version_bump()`.execute(db);
  await sql`delete from node_counters where name = 'id_version'`.execute(db);
}
