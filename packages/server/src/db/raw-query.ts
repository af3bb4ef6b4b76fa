import {
  CompiledQuery,
  PostgresAdapter,
  type QueryExecutorProvider,
  type QueryResult,
} from 'kysely';
import { nameFixedStatement } from './postgres-statements.js';

/** PostgreSQL texts (`$1, $2, …`) of the `?` texts run so far: a handful of fixed statements. */
const postgresTexts = new Map<string, string>();

function postgresText(text: string): string {
  let converted = postgresTexts.get(text);
  if (converted === undefined) {
    let n = 0;
    converted = text.replace(/\?/g, () => `$${++n}`);
    postgresTexts.set(text, converted);
    nameFixedStatement(converted);
  }
  return converted;
}

/**
 * Runs a fixed SQL text written with `?` placeholders (no `?` inside literals) on either dialect,
 * without building and compiling a Kysely query tree. For the few statements run thousands of
 * times a second (ingest, device authentication), where building the query costs more than
 * running it; the SQLite driver reuses the prepared statement of the same text. Everything else
 * keeps the typed query builder.
 */
export function runFixedQuery<Row>(
  db: QueryExecutorProvider,
  text: string,
  parameters: readonly unknown[],
): Promise<QueryResult<Row>> {
  const executor = db.getExecutor();
  const source = executor.adapter instanceof PostgresAdapter ? postgresText(text) : text;
  return executor.executeQuery<Row>(CompiledQuery.raw(source, [...parameters]));
}
