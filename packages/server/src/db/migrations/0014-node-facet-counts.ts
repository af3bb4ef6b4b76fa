import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Exact node counts per facet value (type, model, fw_version, city, tag), kept by triggers in the
 * same transaction as every write to `nodes` and `node_tags`, so a filtered list's total is one
 * primary-key read instead of counting hundreds of thousands of index entries (ADR 16).
 */
const FACETS = ['type', 'model', 'fw_version', 'city'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('node_facet_counts')
    .addColumn('facet', 'varchar(16)', (c) => c.notNull())
    .addColumn('value', 'varchar(300)', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('node_facet_counts_pk', ['facet', 'value'])
    .execute();

  for (const facet of FACETS) {
    await sql`
      insert into node_facet_counts (facet, value, n)
      select ${facet}, ${sql.ref(facet)}, count(*) from nodes
      where ${sql.ref(facet)} is not null group by ${sql.ref(facet)}`.execute(db);
  }
  await sql`
    insert into node_facet_counts (facet, value, n)
    select 'tag', tag, count(*) from node_tags group by tag`.execute(db);

  if (isPostgres(db)) await postgresTriggers(db);
  else await sqliteTriggers(db);
}

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const bump = (facet: string, value: string, when: string) =>
    `insert into node_facet_counts (facet, value, n) select '${facet}', ${value}, 1 where ${when}
       on conflict (facet, value) do update set n = n + 1;`;
  const drop = (facet: string, value: string, when: string) =>
    `update node_facet_counts set n = n - 1 where facet = '${facet}' and value = ${value} and ${when};`;
  const onInsert = FACETS.map((f) => bump(f, `new.${f}`, `new.${f} is not null`)).join('\n');
  const onDelete = FACETS.map((f) => drop(f, `old.${f}`, `old.${f} is not null`)).join('\n');
  const onUpdate = FACETS.map(
    (f) =>
      drop(f, `old.${f}`, `old.${f} is not null and old.${f} is not new.${f}`) +
      '\n' +
      bump(f, `new.${f}`, `new.${f} is not null and old.${f} is not new.${f}`),
  ).join('\n');
  await sql
    .raw(`create trigger nodes_facets_insert after insert on nodes begin ${onInsert} end`)
    .execute(db);
  await sql
    .raw(`create trigger nodes_facets_delete after delete on nodes begin ${onDelete} end`)
    .execute(db);
  await sql
    .raw(
      `create trigger nodes_facets_update after update of ${FACETS.join(', ')} on nodes begin ${onUpdate} end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger node_tags_facets_insert after insert on node_tags begin ${bump('tag', 'new.tag', 'true')} end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger node_tags_facets_delete after delete on node_tags begin ${drop('tag', 'old.tag', 'true')} end`,
    )
    .execute(db);
}

/**
 * PostgreSQL: inserts and deletes are counted per statement from the transition table, grouped
 * and applied in (facet, value) order, so concurrent bulk registrations lock counter rows in one
 * order and cannot deadlock; the rare facet changes of an update are counted per row.
 */
async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  const facetRows = (table: string) =>
    FACETS.map(
      (f) =>
        `select '${f}'::varchar as facet, ${f}::varchar as value from ${table} where ${f} is not null`,
    ).join(' union all ');
  await sql
    .raw(
      `create function node_facets_apply(delta bigint, facet_in varchar, value_in varchar) returns void
       language sql as $$
         insert into node_facet_counts (facet, value, n) values (facet_in, value_in, delta)
         on conflict (facet, value) do update set n = node_facet_counts.n + excluded.n
       $$`,
    )
    .execute(db);
  for (const [name, table, op, sign, rows] of [
    ['nodes_facets_insert', 'nodes', 'insert', '', facetRows('changed')],
    ['nodes_facets_delete', 'nodes', 'delete', '-', facetRows('changed')],
    [
      'node_tags_facets_insert',
      'node_tags',
      'insert',
      '',
      `select 'tag'::varchar as facet, tag::varchar as value from changed`,
    ],
    [
      'node_tags_facets_delete',
      'node_tags',
      'delete',
      '-',
      `select 'tag'::varchar as facet, tag::varchar as value from changed`,
    ],
  ] as const) {
    await sql
      .raw(
        `create function ${name}() returns trigger language plpgsql as $$
         begin
           insert into node_facet_counts (facet, value, n)
           select facet, value, ${sign}count(*) from (${rows}) c group by facet, value order by facet, value
           on conflict (facet, value) do update set n = node_facet_counts.n + excluded.n;
           return null;
         end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${name} after ${op} on ${table}
         referencing ${op === 'insert' ? 'new' : 'old'} table as changed
         for each statement execute function ${name}()`,
      )
      .execute(db);
  }
  const changes = FACETS.map(
    (f) => `if old.${f} is distinct from new.${f} then
        if old.${f} is not null then perform node_facets_apply(-1, '${f}', old.${f}); end if;
        if new.${f} is not null then perform node_facets_apply(1, '${f}', new.${f}); end if;
      end if;`,
  ).join('\n');
  await sql
    .raw(
      `create function nodes_facets_update() returns trigger language plpgsql as $$
       begin ${changes} return null; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger nodes_facets_update after update of ${FACETS.join(', ')} on nodes
       for each row when (${FACETS.map((f) => `old.${f} is distinct from new.${f}`).join(' or ')})
       execute function nodes_facets_update()`,
    )
    .execute(db);
}

/** Drops the counts and their triggers. */
export async function down(db: Kysely<unknown>): Promise<void> {
  const triggers = [
    ['nodes_facets_insert', 'nodes'],
    ['nodes_facets_delete', 'nodes'],
    ['nodes_facets_update', 'nodes'],
    ['node_tags_facets_insert', 'node_tags'],
    ['node_tags_facets_delete', 'node_tags'],
  ] as const;
  if (isPostgres(db)) {
    for (const [name, table] of triggers) {
      await sql.raw(`drop trigger if exists ${name} on ${table}`).execute(db);
      await sql.raw(`drop function if exists ${name}()`).execute(db);
    }
    await sql
      .raw('drop function if exists node_facets_apply(bigint, varchar, varchar)')
      .execute(db);
  } else {
    for (const [name] of triggers) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  }
  await db.schema.dropTable('node_facet_counts').execute();
}
