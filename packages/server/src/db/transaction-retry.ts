/**
 * Transactions that PostgreSQL may abort because of another writer: a deadlock (40P01) or a
 * serialization failure (40001) rolls the whole transaction back, and running it again is the
 * documented remedy. SQLite has one writer and never reports these codes, so there the helper is a
 * plain transaction (ADR 37).
 */

/** PostgreSQL's SQLSTATEs of a transaction aborted only because of a concurrent one. */
const TRANSIENT_CONFLICT_CODES: ReadonlySet<string> = new Set(['40P01', '40001']);

/** What the helper needs of a Kysely instance (so unit tests can pass a stand-in). */
export interface TransactionStarter<Trx> {
  transaction(): { execute<T>(body: (trx: Trx) => Promise<T>): Promise<T> };
}

/** How often and how long to wait between attempts. */
export interface RetryOptions {
  /** Attempts in all, the first included. */
  attempts?: number;
  /** The wait before the second attempt; it doubles for each one after, with jitter. */
  baseDelayMs?: number;
  /** Stand-ins for tests. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const DEFAULT_ATTEMPTS = 4;
const DEFAULT_BASE_DELAY_MS = 8;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Whether SQLite gave up waiting for another connection's write lock (busy_timeout, 5 s): another
 * process holds it (a `stats:rebuild`, a hand-run sqlite3 shell). Nothing was written; sending the
 * request again later works. Not retried here: the wait already happened inside SQLite.
 */
export function isDatabaseBusy(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code);
}

/** Whether a database error aborted a transaction only because of a concurrent one (40P01, 40001). */
export function isTransientConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && TRANSIENT_CONFLICT_CODES.has(code);
}

/** Whether an error is a foreign-key violation on either dialect (the referenced row is gone). */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * Runs `body` in a transaction and runs it again, in a new transaction, when the database aborted
 * it for a deadlock or a serialization failure, after a short jittered wait (the two writers that
 * collided should not collide again in step). Any other error, or the last attempt's, is thrown.
 * `body` may run more than once: it must do nothing outside the database.
 */
export async function transactionWithRetry<Trx, T>(
  db: TransactionStarter<Trx>,
  body: (trx: Trx) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const attempts = Math.max(1, options.attempts ?? DEFAULT_ATTEMPTS);
  const baseDelayMs = options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
  const sleep = options.sleep ?? wait;
  const random = options.random ?? Math.random;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction().execute(body);
    } catch (error) {
      if (attempt >= attempts || !isTransientConflict(error)) throw error;
      // Half the window plus a random half of it; the window doubles: 4–8, 8–16, 16–32 ms.
      const window = baseDelayMs * 2 ** (attempt - 1);
      await sleep(Math.round(window / 2 + (random() * window) / 2));
    }
  }
}
