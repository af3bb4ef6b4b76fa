import pg from 'pg';
import type { Logger } from '../logger.js';

/** An arbitrary constant key for the basic-ingest leadership advisory lock (ADR 39). */
export const BASIC_INGEST_LOCK = 74_203;

/** How often a contender tries for the lock, and the leader checks that it still holds it. */
const DEFAULT_RETRY_MS = 3_000;

/**
 * Whether this instance holds a role that exactly one instance of an installation may hold at a
 * time (ADR 39). `held` changes over time; `watch` tells every change.
 */
export interface Leadership {
  readonly held: boolean;
  /** Tells `listener` every change of `held` from now on; returns a function that stops it. */
  watch(listener: (held: boolean) => void): () => void;
  /** Gives the role up (the lock is released) and stops contending for it. */
  release(): Promise<void>;
}

/** A role that is always held: SQLite means one instance. */
const ALWAYS: Leadership = {
  held: true,
  watch: () => () => undefined,
  release: () => Promise.resolve(),
};

/**
 * Contends for the role named by `key`: on PostgreSQL (`databaseUrl` set) a session-level advisory
 * lock taken on a connection of its own, outside the pool. The lock lives as long as that
 * connection: when the process or its connection dies, PostgreSQL releases it and the next
 * instance to try (every `retryMs`) takes the role. The holder runs a query every `retryMs`
 * (each limited to `retryMs`) and gives the role up, telling its watchers, when one fails, so an
 * instance cut off from the database stops acting soon after another may have started. Without
 * a URL (SQLite, one instance) the role is always held.
 */
export function contendForLeadership(
  databaseUrl: string | undefined,
  key: number,
  logger: Logger,
  options: { retryMs?: number; name?: string } = {},
): Leadership {
  if (!databaseUrl) return ALWAYS;
  const retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
  const log = logger.child({ component: 'leadership', role: options.name ?? String(key) });
  const listeners = new Set<(held: boolean) => void>();
  let held = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let busy = false;

  const setHeld = (next: boolean) => {
    if (next === held) return;
    held = next;
    log.info({ held }, held ? 'took the role' : 'gave the role up');
    for (const listener of listeners) listener(held);
  };

  /** Drops the connection (and with it the lock). */
  const drop = () => {
    const old = client;
    client = undefined;
    setHeld(false);
    if (old) old.end().catch(() => undefined);
  };

  const turn = async () => {
    if (busy || stopped) return;
    busy = true;
    try {
      if (!client) {
        const fresh = new pg.Client({
          connectionString: databaseUrl,
          query_timeout: retryMs,
          keepAlive: true,
          application_name: `fleetdeck-leadership-${key}`,
        });
        // A connection that dies between turns: the lock went with it.
        fresh.on('error', (error) => {
          log.warn({ err: error }, 'leadership connection failed');
          if (client === fresh) drop();
        });
        fresh.on('end', () => {
          if (client === fresh) drop();
        });
        client = fresh;
        await fresh.connect();
      }
      const current = client;
      if (held) {
        await current.query('select 1');
      } else {
        const { rows } = await current.query<{ got: boolean }>(
          'select pg_try_advisory_lock($1) as got',
          [key],
        );
        if (stopped) return;
        if (rows[0]?.got === true && client === current) setHeld(true);
      }
    } catch (error) {
      log.warn({ err: error }, 'leadership check failed; trying again');
      drop();
    } finally {
      busy = false;
    }
  };

  void turn();
  timer = setInterval(() => void turn(), retryMs);
  timer.unref();

  return {
    get held() {
      return held;
    },
    watch(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async release() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      const old = client;
      client = undefined;
      setHeld(false);
      listeners.clear();
      // Ending the session releases its advisory locks.
      if (old) await old.end().catch(() => undefined);
    },
  };
}
