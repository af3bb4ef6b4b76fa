import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** One rollup row. */
export interface StatsRow {
  metric: string;
  day: number;
  value: number;
}

/** Adds deltas to the rows of one day (inside the transaction of the event). */
export async function addToDailyStats(
  db: Db,
  day: number,
  deltas: Readonly<Record<string, number>>,
): Promise<void> {
  for (const [metric, delta] of Object.entries(deltas)) {
    if (delta === 0) continue;
    await db
      .insertInto('stats_daily')
      .values({ metric, day, value: delta })
      .onConflict((oc) =>
        oc
          .columns(['metric', 'day'])
          .doUpdateSet((eb) => ({ value: eb('stats_daily.value', '+', delta) })),
      )
      .execute();
  }
}

/** Sets the value of one day (snapshots). */
export async function setDailyStat(
  db: Db,
  metric: string,
  day: number,
  value: number,
): Promise<void> {
  await db
    .insertInto('stats_daily')
    .values({ metric, day, value })
    .onConflict((oc) => oc.columns(['metric', 'day']).doUpdateSet({ value }))
    .execute();
}

/** The rows of the given metrics from `startDay` to `endDay` (inclusive): an index range scan. */
export async function readDailyStats(
  db: Db,
  metrics: readonly string[],
  startDay: number,
  endDay: number,
): Promise<StatsRow[]> {
  if (metrics.length === 0) return [];
  const rows = await db
    .selectFrom('stats_daily')
    .select(['metric', 'day', 'value'])
    .where('metric', 'in', metrics)
    .where('day', '>=', startDay)
    .where('day', '<=', endDay)
    .execute();
  return rows.map((row) => ({
    metric: row.metric,
    day: Number(row.day),
    value: Number(row.value),
  }));
}

/** Every row of the given metrics (tests and the rebuild compare whole series). */
export async function readAllDailyStats(db: Db, metrics: readonly string[]): Promise<StatsRow[]> {
  return readDailyStats(db, metrics, EARLIEST_DAY, LATEST_DAY);
}

/** Bounds of the `day` column (an integer): before and after every possible row. */
export const EARLIEST_DAY = -2_147_483_648;
export const LATEST_DAY = 2_147_483_647;

/** Sum per metric of the rows before `beforeDay` (the level at the start of a range). */
export async function sumDailyStatsBefore(
  db: Db,
  metrics: readonly string[],
  beforeDay: number,
): Promise<Map<string, number>> {
  const sums = new Map<string, number>();
  if (metrics.length === 0) return sums;
  const rows = await db
    .selectFrom('stats_daily')
    .select(['metric', (eb) => eb.fn.sum<number | string>('value').as('total')])
    .where('metric', 'in', metrics)
    .where('day', '<', beforeDay)
    .groupBy('metric')
    .execute();
  for (const row of rows) sums.set(row.metric, Number(row.total ?? 0));
  return sums;
}

/** The newest row of a metric before `beforeDay` (carry a snapshot forward), if any. */
export async function lastDailyStatBefore(
  db: Db,
  metric: string,
  beforeDay: number,
): Promise<StatsRow | undefined> {
  const row = await db
    .selectFrom('stats_daily')
    .select(['metric', 'day', 'value'])
    .where('metric', '=', metric)
    .where('day', '<', beforeDay)
    .orderBy('day', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { metric: row.metric, day: Number(row.day), value: Number(row.value) } : undefined;
}

/** Deletes every row of the given metrics (the rebuild rewrites them). */
export async function deleteDailyStats(db: Db, metrics: readonly string[]): Promise<void> {
  await db.deleteFrom('stats_daily').where('metric', 'in', metrics).execute();
}

/** Inserts rows (the rebuild), in chunks. */
export async function insertDailyStats(db: Db, rows: readonly StatsRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('stats_daily')
      .values(rows.slice(i, i + 500))
      .execute();
}

/** Integer division of epoch seconds into epoch days, the same on both dialects. */
const dayOf = (column: string) => sql<number | string>`${sql.ref(column)} / 86400`;

async function countByDay(
  query: Promise<Array<{ day: number | string; n: number | string }>>,
  metric: string,
): Promise<StatsRow[]> {
  return (await query).map((row) => ({ metric, day: Number(row.day), value: Number(row.n) }));
}

/** Users created per UTC day, recounted from `users.created_at`. */
export async function recountUsersByDay(db: Db, metric: string): Promise<StatsRow[]> {
  return countByDay(
    db
      .selectFrom('users')
      .select([dayOf('created_at').as('day'), (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(dayOf('created_at'))
      .execute(),
    metric,
  );
}

/** Nodes registered per UTC day, recounted from `nodes.registered_at`. */
export async function recountNodesByDay(db: Db, metric: string): Promise<StatsRow[]> {
  return countByDay(
    db
      .selectFrom('nodes')
      .select([dayOf('registered_at').as('day'), (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(dayOf('registered_at'))
      .execute(),
    metric,
  );
}

/** Mapping requests per UTC day of their last change, by operation and status. */
export async function recountMappingsByDay(
  db: Db,
  operation: string,
  status: string,
  metric: string,
): Promise<StatsRow[]> {
  return countByDay(
    db
      .selectFrom('user_node_mappings')
      .select([dayOf('updated_at').as('day'), (eb) => eb.fn.countAll<number>().as('n')])
      .where('operation', '=', operation)
      .where('status', '=', status)
      .groupBy(dayOf('updated_at'))
      .execute(),
    metric,
  );
}

/** The node's primary user, or null when unclaimed (undefined when the node does not exist). */
export async function primaryUserOf(db: Db, nodeId: string): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('nodes')
    .select('primary_user_id')
    .where('node_id', '=', nodeId)
    .executeTakeFirst();
  return row ? row.primary_user_id : undefined;
}

/** Whether the user holds a node other than `exceptNodeId` (index on primary_user_id). */
export async function holdsOtherNode(
  db: Db,
  userId: string,
  exceptNodeId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('nodes')
    .select('node_id')
    .where('primary_user_id', '=', userId)
    .where('node_id', '!=', exceptNodeId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The current levels, recounted from the source tables (the rebuild's reconciliation). */
export async function recountLevels(
  db: Db,
): Promise<{ users: number; usersWithNodes: number; claimedNodes: number }> {
  const users = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const claimed = await db
    .selectFrom('nodes')
    .select([
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.count<number>('primary_user_id').distinct().as('holders'),
    ])
    .where('primary_user_id', 'is not', null)
    .executeTakeFirstOrThrow();
  return {
    users: Number(users.n),
    usersWithNodes: Number(claimed.holders),
    claimedNodes: Number(claimed.n),
  };
}
