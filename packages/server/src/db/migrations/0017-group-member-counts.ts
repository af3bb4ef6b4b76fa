import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Exact member counts per device group, kept by triggers in the same transaction as every write
 * to `node_group_members` (the way ADR 16 keeps the facet counts), so a group's page and the group
 * list read one row per group instead of counting up to a million members each time (ADR 21).
 *
 * A member's insert adds to its group's row (creating it); a delete only subtracts from a row
 * that is there, so the cascade of a deleted group never brings its row back; deleting the group
 * deletes its row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const idType = isPostgres(db) ? sql`varchar(64) collate "C"` : sql`varchar(64)`;
  await db.schema
    .createTable('node_group_counts')
    .addColumn('group_id', idType, (c) => c.primaryKey())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .execute();
  await sql`
    insert into node_group_counts (group_id, n)
    select group_id, count(*) from node_group_members group by group_id`.execute(db);

  if (isPostgres(db)) await postgresTriggers(db);
  else await sqliteTriggers(db);
}

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `create trigger node_group_members_count_insert after insert on node_group_members begin
       insert into node_group_counts (group_id, n) values (new.group_id, 1)
       on conflict (group_id) do update set n = n + 1;
     end`,
    `create trigger node_group_members_count_delete after delete on node_group_members begin
       update node_group_counts set n = n - 1 where group_id = old.group_id;
     end`,
    `create trigger node_group_members_count_update after update of group_id on node_group_members
     when old.group_id is not new.group_id begin
       update node_group_counts set n = n - 1 where group_id = old.group_id;
       insert into node_group_counts (group_id, n) values (new.group_id, 1)
       on conflict (group_id) do update set n = n + 1;
     end`,
    `create trigger node_groups_count_delete after delete on node_groups begin
       delete from node_group_counts where group_id = old.group_id;
     end`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/**
 * PostgreSQL: inserts and deletes are counted per statement from the transition table and applied
 * in group_id order, so concurrent bulk changes lock count rows in one order (no deadlock).
 */
async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `create function node_group_members_count_insert() returns trigger language plpgsql as $$
     begin
       insert into node_group_counts (group_id, n)
       select group_id, count(*) from changed group by group_id order by group_id
       on conflict (group_id) do update set n = node_group_counts.n + excluded.n;
       return null;
     end $$`,
    `create function node_group_members_count_delete() returns trigger language plpgsql as $$
     begin
       update node_group_counts c set n = c.n - d.k
       from (select group_id, count(*) as k from changed group by group_id order by group_id) d
       where c.group_id = d.group_id;
       return null;
     end $$`,
    `create function node_group_members_count_update() returns trigger language plpgsql as $$
     begin
       if old.group_id is distinct from new.group_id then
         update node_group_counts set n = n - 1 where group_id = old.group_id;
         insert into node_group_counts (group_id, n) values (new.group_id, 1)
         on conflict (group_id) do update set n = node_group_counts.n + 1;
       end if;
       return null;
     end $$`,
    `create function node_groups_count_delete() returns trigger language plpgsql as $$
     begin
       delete from node_group_counts where group_id = old.group_id;
       return null;
     end $$`,
    `create trigger node_group_members_count_insert after insert on node_group_members
     referencing new table as changed for each statement
     execute function node_group_members_count_insert()`,
    `create trigger node_group_members_count_delete after delete on node_group_members
     referencing old table as changed for each statement
     execute function node_group_members_count_delete()`,
    `create trigger node_group_members_count_update after update of group_id on node_group_members
     for each row execute function node_group_members_count_update()`,
    `create trigger node_groups_count_delete after delete on node_groups
     for each row execute function node_groups_count_delete()`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** Drops the counts and their triggers. */
export async function down(db: Kysely<unknown>): Promise<void> {
  const triggers = [
    ['node_group_members_count_insert', 'node_group_members'],
    ['node_group_members_count_delete', 'node_group_members'],
    ['node_group_members_count_update', 'node_group_members'],
    ['node_groups_count_delete', 'node_groups'],
  ] as const;
  for (const [name, table] of triggers) {
    if (isPostgres(db)) {
      await sql.raw(`drop trigger if exists ${name} on ${table}`).execute(db);
      await sql.raw(`drop function if exists ${name}()`).execute(db);
    } else {
      await sql.raw(`drop trigger if exists ${name}`).execute(db);
    }
  }
  await db.schema.dropTable('node_group_counts').execute();
}
