import type pg from 'pg';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * Names of the fixed statements (`runFixedQuery`), by their PostgreSQL text. Their number is
 * bounded by the code: a handful of list, count, ingest and authentication shapes.
 */
const statementNames = new Map<string, string>();

/**
 * Starts the text of a read whose rows come back as arrays of values (`selectValueRows`): raw mode
 * on SQLite, `rowMode: 'array'` here. Both statement caches key on the whole text, so a marked
 * statement is always read as arrays.
 */
export const VALUE_ROWS_MARK = '/* value rows */ ';

/**
 * Starts (after `VALUE_ROWS_MARK`, if any) a fixed text whose best plan is the same for every
 * value it binds: a single-condition node list walks one index in node-id order whatever the type,
 * city or cursor is. On PostgreSQL such a text runs with `plan_cache_mode = force_generic_plan`,
 * planned once per connection instead of on every execution. PostgreSQL's own choice keeps
 * planning these afresh each time (the generic plan's estimate comes out a little dearer than the
 * custom plans'), which cost ~135 µs of a ~480 µs page of 50 (ADR 33). Texts with several
 * conditions stay custom: there the best index depends on the values.
 */
export const GENERIC_PLAN_MARK = '/* generic plan */ ';

/** Whether a text carries `GENERIC_PLAN_MARK` (first, or right after `VALUE_ROWS_MARK`). */
export function wantsGenericPlan(text: string): boolean {
  return (
    text.startsWith(GENERIC_PLAN_MARK) ||
    (text.startsWith(VALUE_ROWS_MARK) && text.startsWith(GENERIC_PLAN_MARK, VALUE_ROWS_MARK.length))
  );
}

const SET_GENERIC_PLANS = 'set plan_cache_mode = force_generic_plan';
const SET_CHOSEN_PLANS = 'set plan_cache_mode = auto';
/** A rollback undoes a SET made in its transaction, so the connection's mode is unknown after. */
const ROLLBACK = /^\s*rollback\b/i;

/**
 * Marks a fixed PostgreSQL text to run as a named prepared statement: each pooled connection
 * parses it once and afterwards binds and executes it (planned once too only when it carries
 * `GENERIC_PLAN_MARK`; otherwise PostgreSQL chooses, ADR 33).
 */
export function nameFixedStatement(text: string): void {
  if (!statementNames.has(text)) statementNames.set(text, `fleetdeck_${statementNames.size + 1}`);
}

/**
 * The pool Kysely uses on PostgreSQL: the pg pool, with fixed texts sent as named prepared
 * statements (parsed and planned once per connection instead of on every request) and value-row
 * reads returned as arrays. Other queries pass through unchanged.
 */
export function preparedStatementPool(pool: pg.Pool): PostgresPool {
  // Kysely keys its connection state on the client object, so each pg client keeps one wrapper.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let wrapper = wrappers.get(client);
    if (!wrapper) {
      // The connection's plan_cache_mode as last set here; null before the first set and after a
      // rollback. Switched only before a statement that binds values (others plan alike either
      // way), so a run of list pages of one shape pays the SET once.
      let generic: boolean | null = null;
      const query = async (text: string, values: readonly unknown[]) => {
        if (values.length > 0) {
          const wanted = wantsGenericPlan(text);
          if (generic !== wanted) {
            await client.query(wanted ? SET_GENERIC_PLANS : SET_CHOSEN_PLANS);
            generic = wanted;
          }
        } else if (ROLLBACK.test(text)) {
          generic = null;
        }
        const name = statementNames.get(text);
        const result = await client.query({
          text,
          values: [...values],
          ...(name === undefined ? {} : { name }),
          ...(text.startsWith(VALUE_ROWS_MARK) ? { rowMode: 'array' } : {}),
        });
        return result as unknown as PostgresQueryResult<unknown>;
      };
      wrapper = {
        query: query as PostgresPoolClient['query'],
        release: () => client.release(),
      };
      wrappers.set(client, wrapper);
    }
    return wrapper;
  };
  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  };
}
