import type { NodeStatus } from '@fleetdeck/contract';
import type { Kysely, Transaction } from 'kysely';
import { selectValueRows } from '../db/database.js';
import type { Database, NodeFacetCountsTable, NodesTable } from '../db/schema.js';
import { GENERIC_PLAN_MARK } from '../db/postgres-statements.js';
import { isPostgres, lockTagCounts } from '../db/dialect.js';
import { runFixedQuery } from '../db/raw-query.js';

type Db = Kysely<Database> | Transaction<Database>;

const onSqlite = (db: Db): boolean => !isPostgres<Database>(db);

/** Filters of the node lists; every one is backed by an index on (column, node_id). */
export interface NodeFilter {
  nodeId?: string | undefined;
  /** Node-id prefix. */
  search?: string | undefined;
  status?: NodeStatus | undefined;
  type?: string | undefined;
  model?: string | undefined;
  fwVersion?: string | undefined;
  /** One `key:value` tag. */
  tag?: string | undefined;
  /** Matched case-insensitively (stored lower-case). */
  city?: string | undefined;
  /** Matched case-insensitively (stored upper-case). */
  serial?: string | undefined;
  /** Only nodes claimed by this user. */
  userId?: string | undefined;
  /** Only members of this device group (a group's page, not an API filter of the node list). */
  groupId?: string | undefined;
}

/** Normalised keys stored in the indexed city and serial columns. */
export const cityKey = (city: string): string => city.trim().toLowerCase();
export const serialKey = (serial: string): string => serial.trim().toUpperCase();

/** The next string after every string that starts with `prefix` (code-point order). */
function prefixUpperBound(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

/** Conditions to join with `and` (`?` placeholders) and the values they bind, in order. */
interface SqlConditions {
  clauses: string[];
  values: unknown[];
}

/**
 * A filter as SQL. The node lists are the hottest read of the API, so their SQL is put together
 * from fixed texts (one text per filter shape, so SQLite reuses its prepared statement) and run
 * with `runFixedQuery`, instead of building and compiling a Kysely query tree on every request.
 */
function filterConditions(filter: NodeFilter, sqlite: boolean): SqlConditions {
  const clauses: string[] = [];
  const values: unknown[] = [];
  const add = (clause: string, ...bound: unknown[]) => {
    clauses.push(clause);
    values.push(...bound);
  };
  if (filter.nodeId !== undefined) add('nodes.node_id = ?', filter.nodeId);
  if (filter.search) {
    add('nodes.node_id >= ?', filter.search);
    add('nodes.node_id < ?', prefixUpperBound(filter.search));
  }
  const connected = sqlite && statusIndexIsWeaker(filter) ? '+nodes.connected' : 'nodes.connected';
  if (filter.status === 'online') add(`${connected} = 1`);
  if (filter.status === 'offline') add(`${connected} = 0`);
  if (filter.status === 'not_activated') add(`${connected} is null`);
  if (filter.type !== undefined) add('nodes.type = ?', filter.type);
  if (filter.model !== undefined) add('nodes.model = ?', filter.model);
  if (filter.fwVersion !== undefined) add('nodes.fw_version = ?', filter.fwVersion);
  if (filter.city !== undefined) add('nodes.city = ?', cityKey(filter.city));
  if (filter.serial !== undefined) add('nodes.serial = ?', serialKey(filter.serial));
  if (filter.userId !== undefined) {
    // The user's nodes: claimed (primary user) or shared with them and still in force, i.e.
    // granted by the node's current primary user under its current claim (sharing.repository).
    // One id list from two index lookups, so both databases read only the user's nodes.
    add(
      'nodes.node_id in (select p.node_id from nodes as p where p.primary_user_id = ?' +
        ' union select s.node_id from node_shares as s inner join nodes as n' +
        ' on n.node_id = s.node_id and n.primary_user_id = s.granted_by' +
        ' and n.claimed_at = s.granted_claim where s.user_id = ?)',
      filter.userId,
      filter.userId,
    );
  }
  if (filter.tag !== undefined) {
    add(
      'nodes.node_id in (select node_tags.node_id from node_tags where node_tags.tag = ?)',
      filter.tag,
    );
  }
  if (filter.groupId !== undefined) {
    add(
      'nodes.node_id in (select m.node_id from node_group_members as m where m.group_id = ?)',
      filter.groupId,
    );
  }
  return { clauses, values };
}

/**
 * Whether the filter pairs the status with a value whose own index narrows far more: a model, a
 * firmware version, a city or a serial number (a type has the (type, connected) index instead).
 * Three states split the fleet in three at best, so walking the status index reads most of the
 * fleet's online nodes to fill a page of one city, and every one of them for a serial number:
 * 680 ms per page at a million nodes. SQLite has no value statistics to see that (its sampled
 * ones cannot tell a status from a city, ADR 36), so the status is written `+nodes.connected`
 * there, which no index answers; PostgreSQL plans these combinations from its statistics.
 */
function statusIndexIsWeaker(filter: NodeFilter): boolean {
  return (
    filter.status !== undefined &&
    filter.type === undefined &&
    (filter.model !== undefined ||
      filter.fwVersion !== undefined ||
      filter.city !== undefined ||
      filter.serial !== undefined)
  );
}

/**
 * Whether a list's plan is the same whatever the filter's value and the cursor are: no condition,
 * or exactly one that an index in node-id order answers (the status, a facet, the serial, an id or
 * id prefix, one tag, one group). The page then walks that index and stops after `limit` rows.
 * With two conditions or more the best index depends on how rare each value is, and the user's
 * own-nodes filter reads a union; those are planned for their values (ADR 33).
 */
function planIsValueIndependent(filter: NodeFilter): boolean {
  const keys = setFilterKeys(filter);
  return keys.length === 0 || (keys.length === 1 && keys[0] !== 'userId');
}

/** The filter's conditions that are set, by name. */
function setFilterKeys(filter: NodeFilter): (keyof NodeFilter)[] {
  return Object.entries(filter)
    .filter(([, value]) => value !== undefined)
    .map(([key]) => key as keyof NodeFilter);
}

/** ` where a and b …`, or nothing when there is no condition. */
function whereText(clauses: readonly string[]): string {
  return clauses.length === 0 ? '' : ` where ${clauses.join(' and ')}`;
}

/** What a list shows of a node: what the NodeInfo presenter reads, never credential hashes. */
export type NodeListRow = Pick<
  NodesTable,
  | 'node_id'
  | 'name'
  | 'type'
  | 'model'
  | 'fw_version'
  | 'tags'
  | 'registered_at'
  | 'activated_at'
  | 'connected'
  | 'conn_changed_at'
  | 'config_updated_at'
  | 'last_activity_at'
  | 'primary_user_id'
  | 'params'
> & {
  /** The node's config document (from `node_configs`, ADR 26), read only with documents. */
  config: string | null;
};

/** The select list of a node list, in `ListValues` order. */
const LIST_COLUMNS = [
  'node_id',
  'name',
  'type',
  'model',
  'fw_version',
  'tags',
  'registered_at',
  'activated_at',
  'connected',
  'conn_changed_at',
  'config_updated_at',
  'last_activity_at',
  'primary_user_id',
  'config',
  'params',
] as const;

/** The values of a row read as the given columns of a list row, in that order. */
type ColumnValues<C extends readonly (keyof NodeListRow)[]> = {
  readonly [I in keyof C]: NodeListRow[C[I] & keyof NodeListRow];
};
type ListValues = ColumnValues<typeof LIST_COLUMNS>;
/** A list row that also carries a scalar read's value (`listNodesWithScalar`). */
type ScalarListValues = readonly [...ListValues, number | string | null];
const SCALAR_LIST_COLUMNS = [...LIST_COLUMNS, 'scalar_value'];

const LIST_SELECT = LIST_COLUMNS.slice(0, -2).map((column) => `nodes.${column}`);
// The config and params documents are read only when asked for: they are most of a row's bytes.
const SELECT_WITHOUT_DOCUMENTS = [...LIST_SELECT, 'null as config', 'null as params'].join(', ');
// The config document lives in its own table (ADR 26): one primary-key read per listed row.
const SELECT_WITH_DOCUMENTS = [
  ...LIST_SELECT,
  '(select c.config from node_configs as c where c.node_id = nodes.node_id) as config',
  'nodes.params',
].join(', ');

/** A row of `LIST_COLUMNS` values (and possibly more after them) as a list row. */
function toListRow(values: readonly [...ListValues, ...unknown[]]): NodeListRow {
  return {
    node_id: values[0],
    name: values[1],
    type: values[2],
    model: values[3],
    fw_version: values[4],
    tags: values[5],
    registered_at: values[6],
    activated_at: values[7],
    connected: values[8],
    conn_changed_at: values[9],
    config_updated_at: values[10],
    last_activity_at: values[11],
    primary_user_id: values[12],
    config: values[13],
    params: values[14],
  };
}

/** A fixed SQL text (`?` placeholders) with the values it binds. */
export interface SqlText {
  text: string;
  values: readonly unknown[];
}

/**
 * The SQL text and bound values of one list page (see `listNodes`). With `scalar`, a read of one
 * value, each row also carries that value in a last column.
 */
function listQuery(
  sqlite: boolean,
  filter: NodeFilter,
  startId: string | undefined,
  limit: number,
  withDocuments: boolean,
  scalar?: SqlText,
): SqlText {
  let conditions: SqlConditions;
  const membership = onlyMembership(filter);
  if (membership) {
    // Walk the (tag, node_id) or (group_id, node_id) primary key and stop after one page,
    // instead of collecting every node with the tag or in the group first.
    const { table, key, value } = membership;
    const from = startId === undefined ? '' : ` and m.node_id >= ?`;
    conditions = {
      clauses: [
        `nodes.node_id in (select m.node_id from ${table} as m where m.${key} = ?${from}` +
          ' order by m.node_id limit ?)',
      ],
      values: startId === undefined ? [value, limit + 1] : [value, startId, limit + 1],
    };
  } else {
    conditions = filterConditions(filter, sqlite);
    if (startId !== undefined) {
      conditions.clauses.push('nodes.node_id >= ?');
      conditions.values.push(startId);
    }
  }
  const select = withDocuments ? SELECT_WITH_DOCUMENTS : SELECT_WITHOUT_DOCUMENTS;
  const extra = scalar ? `, (${scalar.text}) as scalar_value` : '';
  const where = whereText(conditions.clauses);
  const mark = planIsValueIndependent(filter) ? GENERIC_PLAN_MARK : '';
  return {
    text: `${mark}select ${select}${extra} from nodes${where} order by nodes.node_id limit ?`,
    // The scalar's placeholders come first in the text: it is in the select list.
    values: [...(scalar?.values ?? []), ...conditions.values, limit + 1],
  };
}

/**
 * One keyset page ordered by node_id: rows with node_id ≥ `startId`, `limit + 1` of them so the
 * caller knows the next cursor. Never an OFFSET scan.
 */
export async function listNodes(
  db: Db,
  filter: NodeFilter,
  startId: string | undefined,
  limit: number,
  withDocuments: boolean,
): Promise<NodeListRow[]> {
  const { text, values } = listQuery(onSqlite(db), filter, startId, limit, withDocuments);
  const rows = await selectValueRows<ListValues>(db, text, values, LIST_COLUMNS);
  return rows.map(toListRow);
}

/**
 * A list page (`limit + 1` rows) with the exact total of its filter, read by the same statement
 * when the page has a row, and on its own when it has none.
 */
export async function listNodesCounted(
  db: Db,
  filter: NodeFilter,
  startId: string | undefined,
  limit: number,
  withDocuments: boolean,
): Promise<{ rows: NodeListRow[]; total: number }> {
  const page = await listNodesWithScalar(
    db,
    filter,
    startId,
    limit,
    withDocuments,
    countQuery(filter, onSqlite(db)),
  );
  const total = page.scalar === undefined ? await countNodes(db, filter) : Number(page.scalar ?? 0);
  return { rows: page.rows, total };
}

/** A list page with the value of a single-value read made by the same statement. */
export interface PageWithScalar {
  rows: NodeListRow[];
  /**
   * The scalar read's value: null when it found nothing, undefined when the page had no row to
   * carry it (the caller reads it on its own then). A string only for types neither driver reads
   * as numbers (int8 is parsed into a number, database.ts).
   */
  scalar: number | string | null | undefined;
}

/**
 * `listNodes`, with a single-value read (the page's total, or what the total depends on) made
 * in the same statement: one round trip and one snapshot instead of two. Both databases
 * evaluate an uncorrelated scalar subquery once per statement.
 */
export async function listNodesWithScalar(
  db: Db,
  filter: NodeFilter,
  startId: string | undefined,
  limit: number,
  withDocuments: boolean,
  scalar: SqlText,
): Promise<PageWithScalar> {
  const { text, values } = listQuery(onSqlite(db), filter, startId, limit, withDocuments, scalar);
  const rows = await selectValueRows<ScalarListValues>(db, text, values, SCALAR_LIST_COLUMNS);
  return { rows: rows.map(toListRow), scalar: rows[0]?.[LIST_COLUMNS.length] };
}

/** The membership table to walk when the filter is exactly one tag or one group. */
function onlyMembership(
  filter: NodeFilter,
):
  | { table: 'node_tags' | 'node_group_members'; key: 'tag' | 'group_id'; value: string }
  | undefined {
  if (setFilterKeys(filter).length !== 1) return undefined;
  if (filter.tag !== undefined) return { table: 'node_tags', key: 'tag', value: filter.tag };
  if (filter.groupId !== undefined)
    return { table: 'node_group_members', key: 'group_id', value: filter.groupId };
  return undefined;
}

/**
 * The facet count that answers a filter on exactly one of type, model, firmware version, city
 * or tag (kept exact by triggers, migration 0014); undefined for other filters.
 */
function singleFacet(
  filter: NodeFilter,
): { facet: NodeFacetCountsTable['facet']; value: string } | undefined {
  const keys = setFilterKeys(filter);
  if (keys.length !== 1) return undefined;
  const key = keys[0]!;
  const value = filter[key] as string;
  switch (key) {
    case 'type':
      return { facet: 'type', value };
    case 'model':
      return { facet: 'model', value };
    case 'fwVersion':
      return { facet: 'fw_version', value };
    case 'city':
      return { facet: 'city', value: cityKey(value) };
    case 'tag':
      return { facet: 'tag', value };
    case 'nodeId':
    case 'search':
    case 'serial':
    case 'status':
    case 'userId':
    case 'groupId':
      return undefined;
  }
}

/**
 * The read of the exact number of nodes matching the filter: a maintained counter when there is
 * one (no row when it was never written, i.e. 0), a COUNT otherwise. One row, one column `n`.
 */
export function countQuery(filter: NodeFilter, sqlite: boolean): SqlText {
  const keys = setFilterKeys(filter);
  if (keys.length === 0 || (keys.length === 1 && keys[0] === 'status')) {
    return counterQuery(filter.status ?? 'total');
  }
  if (
    keys.length === 2 &&
    filter.status !== undefined &&
    filter.type !== undefined &&
    keys.includes('type')
  ) {
    return counterQuery(stateTypeCounter(filter.status, filter.type));
  }
  const facet = singleFacet(filter);
  if (facet) {
    return {
      text: 'select n from node_facet_counts where facet = ? and value = ?',
      values: [facet.facet, facet.value],
    };
  }
  const { clauses, values } = filterConditions(filter, sqlite);
  return { text: `select count(*) as n from nodes${whereText(clauses)}`, values };
}

/** The read of one maintained counter (no row when it was never written). Column `n`. */
export function counterQuery(name: string): SqlText {
  return { text: 'select value as n from node_counters where name = ?', values: [name] };
}

/** The exact number of nodes matching the filter (from maintained counters when possible). */
export async function countNodes(db: Db, filter: NodeFilter): Promise<number> {
  const { text, values } = countQuery(filter, onSqlite(db));
  const { rows } = await runFixedQuery<{ n: number | string }>(db, text, values);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The query plan the database chooses for a filtered page, from the cursor `startId` (none: the
 * first page), with its total read in the same statement as the list reads it (tests assert that
 * indexes are used).
 */
export async function explainListNodes(
  db: Kysely<Database>,
  filter: NodeFilter,
  postgres: boolean,
  startId: string | undefined = '',
): Promise<string> {
  return explainStatement(
    db,
    listQuery(!postgres, filter, startId, 10, false, countQuery(filter, !postgres)),
    postgres,
  );
}

/** The query plan of the read of a filter's total on its own (a page with no row runs it). */
export async function explainCountNodes(
  db: Kysely<Database>,
  filter: NodeFilter,
  postgres: boolean,
): Promise<string> {
  return explainStatement(db, countQuery(filter, !postgres), postgres);
}

/** The query plan of one fixed statement, as it runs (the generic plan where it is marked so). */
async function explainStatement(
  db: Kysely<Database>,
  { text, values }: SqlText,
  postgres: boolean,
): Promise<string> {
  const lines = (rows: readonly Record<string, unknown>[]) =>
    rows.map((row) => Object.values(row).join(' ')).join('\n');
  if (postgres && text.startsWith(GENERIC_PLAN_MARK)) {
    // PostgreSQL 15 explains a statement with bound values as a custom plan; the generic plan
    // the list runs with (ADR 33) shows only through a prepared statement executed in that mode.
    // (In a transaction: SET LOCAL ends with it, and the pool's record of the mode stays true.)
    const query = text.slice(GENERIC_PLAN_MARK.length);
    await runFixedQuery(db, 'SET LOCAL plan_cache_mode = force_generic_plan', []);
    await runFixedQuery(db, `PREPARE fleetdeck_explain_list AS ${query}`, []);
    try {
      // EXECUTE's arguments inside EXPLAIN cannot be bound parameters: quoted literals, typed by
      // the prepared statement (this runs for tests, on values they choose).
      const literals = values.map((value) => `'${String(value).replace(/'/g, "''")}'`).join(', ');
      const explained = await runFixedQuery<Record<string, unknown>>(
        db,
        `EXPLAIN EXECUTE fleetdeck_explain_list(${literals})`,
        [],
      );
      return lines(explained.rows);
    } finally {
      await runFixedQuery(db, 'DEALLOCATE fleetdeck_explain_list', []);
    }
  }
  const explained = await runFixedQuery<Record<string, unknown>>(
    db,
    `${postgres ? 'EXPLAIN ' : 'EXPLAIN QUERY PLAN '}${text}`,
    values,
  );
  return lines(explained.rows);
}

/** A node by id. */
export async function findNode(db: Db, nodeId: string): Promise<NodesTable | undefined> {
  return db.selectFrom('nodes').selectAll().where('node_id', '=', nodeId).executeTakeFirst();
}

/** The stored credential hash of a node. */
export async function findNodeCredential(db: Db, nodeId: string): Promise<string | undefined> {
  // Every device connect runs this: a fixed text, not a query built each time (B2).
  const { rows } = await runFixedQuery<{ credential_hash: string }>(
    db,
    'select credential_hash from nodes where node_id = ?',
    [nodeId],
  );
  return rows[0]?.credential_hash;
}

/** Which of the given ids exist already. */
export async function existingNodeIds(db: Db, nodeIds: readonly string[]): Promise<string[]> {
  if (nodeIds.length === 0) return [];
  const rows = await db
    .selectFrom('nodes')
    .select('node_id')
    .where('node_id', 'in', [...nodeIds])
    .execute();
  return rows.map((row) => row.node_id);
}

/** Inserts nodes and their tags (call inside a transaction). */
export async function insertNodes(db: Db, nodes: readonly NodesTable[]): Promise<void> {
  for (let i = 0; i < nodes.length; i += 200) {
    const chunk = nodes.slice(i, i + 200);
    await db
      .insertInto('nodes')
      .values([...chunk])
      .execute();
    const tags = chunk.flatMap((node) =>
      uniqueTags(node).map((tag) => ({ tag, node_id: node.node_id })),
    );
    if (tags.length > 0) await db.insertInto('node_tags').values(tags).execute();
  }
}

function uniqueTags(node: Pick<NodesTable, 'tags'>): string[] {
  return [...new Set(JSON.parse(node.tags) as string[])];
}

/** Replaces a node's tags and the city/serial keys derived from them. */
export async function replaceNodeTags(
  db: Db,
  nodeId: string,
  tags: readonly string[],
  city: string | null,
  serial: string | null,
): Promise<void> {
  await db
    .updateTable('nodes')
    .set({ tags: JSON.stringify(tags), city, serial })
    .where('node_id', '=', nodeId)
    .execute();
  // Only the tags that come or go are written, and their counts are locked first, in order.
  const before = new Set(
    (await db.selectFrom('node_tags').select('tag').where('node_id', '=', nodeId).execute()).map(
      (row) => row.tag,
    ),
  );
  const after = new Set(tags);
  const removed = [...before].filter((tag) => !after.has(tag));
  const added = [...after].filter((tag) => !before.has(tag));
  await lockTagCounts(db, [...removed, ...added]);
  if (removed.length > 0)
    await db
      .deleteFrom('node_tags')
      .where('node_id', '=', nodeId)
      .where('tag', 'in', removed)
      .execute();
  if (added.length > 0)
    await db
      .insertInto('node_tags')
      .values(added.map((tag) => ({ tag, node_id: nodeId })))
      .execute();
}

/** The counter that triggers bump on every insert into or delete from `nodes` (migration 0018). */
export const ID_VERSION_COUNTER = 'id_version';

/** One maintained counter's stored value, or undefined when it was never written. */
async function readStoredCounter(db: Db, name: string): Promise<number | undefined> {
  const { text, values } = counterQuery(name);
  const { rows } = await runFixedQuery<{ n: number | string }>(db, text, values);
  return rows[0] === undefined ? undefined : Number(rows[0].n);
}

/** The version of the set of node ids, or undefined when the counter is missing. */
export function readIdVersion(db: Db): Promise<number | undefined> {
  return readStoredCounter(db, ID_VERSION_COUNTER);
}

/** Reads one maintained counter (0 when never written). */
export async function readCounter(db: Db, name: string): Promise<number> {
  return (await readStoredCounter(db, name)) ?? 0;
}

/** Adds deltas to maintained counters (inside the transaction that changed the rows). */
export async function addToCounters(
  db: Db,
  deltas: Readonly<Record<string, number>>,
): Promise<void> {
  // One statement for all of them, in name order (concurrent writers lock the rows in one order).
  const rows = Object.entries(deltas)
    .filter(([, delta]) => delta !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => ({ name, value }));
  if (rows.length === 0) return;
  await db
    .insertInto('node_counters')
    .values(rows)
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet((eb) => ({ value: eb('node_counters.value', '+', eb.ref('excluded.value')) })),
    )
    .execute();
}

/** A node's connectivity state, as the status counters name it. */
export type NodeState = 'online' | 'offline' | 'not_activated';

export const nodeState = (connected: number | null): NodeState =>
  connected === null ? 'not_activated' : connected === 1 ? 'online' : 'offline';

/**
 * The counter of nodes in one state of one type (`online|Refrigerator`): the total of a list
 * filtered by status and type, which the dashboard's status links and the type dropdown make
 * together, without counting a third of the fleet's index entries (migration 0021).
 */
export const stateTypeCounter = (state: NodeState, type: string): string => `${state}|${type}`;

/** Whether a counter is one of the state-and-type counters. */
const isStateTypeCounter = (name: string) => name.includes('|');

/** Every status counter (the totals by state, and by state and type) with its stored value. */
export async function readStatusCounters(db: Db): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('node_counters')
    .select(['name', 'value'])
    .where('name', '!=', ID_VERSION_COUNTER)
    .execute();
  return Object.fromEntries(
    rows.filter((row) => Number(row.value) !== 0).map((row) => [row.name, Number(row.value)]),
  );
}

/**
 * Recomputes every status counter from the nodes table (repair and tests). Returns the counters
 * that are not zero, as `readStatusCounters` reads them.
 */
export async function rebuildCounters(db: Db): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('nodes')
    .select(['connected', 'type', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(['connected', 'type'])
    .execute();
  const counts: Record<string, number> = { total: 0, online: 0, offline: 0, not_activated: 0 };
  for (const row of rows) {
    const state = nodeState(row.connected);
    const n = Number(row.n);
    counts[state] = (counts[state] ?? 0) + n;
    counts.total = (counts.total ?? 0) + n;
    counts[stateTypeCounter(state, row.type)] = n;
  }
  const names = await db.selectFrom('node_counters').select('name').execute();
  const stale = names.map((row) => row.name).filter(isStateTypeCounter);
  await db
    .deleteFrom('node_counters')
    .where('name', 'in', [...Object.keys(counts), ...stale])
    .execute();
  await db
    .insertInto('node_counters')
    .values(Object.entries(counts).map(([name, value]) => ({ name, value })))
    .execute();
  return Object.fromEntries(Object.entries(counts).filter(([, value]) => value !== 0));
}

/** Every node's Mosquitto credential, read in keyset chunks (for the external broker's files). */
export async function* brokerCredentials(
  db: Db,
  chunk = 5000,
): AsyncGenerator<{ nodeId: string; hash: string }> {
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('nodes')
      .select(['node_id', 'broker_credential'])
      .where('node_id', '>', after)
      .where('broker_credential', 'is not', null)
      .orderBy('node_id')
      .limit(chunk)
      .execute();
    for (const row of rows)
      if (row.broker_credential) yield { nodeId: row.node_id, hash: row.broker_credential };
    const last = rows.at(-1);
    if (!last || rows.length < chunk) return;
    after = last.node_id;
  }
}
