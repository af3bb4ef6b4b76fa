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
 * Marks a fixed PostgreSQL text to run as a named prepared statement: each pooled connection
 * parses and plans it once and afterwards only binds and executes it.
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
      const query = async (text: string, values: readonly unknown[]) => {
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
