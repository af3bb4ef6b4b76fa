import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * PostgreSQL: the per-row counter triggers take their counter rows in one (sorted) order (ADR 37).
 *
 * A node's facet change subtracted from the old value's count and then added to the new one's, in
 * two statements; two nodes moving in opposite directions at once (Pune → Delhi and Delhi → Pune)
 * locked the same two rows in opposite order and one of the transactions was aborted as a
 * deadlock (61 of 240 concurrent tag updates on a test fleet). Now both changes are one upsert
 * whose rows are sorted by (facet, value). The member-count triggers of groups lock their rows in
 * group_id order before they change them, for the same reason.
 *
 * SQLite has one writer at a time, so its triggers stay as they are.
 */
const FACETS = ['type', 'model', 'fw_version', 'city'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  const changes = FACETS.flatMap((f) => [
    `select '${f}'::varchar as facet, old.${f}::varchar as value, -1::bigint as delta
       where old.${f} is distinct from new.${f}`,
    `select '${f}'::varchar, new.${f}::varchar, 1::bigint where old.${f} is distinct from new.${f}`,
  ]).join('\n union all ');
  await sql
    .raw(
      `create or replace function nodes_facets_update() returns trigger language plpgsql as $$
       begin
         insert into node_facet_counts (facet, value, n)
         select facet, value, sum(delta) from (${changes}) c
         where value is not null
         group by facet, value order by facet, value
         on conflict (facet, value) do update set n = node_facet_counts.n + excluded.n;
         return null;
       end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create or replace function node_group_members_count_update() returns trigger
       language plpgsql as $$
       begin
         if old.group_id is distinct from new.group_id then
           perform 1 from node_group_counts where group_id in (old.group_id, new.group_id)
           order by group_id for update;
           update node_group_counts set n = n - 1 where group_id = old.group_id;
           insert into node_group_counts (group_id, n) values (new.group_id, 1)
           on conflict (group_id) do update set n = node_group_counts.n + 1;
         end if;
         return null;
       end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create or replace function node_group_members_count_delete() returns trigger
       language plpgsql as $$
       begin
         perform 1 from node_group_counts where group_id in (select group_id from changed)
         order by group_id for update;
         update node_group_counts c set n = c.n - d.k
         from (select group_id, count(*) as k from changed group by group_id) d
         where c.group_id = d.group_id;
         return null;
       end $$`,
    )
    .execute(db);
}

/** Restores the trigger functions of migrations 0014 and 0017. */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  const changes = FACETS.map(
    (f) => `if old.${f} is distinct from new.${f} then
        if old.${f} is not null then perform node_facets_apply(-1, '${f}', old.${f}); end if;
        if new.${f} is not null then perform node_facets_apply(1, '${f}', new.${f}); end if;
      end if;`,
  ).join('\n');
  await sql
    .raw(
      `create or replace function nodes_facets_update() returns trigger language plpgsql as $$
       begin ${changes} return null; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create or replace function node_group_members_count_update() returns trigger
       language plpgsql as $$
       begin
         if old.group_id is distinct from new.group_id then
           update node_group_counts set n = n - 1 where group_id = old.group_id;
           insert into node_group_counts (group_id, n) values (new.group_id, 1)
           on conflict (group_id) do update set n = node_group_counts.n + 1;
         end if;
         return null;
       end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create or replace function node_group_members_count_delete() returns trigger
       language plpgsql as $$
       begin
         update node_group_counts c set n = c.n - d.k
         from (select group_id, count(*) as k from changed group by group_id order by group_id) d
         where c.group_id = d.group_id;
         return null;
       end $$`,
    )
    .execute(db);
}
