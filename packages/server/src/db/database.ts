import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

/** An open database with the dialect it speaks. */
export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Where the data lives, for log lines (no credentials). */
  location: string;
  close(): Promise<void>;
}

// bigint (int8) and numeric counts come back as strings by default; our values fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

/** Opens PostgreSQL when a URL is given, else the SQLite file `<dataDir>/fleetdeck.db` in WAL mode. */
export function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
}): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const url = new URL(options.databaseUrl);
    return {
      db,
      dialect: 'postgres',
      location: `postgres://${url.host}${url.pathname}`,
      close: () => db.destroy(),
    };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, 'fleetdeck.db');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  });
  return { db, dialect: 'sqlite', location: file, close: () => db.destroy() };
}

/** Prepared statements kept per SQL text; the oldest goes when the cache is full. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query afresh; compiling the SQL again costs as much as running a small
 * indexed query. Queries are built from a fixed set of shapes with bound parameters, so one
 * prepared statement per SQL text is reused (better-sqlite3 runs each to completion before the
 * next starts: Fleetdeck never streams, so a cached statement is never busy).
 */
function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = (source: string): SQLite.Statement => {
    const cached = cache.get(source);
    if (cached) {
      // Most recently used last, so the first key is the one to evict.
      cache.delete(source);
      cache.set(source, cached);
      return cached;
    }
    const statement = sqlite.prepare(source);
    cache.set(source, statement);
    if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return statement;
  };
  return new Proxy(sqlite, {
    get(target, property, receiver) {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}

/** Whether the database answers a trivial query. */
export async function isDatabaseReachable(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/** Whether an error is a unique-constraint violation on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}
