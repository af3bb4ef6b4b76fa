import {
  InsertQueryNode,
  Migrator,
  sql,
  type Kysely,
  type KyselyPlugin,
  type Migration,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Dialect } from '../src/db/database.js';
import { MIGRATIONS, migrateToLatest, migrateUpTo } from '../src/db/migrator.js';
import type { Database } from '../src/db/schema.js';
import { DIALECTS, openTestDatabase } from './helpers/test-server.js';

// QUALITY.md R8: every migration interrupted and re-run. A server stopped in the middle of a
// migration (a first start killed, a power cut during an upgrade) must leave the schema and its
// seed rows exactly as they were, and the next start must migrate as if nothing had happened.

const NAMES = Object.keys(MIGRATIONS);
/** Migrations with nothing to do on SQLite (their only statement there is the bookkeeping). */
const NOTHING_ON_SQLITE: ReadonlySet<string> = new Set(['0023-counter-lock-order']);
const INTERRUPTED = 'interrupted here (test)';
/** Where Kysely's migrator records the applied migrations. */
const MIGRATION_TABLE = 'kysely_migration';

/**
 * Counts the statements Kysely sends for each migration (those of its `up`, then the migrator's
 * insert of its name), and throws instead of sending the `failAt`-th of `target`'s: the process
 * stopping right before that statement reached the database.
 */
class Interruption implements KyselyPlugin {
  current: string | undefined;
  readonly sent: Record<string, number> = {};
  constructor(
    private readonly target?: string,
    private readonly failAt = Number.POSITIVE_INFINITY,
  ) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.current) {
      const sent = (this.sent[this.current] ?? 0) + 1;
      this.sent[this.current] = sent;
      if (this.current === this.target && sent === this.failAt) throw new Error(INTERRUPTED);
      // The bookkeeping ends the migration (PostgreSQL's lock release after the commit is not
      // part of it).
      if (
        InsertQueryNode.is(args.node) &&
        args.node.into?.table.identifier.name === MIGRATION_TABLE
      )
        this.current = undefined;
    }
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

/** Runs every pending migration as `migrateToLatest` does, through `plugin`. */
async function migrateThrough(db: Kysely<Database>, plugin: Interruption): Promise<unknown> {
  const migrations: Record<string, Migration> = {};
  for (const [name, migration] of Object.entries(MIGRATIONS)) {
    migrations[name] = {
      ...migration,
      up: async (trx) => {
        plugin.current = name;
        await migration.up(trx);
      },
    };
  }
  const migrator = new Migrator({
    db: db.withPlugin(plugin),
    provider: { getMigrations: () => Promise.resolve(migrations) },
    allowUnorderedMigrations: true,
  });
  const { error } = await migrator.migrateToLatest();
  plugin.current = undefined;
  return error;
}

/**
 * The schema (tables, columns, indexes, triggers, functions, constraints) and every table's row
 * count; without the migrator's own tables (it creates them before its transaction; which
 * migrations are recorded is checked on its own).
 */
async function snapshot(db: Kysely<Database>, dialect: Dialect): Promise<unknown> {
  let objects: unknown[];
  let tables: string[];
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
      select type, name, sql from sqlite_master
      where name not like 'sqlite_%' and tbl_name not like 'kysely_migration%'
      order by type, name`.execute(db);
    objects = rows;
    tables = rows.filter((r) => r.type === 'table').map((r) => r.name);
  } else {
    const queries = [
      sql`select table_name, column_name, data_type, is_nullable, column_default, collation_name
          from information_schema.columns
          where table_schema = 'public' and table_name not like 'kysely_migration%' order by 1, 2`,
      sql`select indexname, indexdef from pg_indexes
          where schemaname = 'public' and tablename not like 'kysely_migration%' order by 1`,
      sql`select event_object_table, trigger_name, event_manipulation, action_statement
          from information_schema.triggers where trigger_schema = 'public' order by 1, 2, 3`,
      sql`select p.proname, md5(p.prosrc) as body from pg_proc p
          join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public' order by 1, 2`,
      sql`select conrelid::regclass::text as tbl, conname, pg_get_constraintdef(oid) as def
          from pg_constraint where connamespace = 'public'::regnamespace
          and conrelid::regclass::text not like 'kysely_migration%' order by 1, 2`,
    ];
    objects = [];
    for (const query of queries) objects.push((await query.execute(db)).rows);
    const { rows } = await sql<{ table_name: string }>`
      select table_name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE'
      and table_name not like 'kysely_migration%' order by 1`.execute(db);
    tables = rows.map((r) => r.table_name);
  }
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const { rows } = await sql<{
      n: number;
    }>`select count(*) as n from ${sql.table(table)}`.execute(db);
    counts[table] = Number(rows[0]?.n);
  }
  return { objects, counts };
}

async function appliedMigrations(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select name from kysely_migration order by name`.execute(db);
  return rows.map((r) => r.name);
}

describe.each(DIALECTS)('every migration interrupted and re-run on %s (R8)', (dialect) => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  /** Statements each migration sends (with the bookkeeping after it), from a run not interrupted. */
  let statements: Record<string, number> = {};
  let complete: unknown;

  beforeAll(async () => {
    const opened = await openTestDatabase(dialect);
    try {
      const plugin = new Interruption();
      expect(await migrateThrough(opened.handle.db, plugin)).toBeUndefined();
      statements = plugin.sent;
      complete = await snapshot(opened.handle.db, dialect);
      expect(await appliedMigrations(opened.handle.db)).toEqual(NAMES);
    } finally {
      await opened.cleanup();
    }
  });

  it('counts every migration, each with its statements and its bookkeeping', () => {
    expect(Object.keys(statements)).toEqual(NAMES);
    for (const name of NAMES) {
      const own = dialect === 'sqlite' && NOTHING_ON_SQLITE.has(name) ? 0 : 1;
      expect(statements[name], name).toBeGreaterThanOrEqual(own + 1);
    }
  });

  it.each(NAMES)(
    '%s: stopped half-way, on its last statement and at its bookkeeping, it leaves the schema as it was; the next run completes it',
    async (name) => {
      const index = NAMES.indexOf(name);
      const before = NAMES.slice(0, index);
      // The migration's own statements, then the migrator's insert of its name. Half-way, the
      // last own statement and the insert on SQLite; the last two on PostgreSQL, where each
      // attempt needs a database of its own.
      const n = statements[name]!;
      const halfWay = Math.max(1, Math.ceil((n - 1) / 2));
      const failPoints = [
        ...new Set([...(dialect === 'sqlite' ? [halfWay] : []), n - 1, n]),
      ].filter((failAt) => failAt >= 1);
      for (const failAt of failPoints) {
        const opened = await openTestDatabase(dialect);
        cleanup = opened.cleanup;
        const db = opened.handle.db;
        if (index > 0) await migrateUpTo(db, before.at(-1)!);
        const unchanged = await snapshot(db, dialect);

        const error = await migrateThrough(db, new Interruption(name, failAt));
        expect(error, `interruption at statement ${failAt} of ${n}`).toBeInstanceOf(Error);
        expect((error as Error).message).toBe(INTERRUPTED);
        expect(await snapshot(db, dialect)).toEqual(unchanged);
        expect(await appliedMigrations(db)).toEqual(before);

        // The next start: every pending migration applies, and the result is a complete schema.
        expect(await migrateToLatest(db)).toEqual(NAMES.slice(index));
        expect(await snapshot(db, dialect)).toEqual(complete);
        await cleanup();
        cleanup = undefined;
      }
    },
  );
});
