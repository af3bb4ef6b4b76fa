import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

/** Every SQL statement of the fault features: catalogues, current faults, history. */

type Db = Kysely<Database> | Transaction<Database>;

/** Rows per multi-row statement (well under SQLite's bound-parameter limit). */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** The next string after every string that starts with `prefix` (code-point order). */
function prefixUpperBound(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

// ---------------------------------------------------------------------------------------------
// common_custom_data
// ---------------------------------------------------------------------------------------------

/** One stored entry (value as JSON text), or undefined. */
export async function findCustomData(
  db: Db,
  name: string,
): Promise<{ name: string; value: string } | undefined> {
  return db
    .selectFrom('common_custom_data')
    .select(['name', 'value'])
    .where('name', '=', name)
    .executeTakeFirst();
}

/** Every stored entry by name. */
export async function listCustomData(db: Db): Promise<Array<{ name: string; value: string }>> {
  return db.selectFrom('common_custom_data').select(['name', 'value']).orderBy('name').execute();
}

/** Inserts or replaces an entry. */
export async function saveCustomData(
  db: Db,
  entry: { name: string; value: string; at: number; by: string | null },
): Promise<void> {
  await db
    .insertInto('common_custom_data')
    .values({ name: entry.name, value: entry.value, updated_at: entry.at, updated_by: entry.by })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ value: entry.value, updated_at: entry.at, updated_by: entry.by }),
    )
    .execute();
}

/** Deletes an entry; whether it existed. */
export async function deleteCustomData(db: Db, name: string): Promise<boolean> {
  const result = await db
    .deleteFrom('common_custom_data')
    .where('name', '=', name)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

// ---------------------------------------------------------------------------------------------
// Current faults and history (written by the ingest batch)
// ---------------------------------------------------------------------------------------------

/** A node's fault param as it stands after a batch: value '' = no fault. */
export interface FaultReading {
  nodeId: string;
  param: string;
  value: string;
  /** Epoch seconds. */
  at: number;
}

/**
 * Applies the batch's fault readings inside the ingest transaction: readings equal to the stored
 * current value change nothing; every real change appends one history row and updates the current
 * row (deleted on a clear). Returns how many changes were recorded.
 */
export async function recordFaultReadings(
  trx: Transaction<Database>,
  readings: readonly FaultReading[],
): Promise<number> {
  if (readings.length === 0) return 0;
  const current = new Map<string, string>();
  for (const part of chunks(readings)) {
    const rows = await trx
      .selectFrom('node_faults')
      .select(['node_id', 'param', 'value'])
      .where(
        'node_id',
        'in',
        part.map((reading) => reading.nodeId),
      )
      .execute();
    for (const row of rows) current.set(`${row.param}\u0000${row.node_id}`, row.value);
  }
  const changes = readings.filter(
    (reading) => (current.get(`${reading.param}\u0000${reading.nodeId}`) ?? '') !== reading.value,
  );
  if (changes.length === 0) return 0;
  for (const part of chunks(changes)) {
    await trx
      .insertInto('node_fault_history')
      .values(
        part.map((change) => ({
          node_id: change.nodeId,
          param: change.param,
          value: change.value,
          timestamp: change.at,
        })),
      )
      .execute();
    const raised = part.filter((change) => change.value !== '');
    if (raised.length > 0)
      await trx
        .insertInto('node_faults')
        .values(
          raised.map((change) => ({
            node_id: change.nodeId,
            param: change.param,
            value: change.value,
            since: change.at,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['param', 'node_id']).doUpdateSet((eb) => ({
            value: eb.ref('excluded.value'),
            since: eb.ref('excluded.since'),
          })),
        )
        .execute();
    for (const cleared of part.filter((change) => change.value === ''))
      await trx
        .deleteFrom('node_faults')
        .where('param', '=', cleared.param)
        .where('node_id', '=', cleared.nodeId)
        .execute();
  }
  return changes.length;
}

// ---------------------------------------------------------------------------------------------
// Insights: value list and distribution
// ---------------------------------------------------------------------------------------------

export interface ValueFilter {
  param: string;
  include: readonly string[];
  exclude: readonly string[];
}

/** One page of current values by node id (after `afterNodeId`), and the total over all pages. */
export async function listCurrentValues(
  db: Db,
  filter: ValueFilter,
  afterNodeId: string | undefined,
  limit: number,
): Promise<{ rows: Array<{ node_id: string; value: string; since: number }>; total: number }> {
  let base = db.selectFrom('node_faults').where('param', '=', filter.param);
  if (filter.include.length > 0) base = base.where('value', 'in', [...filter.include]);
  if (filter.exclude.length > 0) base = base.where('value', 'not in', [...filter.exclude]);
  let page = base.select(['node_id', 'value', 'since']).orderBy('node_id').limit(limit);
  if (afterNodeId !== undefined) page = page.where('node_id', '>', afterNodeId);
  const [rows, count] = await Promise.all([
    page.execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((row) => ({ ...row, since: Number(row.since) })),
    total: Number(count.n),
  };
}

/** How many nodes report each value of `param` (minus `exclude`), most frequent first. */
export async function countByValue(
  db: Db,
  param: string,
  exclude: readonly string[],
): Promise<Array<{ value: string; count: number }>> {
  let query = db
    .selectFrom('node_faults')
    .select((eb) => ['value', eb.fn.countAll<number | string>().as('n')])
    .where('param', '=', param)
    .groupBy('value');
  if (exclude.length > 0) query = query.where('value', 'not in', [...exclude]);
  const rows = await query.execute();
  return rows
    .map((row) => ({ value: row.value, count: Number(row.n) }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

// ---------------------------------------------------------------------------------------------
// Fault device list and breakdown
// ---------------------------------------------------------------------------------------------

export interface FaultNodeFilter {
  type: string;
  param: string;
  /** Only this reported value. */
  value?: string | undefined;
  /** Only this node. */
  nodeId?: string | undefined;
}

function faultNodesBase(db: Db, filter: FaultNodeFilter) {
  let query = db
    .selectFrom('node_faults')
    .innerJoin('nodes', 'nodes.node_id', 'node_faults.node_id')
    .where('node_faults.param', '=', filter.param)
    .where('nodes.type', '=', filter.type);
  if (filter.value !== undefined) query = query.where('node_faults.value', '=', filter.value);
  if (filter.nodeId !== undefined) query = query.where('node_faults.node_id', '=', filter.nodeId);
  return query;
}

/** A page of faulty nodes from `startId` (inclusive), one extra row to tell the next id; total. */
export async function listFaultNodes(
  db: Db,
  filter: FaultNodeFilter,
  startId: string | undefined,
  limit: number,
): Promise<{ rows: Array<{ node_id: string; value: string; since: number }>; total: number }> {
  const base = faultNodesBase(db, filter);
  let page = base
    .select(['node_faults.node_id', 'node_faults.value', 'node_faults.since'])
    .orderBy('node_faults.node_id')
    .limit(limit + 1);
  if (startId !== undefined) page = page.where('node_faults.node_id', '>=', startId);
  const [rows, count] = await Promise.all([
    page.execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((row) => ({ ...row, since: Number(row.since) })),
    total: Number(count.n),
  };
}

/** Faulty nodes counted by one column of `nodes`, largest bucket first. */
export async function countFaultNodesBy(
  db: Db,
  filter: FaultNodeFilter,
  column: 'fw_version' | 'model',
): Promise<Array<{ value: string; count: number }>> {
  const rows = await faultNodesBase(db, filter)
    .select((eb) => [
      eb.ref(`nodes.${column}`).as('value'),
      eb.fn.countAll<number | string>().as('n'),
    ])
    .groupBy(`nodes.${column}`)
    .execute();
  const buckets = new Map<string, number>();
  for (const row of rows) {
    const value = row.value ?? '';
    buckets.set(value, (buckets.get(value) ?? 0) + Number(row.n));
  }
  return [...buckets]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

/**
 * Faulty nodes counted by city key (null as ''), largest bucket first, each with the tags of one
 * of its nodes (the smallest tag list) so the service can show the city as the tags spell it.
 */
export async function countFaultNodesByCity(
  db: Db,
  filter: FaultNodeFilter,
): Promise<Array<{ value: string; count: number; sampleTags: string | null }>> {
  const rows = await faultNodesBase(db, filter)
    .select((eb) => [
      'nodes.city as value',
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.min('nodes.tags').as('sample_tags'),
    ])
    .groupBy('nodes.city')
    .execute();
  const buckets = new Map<string, { count: number; sampleTags: string | null }>();
  for (const row of rows) {
    const value = row.value ?? '';
    const bucket = buckets.get(value);
    buckets.set(value, {
      count: (bucket?.count ?? 0) + Number(row.n),
      sampleTags: bucket?.sampleTags ?? row.sample_tags,
    });
  }
  return [...buckets]
    .map(([value, bucket]) => ({ value, ...bucket }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

// ---------------------------------------------------------------------------------------------
// History
// ---------------------------------------------------------------------------------------------

export interface HistoryNodeFilter {
  nodeId?: string | undefined;
  prefix?: string | undefined;
}

/** Nodes with any fault history from `startId` (inclusive), limit + 1 rows; and the total. */
export async function listHistoryNodes(
  db: Db,
  filter: HistoryNodeFilter,
  startId: string | undefined,
  limit: number,
): Promise<{ nodeIds: string[]; total: number }> {
  let base = db.selectFrom('node_fault_history');
  if (filter.nodeId !== undefined) base = base.where('node_id', '=', filter.nodeId);
  if (filter.prefix !== undefined)
    base = base
      .where('node_id', '>=', filter.prefix)
      .where('node_id', '<', prefixUpperBound(filter.prefix));
  let page = base
    .select('node_id')
    .distinct()
    .orderBy('node_id')
    .limit(limit + 1);
  if (startId !== undefined) page = page.where('node_id', '>=', startId);
  const [rows, count] = await Promise.all([
    page.execute(),
    base
      .select((eb) => eb.fn.count<number | string>('node_id').distinct().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { nodeIds: rows.map((row) => row.node_id), total: Number(count.n) };
}

/** The nodes' facts for the history view. */
export async function nodeFacts(
  db: Db,
  nodeIds: readonly string[],
): Promise<
  Array<{
    node_id: string;
    type: string;
    model: string;
    fw_version: string;
    city: string | null;
    tags: string;
  }>
> {
  if (nodeIds.length === 0) return [];
  return db
    .selectFrom('nodes')
    .select(['node_id', 'type', 'model', 'fw_version', 'city', 'tags'])
    .where('node_id', 'in', [...nodeIds])
    .execute();
}

/** The nodes' current faults. */
export async function currentFaultsOf(
  db: Db,
  nodeIds: readonly string[],
): Promise<Array<{ node_id: string; param: string; value: string; since: number }>> {
  if (nodeIds.length === 0) return [];
  const rows = await db
    .selectFrom('node_faults')
    .select(['node_id', 'param', 'value', 'since'])
    .where('node_id', 'in', [...nodeIds])
    .execute();
  return rows.map((row) => ({ ...row, since: Number(row.since) }));
}

/** The latest `perNode` changes of each node, newest first. */
export async function latestChangesOf(
  db: Db,
  nodeIds: readonly string[],
  perNode: number,
): Promise<Map<string, Array<{ value: string; timestamp: number }>>> {
  const result = new Map<string, Array<{ value: string; timestamp: number }>>();
  // One indexed, bounded read per node (a page holds at most a few dozen nodes).
  for (const nodeId of nodeIds) {
    const rows = await db
      .selectFrom('node_fault_history')
      .select(['value', 'timestamp'])
      .where('node_id', '=', nodeId)
      .orderBy('id', 'desc')
      .limit(perNode)
      .execute();
    result.set(
      nodeId,
      rows.map((row) => ({ value: row.value, timestamp: Number(row.timestamp) })),
    );
  }
  return result;
}
