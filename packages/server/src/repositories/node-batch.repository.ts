import { PostgresAdapter, type QueryExecutorProvider } from 'kysely';
import { selectValueRows } from '../db/database.js';
import { runFixedQuery } from '../db/raw-query.js';
import type { NodesTable } from '../db/schema.js';

/**
 * Set-based reads and writes of the node ingest: one statement per chunk of nodes instead of one
 * per node, from a handful of fixed SQL texts (prepared once on SQLite). A chunk is padded to the
 * next size in `CHUNK_SIZES` by repeating its last row, so the texts stay few; a repeated id
 * selects or updates the same row with the same values, which changes nothing.
 */
const CHUNK_SIZES = [1, 8, 32, 128, 256] as const;
const LARGEST_CHUNK = CHUNK_SIZES[CHUNK_SIZES.length - 1]!;

/** The node columns the ingest writes, with their PostgreSQL types (the VALUES list is text). */
const UPDATABLE_COLUMNS = {
  name: 'varchar(256)',
  type: 'varchar(64)',
  model: 'varchar(64)',
  fw_version: 'varchar(64)',
  activated_at: 'bigint',
  connected: 'integer',
  conn_changed_at: 'bigint',
  conn_session: 'bigint',
  params: 'text',
  config_updated_at: 'bigint',
  params_updated_at: 'bigint',
  last_activity_at: 'bigint',
} as const satisfies Partial<Record<keyof NodesTable, string>>;

export type IngestNodeColumn = keyof typeof UPDATABLE_COLUMNS;
export type IngestNodeUpdate = Partial<Pick<NodesTable, IngestNodeColumn>>;

/** What the ingest needs to know about a node before it writes it. */
export interface IngestNodeRow {
  node_id: string;
  connected: number | null;
  conn_session: number;
  activated_at: number | null;
  type: string;
  model: string;
  fw_version: string;
  /** Only read when asked for (`withParams`): the stored params document. */
  params?: string | null;
}

/** Splits `count` items into chunk sizes: full largest chunks, then the smallest size that fits. */
export function chunkPlan(count: number): Array<{ start: number; length: number; size: number }> {
  const plan: Array<{ start: number; length: number; size: number }> = [];
  let start = 0;
  while (count - start >= LARGEST_CHUNK) {
    plan.push({ start, length: LARGEST_CHUNK, size: LARGEST_CHUNK });
    start += LARGEST_CHUNK;
  }
  const rest = count - start;
  if (rest > 0) {
    const size = CHUNK_SIZES.find((candidate) => candidate >= rest) ?? LARGEST_CHUNK;
    plan.push({ start, length: rest, size });
  }
  return plan;
}

function isPostgresExecutor(db: QueryExecutorProvider): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const INGEST_COLUMNS = [
  'node_id',
  'connected',
  'conn_session',
  'activated_at',
  'type',
  'model',
  'fw_version',
  'params',
] as const;
type IngestValues = readonly [
  string,
  number | null,
  number | string,
  number | string | null,
  string,
  string,
  string,
  (string | null)?,
];

const selectTexts = new Map<string, string>();

function selectText(size: number, withParams: boolean, postgres: boolean): string {
  const key = `${postgres ? 'pg' : 'sqlite'}:${size}:${withParams}`;
  let text = selectTexts.get(key);
  if (text === undefined) {
    const columns = (withParams ? INGEST_COLUMNS : INGEST_COLUMNS.slice(0, -1)).join(', ');
    const placeholders = Array.from({ length: size }, () => '?').join(', ');
    text = `select ${columns} from nodes where node_id in (${placeholders})`;
    // Byte order, as the ids are sorted in JavaScript: every chunk and every instance takes the
    // rows in one order (ADR 37). The lock is what an UPDATE takes, so it is never upgraded.
    if (postgres) text += ' order by node_id collate "C" for no key update';
    selectTexts.set(key, text);
  }
  return text;
}

/** Ids in byte order (the order `collate "C"` sorts ASCII ids in). */
function byteOrder(ids: readonly string[]): string[] {
  return [...new Set(ids)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The ingest's view of the given nodes (unknown ids are missing from the map). On PostgreSQL the
 * rows are locked until the transaction ends, in node-id order: another instance ingesting the
 * same nodes (every instance hears a node's retained birth and will, ADR 39) waits, then reads
 * what this one committed, so a change is applied, counted and told once; and two batches over
 * the same nodes cannot deadlock. SQLite has one writer already.
 */
export async function selectNodesForIngest(
  db: QueryExecutorProvider,
  unordered: readonly string[],
  withParams: boolean,
): Promise<Map<string, IngestNodeRow>> {
  const rows = new Map<string, IngestNodeRow>();
  const postgres = isPostgresExecutor(db);
  const ids = postgres ? byteOrder(unordered) : unordered;
  const columns = withParams ? INGEST_COLUMNS : INGEST_COLUMNS.slice(0, -1);
  for (const { start, length, size } of chunkPlan(ids.length)) {
    const parameters = ids.slice(start, start + length);
    const last = parameters[parameters.length - 1];
    while (parameters.length < size) parameters.push(last!);
    // Value rows: no object per row from the driver (a padded id comes back once per repeat).
    const values = await selectValueRows<IngestValues>(
      db,
      selectText(size, withParams, postgres),
      parameters,
      columns,
    );
    for (const [
      nodeId,
      connected,
      session,
      activatedAt,
      type,
      model,
      fwVersion,
      params,
    ] of values) {
      const row: IngestNodeRow = {
        node_id: nodeId,
        connected,
        // PostgreSQL returns bigint columns as strings.
        conn_session: Number(session),
        activated_at: activatedAt === null ? null : Number(activatedAt),
        type,
        model,
        fw_version: fwVersion,
      };
      if (withParams) row.params = params ?? null;
      rows.set(nodeId, row);
    }
  }
  return rows;
}

const updateTexts = new Map<string, string>();

function updateText(columns: readonly IngestNodeColumn[], size: number, postgres: boolean): string {
  const key = `${postgres ? 'pg' : 'sqlite'}:${size}:${columns.join(',')}`;
  let text = updateTexts.get(key);
  if (text === undefined) {
    const row = `(${Array.from({ length: columns.length + 1 }, () => '?').join(', ')})`;
    const values = Array.from({ length: size }, () => row).join(', ');
    const names = columns.map((_column, index) => `c${index}`);
    const assignments = columns.map((column, index) =>
      postgres
        ? `${column} = cast(v.c${index} as ${UPDATABLE_COLUMNS[column]})`
        : `${column} = v.c${index}`,
    );
    text =
      `with v(id, ${names.join(', ')}) as (values ${values}) ` +
      `update nodes set ${assignments.join(', ')} from v where nodes.node_id = v.id`;
    updateTexts.set(key, text);
  }
  return text;
}

/**
 * Writes each node's changed columns: nodes with the same set of columns go together, one
 * `UPDATE … FROM (VALUES …)` per chunk. Every node id appears at most once in `updates`.
 */
export async function updateNodesForIngest(
  db: QueryExecutorProvider,
  updates: ReadonlyArray<{ nodeId: string; update: IngestNodeUpdate }>,
): Promise<void> {
  const postgres = isPostgresExecutor(db);
  const bySignature = new Map<
    string,
    { columns: IngestNodeColumn[]; rows: Array<{ nodeId: string; update: IngestNodeUpdate }> }
  >();
  for (const item of updates) {
    const columns = (Object.keys(item.update) as IngestNodeColumn[]).filter(
      (column) => item.update[column] !== undefined,
    );
    if (columns.length === 0) continue;
    columns.sort();
    const signature = columns.join(',');
    let group = bySignature.get(signature);
    if (!group) {
      group = { columns, rows: [] };
      bySignature.set(signature, group);
    }
    group.rows.push(item);
  }
  for (const { columns, rows } of bySignature.values()) {
    for (const { start, length, size } of chunkPlan(rows.length)) {
      const parameters: unknown[] = [];
      for (let index = 0; index < size; index += 1) {
        const { nodeId, update } = rows[start + Math.min(index, length - 1)]!;
        parameters.push(nodeId);
        for (const column of columns) parameters.push(update[column]);
      }
      await runFixedQuery(db, updateText(columns, size, postgres), parameters);
    }
  }
}

const configTexts = new Map<number, string>();

function configText(size: number): string {
  let text = configTexts.get(size);
  if (text === undefined) {
    const values = Array.from({ length: size }, () => '(?, ?)').join(', ');
    // `distinct` drops the padding rows (PostgreSQL refuses to update one row twice in a
    // statement); `where true` keeps SQLite from reading `on conflict` as a join constraint.
    text =
      `with v(id, doc) as (values ${values}) ` +
      'insert into node_configs (node_id, config) select distinct id, doc from v where true ' +
      'on conflict (node_id) do update set config = excluded.config';
    configTexts.set(size, text);
  }
  return text;
}

/**
 * Stores each node's config document (ADR 26), replacing the one it had: one statement per chunk
 * of nodes. Every node id appears at most once in `configs`.
 */
export async function upsertNodeConfigs(
  db: QueryExecutorProvider,
  configs: ReadonlyArray<{ nodeId: string; config: string }>,
): Promise<void> {
  for (const { start, length, size } of chunkPlan(configs.length)) {
    const parameters: string[] = [];
    for (let index = 0; index < size; index += 1) {
      const { nodeId, config } = configs[start + Math.min(index, length - 1)]!;
      parameters.push(nodeId, config);
    }
    await runFixedQuery(db, configText(size), parameters);
  }
}
