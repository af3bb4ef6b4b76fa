import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type QueryExecutorProvider,
  type SqliteDialectConfig,
} from 'kysely';
import pg from 'pg';
import { runFixedQuery } from './raw-query.js';
import { VALUE_ROWS_MARK, preparedStatementPool } from './postgres-statements.js';
import type { Database } from './schema.js';
import {
  FALLBACK_AUTOCHECKPOINT_PAGES,
  SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES,
  startWalCheckpointer,
  type WalCheckpointer,
} from './wal-checkpointer.js';

export type Dialect = 'sqlite' | 'postgres';

/** An open database with the dialect it speaks. */
export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Where the data lives, for log lines (no credentials). */
  location: string;
  /** SQLite: the background WAL checkpointer (ADR 20). */
  walCheckpointer?: WalCheckpointer;
  close(): Promise<void>;
}

/** Connections to PostgreSQL per server process. */
const POSTGRES_POOL_SIZE = 10;

// bigint (int8) and numeric counts come back as strings by default; our values fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

/** Opens PostgreSQL when a URL is given, else the SQLite file `<dataDir>/fleetdeck.db` in WAL mode. */
export function openDatabase(
  options: {
    databaseUrl?: string | undefined;
    dataDir: string;
    /**
     * PostgreSQL: told when an idle connection of the pool fails (the server restarted or
     * failed over, a proxy or firewall cut it, an administrator ended it). The pool drops that
     * connection and opens a new one when it is next needed; without a listener the pool's
     * `error` event would end the process.
     */
    onConnectionError?: (error: Error) => void;
  },
  /** Told when SQLite's background checkpointer fails (the server then checkpoints itself). */
  onCheckpointerFailure: (error: Error) => void = () => undefined,
  /** Told when its checkpoints start failing (the error) and work again (null). */
  onCheckpointerTrouble: (error: Error | null) => void = () => undefined,
): DatabaseHandle {
  if (options.databaseUrl) {
    // A fixed-size pool: connections once opened stay open (pg closes idle ones above `min`
    // after 10 s by default), so a burst after a quiet spell does not wait for new backends
    // with cold caches and statements to prepare again (ADR 24).
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: POSTGRES_POOL_SIZE,
      min: POSTGRES_POOL_SIZE,
    });
    const onConnectionError = options.onConnectionError ?? (() => undefined);
    pool.on('error', (error) => onConnectionError(error));
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: preparedStatementPool(pool) }),
    });
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
  sqlite.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
  // Checkpoints run on a second connection in a worker thread; this one only steps in when the
  // WAL grows far (ADR 20).
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  const walCheckpointer = startWalCheckpointer(
    file,
    (error) => {
      if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES}`);
      onCheckpointerFailure(error);
    },
    undefined,
    onCheckpointerTrouble,
  );
  const db = new Kysely<Database>({
    dialect: new TransactionalDdlSqliteDialect({ database: withStatementCache(sqlite) }, sqlite),
  });
  return {
    db,
    dialect: 'sqlite',
    location: file,
    walCheckpointer,
    close: async () => {
      // The checkpointer's connection first: the last one to close checkpoints and removes the WAL.
      await walCheckpointer.stop();
      await db.destroy();
    },
  };
}

/**
 * SQLite's schema changes are transactional, but Kysely's SQLite adapter says they are not, so its
 * migrator would run each migration statement by statement: a server stopped half-way through one
 * (a first start killed, a power cut during an upgrade) left tables that the next start failed to
 * create again. Saying so makes the migrator run the pending migrations and their bookkeeping in
 * one transaction, as it does on PostgreSQL: an interrupted run leaves the schema as it was (ADR 27).
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * After some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM…) SQLite has already rolled the
 * transaction back by itself. Kysely's ROLLBACK then fails with "cannot rollback - no transaction
 * is active", and that error replaced the real one: a full disk was reported as a bug (a 500)
 * instead of as a full disk (QUALITY R2). Roll back only what is still open.
 */
class AutoRollbackAwareSqliteDriver extends SqliteDriver {
  constructor(
    config: SqliteDialectConfig,
    private readonly sqlite: SQLite.Database,
  ) {
    super(config);
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.sqlite.inTransaction) return;
    await super.rollbackTransaction(connection);
  }
}

class TransactionalDdlSqliteDialect extends SqliteDialect {
  constructor(
    private readonly driverConfig: SqliteDialectConfig,
    private readonly sqlite: SQLite.Database,
  ) {
    super(driverConfig);
  }

  override createAdapter(): SqliteAdapter {
    return new TransactionalDdlSqliteAdapter();
  }

  override createDriver(): SqliteDriver {
    return new AutoRollbackAwareSqliteDriver(this.driverConfig, this.sqlite);
  }
}

/**
 * SQLite's page cache in KiB (better-sqlite3 builds SQLite with 16,000). With a million nodes
 * the list pages and the ingest touch index and row pages all over the file; a larger cache turns
 * more of those reads from system calls into memory reads (ADR 18: +5–7 % node-list pages at 1M
 * nodes).
 */
export const SQLITE_CACHE_KIB = 65_536;

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
    if (source.startsWith(VALUE_ROWS_MARK)) statement.raw(true);
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

/**
 * Runs a fixed read (`?` placeholders, see `runFixedQuery`) and returns each row as its values in
 * select order, the columns named `columns`. On SQLite better-sqlite3 hands the rows back as
 * arrays (raw mode): no object is built per row, which halves what reading a 50-row list page
 * costs. Elsewhere the values are taken from the row objects by name. `T` is the tuple the select
 * list produces, as with `sql<T>`.
 */
export async function selectValueRows<T extends readonly unknown[]>(
  db: QueryExecutorProvider,
  text: string,
  parameters: readonly unknown[],
  columns: readonly string[],
): Promise<T[]> {
  const { rows } = await runFixedQuery<unknown>(db, `${VALUE_ROWS_MARK}${text}`, parameters);
  const valuesOf = (row: unknown): readonly unknown[] =>
    Array.isArray(row)
      ? (row as readonly unknown[])
      : columns.map((column) => (row as Record<string, unknown>)[column]);
  return rows.map(valuesOf) as unknown as T[];
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
