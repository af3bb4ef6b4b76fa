import type { LogCounts, LogType } from '@fleetdeck/contract';
import { sql, type Kysely, type Transaction } from 'kysely';
import type {
  Database,
  DiagLogsTable,
  DiagMetricMetaTable,
  DiagMetricPointsTable,
  DiagParamMetaTable,
  DiagParamValuesTable,
} from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * `(ts - start) / bucketSeconds` with both numbers inlined as integer literals: PostgreSQL must see
 * the same expression in SELECT and GROUP BY, which two bound parameters would not be.
 */
function bucketOf(start: number, bucketSeconds: number) {
  return sql<number>`(ts - ${sql.lit(Math.trunc(start))}) / ${sql.lit(Math.trunc(bucketSeconds))}`;
}

/** Rows per INSERT statement (well under SQLite's bound-parameter limit). */
const CHUNK = 500;

async function chunked<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await write(rows.slice(i, i + CHUNK));
}

/** The subset of `ids` that are registered nodes. */
export async function existingNodeIds(db: Db, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db
      .selectFrom('nodes')
      .select('node_id')
      .where('node_id', 'in', ids.slice(i, i + CHUNK))
      .execute();
    for (const row of rows) found.add(row.node_id);
  }
  return found;
}

/** What a batch learned about one node's info. */
export interface NodeInfoUpdate {
  node_id: string;
  project?: string | undefined;
  app_version?: string | undefined;
  chip?: string | undefined;
  sha256?: string | undefined;
  last_boot?: number | undefined;
  last_seen: number;
}

/** Creates or updates each node's info; absent fields keep their stored value. */
export async function upsertNodeInfo(trx: Db, updates: NodeInfoUpdate[]): Promise<void> {
  for (const update of updates) {
    const set: Record<string, string | number> = { last_seen: update.last_seen };
    for (const key of ['project', 'app_version', 'chip', 'sha256', 'last_boot'] as const) {
      const value = update[key];
      if (value !== undefined) set[key] = value;
    }
    await trx
      .insertInto('diag_node_info')
      .values({
        node_id: update.node_id,
        project: update.project ?? '',
        app_version: update.app_version ?? '',
        chip: update.chip ?? null,
        sha256: update.sha256 ?? null,
        last_boot: update.last_boot ?? null,
        last_seen: update.last_seen,
      })
      .onConflict((oc) => oc.column('node_id').doUpdateSet(set))
      .execute();
  }
}

/** Appends log records. */
export async function insertLogs(trx: Db, rows: Omit<DiagLogsTable, 'id'>[]): Promise<void> {
  await chunked(rows, (chunk) => trx.insertInto('diag_logs').values(chunk).execute());
}

/** Saves metric descriptions: given labels replace stored ones, bare ids get a default row. */
export async function upsertMetricMeta(
  trx: Db,
  described: DiagMetricMetaTable[],
  bare: DiagMetricMetaTable[],
): Promise<void> {
  for (const row of described)
    await trx
      .insertInto('diag_metric_meta')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['node_id', 'metric_id'])
          .doUpdateSet({ label: row.label, unit: row.unit, path: row.path }),
      )
      .execute();
  await chunked(bare, (chunk) =>
    trx
      .insertInto('diag_metric_meta')
      .values(chunk)
      .onConflict((oc) => oc.columns(['node_id', 'metric_id']).doNothing())
      .execute(),
  );
}

/** Appends metric points; a point already stored for the same second is kept. */
export async function insertMetricPoints(trx: Db, rows: DiagMetricPointsTable[]): Promise<void> {
  await chunked(rows, (chunk) =>
    trx
      .insertInto('diag_metric_points')
      .values(chunk)
      .onConflict((oc) => oc.columns(['node_id', 'metric_id', 'ts']).doNothing())
      .execute(),
  );
}

/** Saves the variables tree positions and labels. */
export async function upsertParamMeta(trx: Db, rows: DiagParamMetaTable[]): Promise<void> {
  for (const row of rows)
    await trx
      .insertInto('diag_param_meta')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['node_id', 'param_id'])
          .doUpdateSet({ label: row.label, path: row.path, position: row.position }),
      )
      .execute();
}

/** Appends variable values; the first value stored for a second is kept. */
export async function insertParamValues(trx: Db, rows: DiagParamValuesTable[]): Promise<void> {
  await chunked(rows, (chunk) =>
    trx
      .insertInto('diag_param_values')
      .values(chunk)
      .onConflict((oc) => oc.columns(['node_id', 'param_id', 'ts']).doNothing())
      .execute(),
  );
}

// ---------------------------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------------------------

/** A node's diagnostics info, or undefined when it never sent diagnostics. */
export function findNodeInfo(db: Db, nodeId: string) {
  return db
    .selectFrom('diag_node_info')
    .selectAll()
    .where('node_id', '=', nodeId)
    .executeTakeFirst();
}

const zeroCounts = (): LogCounts => ({ crash: 0, reboot: 0, error: 0, warning: 0, event: 0 });

/** Log counts by type in `[start, end)`. */
export async function countLogs(
  db: Db,
  nodeId: string,
  start: number,
  end: number,
): Promise<LogCounts> {
  const rows = await db
    .selectFrom('diag_logs')
    .select(['type', (eb) => eb.fn.countAll<number>().as('count')])
    .where('node_id', '=', nodeId)
    .where('ts', '>=', start)
    .where('ts', '<', end)
    .groupBy('type')
    .execute();
  const counts = zeroCounts();
  for (const row of rows) if (row.type in counts) counts[row.type as LogType] = Number(row.count);
  return counts;
}

/** Log counts by type per bucket of `bucketSeconds` from `start` (aligned by the caller). */
export async function countLogsByBucket(
  db: Db,
  nodeId: string,
  start: number,
  end: number,
  bucketSeconds: number,
): Promise<Map<number, LogCounts>> {
  const bucket = bucketOf(start, bucketSeconds);
  const rows = await db
    .selectFrom('diag_logs')
    .select([bucket.as('bucket'), 'type', (eb) => eb.fn.countAll<number>().as('count')])
    .where('node_id', '=', nodeId)
    .where('ts', '>=', start)
    .where('ts', '<', end)
    .groupBy([bucket, 'type'])
    .execute();
  const buckets = new Map<number, LogCounts>();
  for (const row of rows) {
    const index = Math.floor(Number(row.bucket));
    let counts = buckets.get(index);
    if (!counts) {
      counts = zeroCounts();
      buckets.set(index, counts);
    }
    if (row.type in counts) counts[row.type as LogType] += Number(row.count);
  }
  return buckets;
}

/** A keyset position in a newest-first log list: the last entry of the previous page. */
export interface LogCursor {
  ts: number;
  id: number;
}

/**
 * Up to `limit` log rows in `[start, end)`, newest first, strictly after `cursor`. The cursor is
 * one row-value comparison, `(ts, id) < (…)`: both databases use it as a bound of the
 * (node_id, ts, id) index scan. Written as `ts < … or (ts = … and id < …)`, PostgreSQL read
 * every older row of the node in the window and sorted them for each next page (B9).
 */
export function listLogs(
  db: Db,
  nodeId: string,
  start: number,
  end: number,
  cursor: LogCursor | undefined,
  limit: number,
) {
  let query = db
    .selectFrom('diag_logs')
    .selectAll()
    .where('node_id', '=', nodeId)
    .where('ts', '>=', start)
    .where('ts', '<', end);
  if (cursor)
    query = query.where((eb) => eb(eb.refTuple('ts', 'id'), '<', eb.tuple(cursor.ts, cursor.id)));
  return query.orderBy('ts', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** A node's metric descriptions, by id. */
export function listMetricMeta(db: Db, nodeId: string) {
  return db
    .selectFrom('diag_metric_meta')
    .selectAll()
    .where('node_id', '=', nodeId)
    .orderBy('metric_id')
    .execute();
}

/**
 * The points of the given metrics in `[start, end]`, averaged per bucket of `bucketSeconds` from
 * `start` (a bucket holding one point returns that point as it is), oldest first.
 */
export async function listMetricPoints(
  db: Db,
  nodeId: string,
  metricIds: string[],
  start: number,
  end: number,
  bucketSeconds: number,
): Promise<Array<{ metric_id: string; ts: number; val: number }>> {
  if (metricIds.length === 0) return [];
  const bucket = bucketOf(start, bucketSeconds);
  const rows = await db
    .selectFrom('diag_metric_points')
    .select([
      'metric_id',
      (eb) => eb.fn.min<number>('ts').as('ts'),
      (eb) => eb.fn.avg<number>('val').as('val'),
    ])
    .where('node_id', '=', nodeId)
    .where('metric_id', 'in', metricIds)
    .where('ts', '>=', start)
    .where('ts', '<=', end)
    .groupBy(['metric_id', bucket])
    .orderBy('metric_id')
    .orderBy(bucket)
    .execute();
  return rows.map((row) => ({
    metric_id: row.metric_id,
    ts: Number(row.ts),
    val: Number(row.val),
  }));
}

/** A node's variables, in tree order. */
export function listParamMeta(db: Db, nodeId: string) {
  return db
    .selectFrom('diag_param_meta')
    .selectAll()
    .where('node_id', '=', nodeId)
    .orderBy('position')
    .orderBy('param_id')
    .execute();
}

/** Up to `limit` values of one variable in `[start, end]`, newest first. */
export function listParamValues(
  db: Db,
  nodeId: string,
  paramId: string,
  start: number,
  end: number,
  limit: number,
) {
  return db
    .selectFrom('diag_param_values')
    .select(['ts', 'val'])
    .where('node_id', '=', nodeId)
    .where('param_id', '=', paramId)
    .where('ts', '>=', start)
    .where('ts', '<=', end)
    .orderBy('ts', 'desc')
    .limit(limit)
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Retention
// ---------------------------------------------------------------------------------------------

/**
 * Deletes up to `batch` rows older than `cutoff` from one time-series table; returns how many.
 * Each call is one short statement, so ingest batches interleave with a long purge.
 */
export async function purgeOlderThan(
  db: Kysely<Database>,
  table: 'diag_logs' | 'diag_metric_points' | 'diag_param_values',
  cutoff: number,
  batch: number,
): Promise<number> {
  let result;
  if (table === 'diag_logs') {
    result = await sql`delete from diag_logs where id in
        (select id from diag_logs where ts < ${cutoff} limit ${batch})`.execute(db);
  } else {
    const key = table === 'diag_metric_points' ? sql.ref('metric_id') : sql.ref('param_id');
    const t = sql.table(table);
    result = await sql`delete from ${t} where (node_id, ${key}, ts) in
        (select node_id, ${key}, ts from ${t} where ts < ${cutoff} limit ${batch})`.execute(db);
  }
  return Number(result.numAffectedRows ?? 0);
}
