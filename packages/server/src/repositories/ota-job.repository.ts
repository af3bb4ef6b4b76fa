import { createHash } from 'node:crypto';
import { ALL_NODES_GROUP_ID, type OtaExecutionStatus } from '@fleetdeck/contract';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, OtaJobsTable } from '../db/schema.js';
import { atOrOlderThan } from './keyset.js';

export type OtaJobRow = Selectable<OtaJobsTable>;
type Db = Kysely<Database> | Transaction<Database>;

/** Execution statuses that still wait for the node. */
export const OPEN_EXECUTION_STATUSES = ['started', 'triggered', 'in-progress', 'delayed'] as const;
/** Execution statuses that may (still) be offered the image. */
export const OFFERABLE_STATUSES = ['started', 'triggered', 'delayed'] as const;
/**
 * What a node that asks (`otafetch`) is offered again: also an update it started and never
 * finished. Firmware asks only at boot, so an `in-progress` execution of a node that asks was cut
 * off (a power cycle mid-download); a node still busy ignores the offer.
 */
export const REFETCHABLE_STATUSES = [...OFFERABLE_STATUSES, 'in-progress'] as const;
type OfferableStatus = (typeof REFETCHABLE_STATUSES)[number];

/** Inserts the job and one execution per target node, set-based; returns the target count. */
export async function insertJobWithExecutions(
  trx: Transaction<Database>,
  job: OtaJobRow,
  targets: { nodes: string[]; groups: string[] },
): Promise<number> {
  await trx.insertInto('ota_jobs').values(job).execute();
  const columns = [
    'ota_job_id',
    'node_id',
    'status',
    'additional_info',
    'status_timestamp',
    'ts_source',
    'offer_count',
  ] as const;
  const constants = [
    sql<string>`cast(${job.ota_job_id} as varchar(64))`.as('ota_job_id'),
    sql<string>`'started'`.as('status'),
    sql<string>`''`.as('additional_info'),
    sql<number>`cast(${job.triggered_timestamp} as bigint)`.as('status_timestamp'),
    sql<string>`'CLOUD'`.as('ts_source'),
    sql<number>`0`.as('offer_count'),
  ];
  if (targets.groups.includes(ALL_NODES_GROUP_ID)) {
    await trx
      .insertInto('ota_executions')
      .columns(columns)
      .expression(
        trx
          .selectFrom('nodes')
          .select([
            constants[0]!,
            'node_id',
            constants[1]!,
            constants[2]!,
            constants[3]!,
            constants[4]!,
            constants[5]!,
          ]),
      )
      .execute();
  } else {
    if (targets.groups.length > 0) {
      await trx
        .insertInto('ota_executions')
        .columns(columns)
        .expression(
          trx
            .selectFrom('node_group_members')
            .where('group_id', 'in', targets.groups)
            .select([
              constants[0]!,
              'node_id',
              constants[1]!,
              constants[2]!,
              constants[3]!,
              constants[4]!,
              constants[5]!,
            ])
            .distinct(),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    for (let i = 0; i < targets.nodes.length; i += 500) {
      await trx
        .insertInto('ota_executions')
        .values(
          targets.nodes.slice(i, i + 500).map((nodeId) => ({
            ota_job_id: job.ota_job_id,
            node_id: nodeId,
            status: 'started',
            additional_info: '',
            status_timestamp: job.triggered_timestamp,
            ts_source: 'CLOUD',
            offer_count: 0,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
  const row = await trx
    .selectFrom('ota_executions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ota_job_id', '=', job.ota_job_id)
    .executeTakeFirstOrThrow();
  const total = Number(row.n);
  await trx
    .updateTable('ota_jobs')
    .set({ total_count: total })
    .where('ota_job_id', '=', job.ota_job_id)
    .execute();
  return total;
}

/** Which of the given node ids and group ids do not exist. */
export async function missingTargets(
  db: Db,
  nodes: string[],
  groups: string[],
): Promise<{ nodes: string[]; groups: string[] }> {
  const knownNodes = new Set<string>();
  for (let i = 0; i < nodes.length; i += 500) {
    const rows = await db
      .selectFrom('nodes')
      .select('node_id')
      .where('node_id', 'in', nodes.slice(i, i + 500))
      .execute();
    for (const row of rows) knownNodes.add(row.node_id);
  }
  const wantedGroups = groups.filter((id) => id !== ALL_NODES_GROUP_ID);
  const knownGroups = new Set(
    wantedGroups.length === 0
      ? []
      : (
          await db
            .selectFrom('node_groups')
            .select('group_id')
            .where('group_id', 'in', wantedGroups)
            .execute()
        ).map((row) => row.group_id),
  );
  return {
    nodes: nodes.filter((id) => !knownNodes.has(id)),
    groups: wantedGroups.filter((id) => !knownGroups.has(id)),
  };
}

/** The job created earlier by the same caller with the same idempotency key. */
export function findJobByRequestKey(db: Db, userId: string, requestKey: string) {
  return db
    .selectFrom('ota_jobs')
    .selectAll()
    .where('created_by', '=', userId)
    .where('request_key', '=', requestKey)
    .executeTakeFirst();
}

/** Filters of the job list. */
export interface JobFilter {
  archived: boolean;
  otaJobId?: string;
  nameContains?: string;
  otaImageId?: string;
  faultImage?: boolean;
}

function filteredJobs(db: Db, filter: JobFilter) {
  let query = db
    .selectFrom('ota_jobs')
    .leftJoin('ota_images', 'ota_images.ota_image_id', 'ota_jobs.ota_image_id')
    .where('ota_jobs.archived', '=', filter.archived ? 1 : 0);
  if (filter.otaJobId) query = query.where('ota_jobs.ota_job_id', '=', filter.otaJobId);
  if (filter.otaImageId) query = query.where('ota_jobs.ota_image_id', '=', filter.otaImageId);
  if (filter.faultImage !== undefined)
    query = query.where('ota_images.fault_id', filter.faultImage ? 'is not' : 'is', null);
  if (filter.nameContains) {
    const pattern = `%${filter.nameContains.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where(sql`lower(ota_jobs.ota_job_name)`, 'like', sql`${pattern} escape '\\'`);
  }
  return query;
}

/** A job with the name and fault id of its image. */
export type JobWithImage = OtaJobRow & { image_name: string | null; fault_id: string | null };

/** One page of jobs, newest first, keyset on (triggered_timestamp, ota_job_id). */
export async function listJobs(
  db: Db,
  filter: JobFilter,
  startId: string | undefined,
  limit: number,
): Promise<{ rows: JobWithImage[]; total: number; nextId?: string }> {
  let page = filteredJobs(db, filter)
    .selectAll('ota_jobs')
    .select(['ota_images.image_name', 'ota_images.fault_id']);
  if (startId) {
    const start = await db
      .selectFrom('ota_jobs')
      .select(['triggered_timestamp', 'ota_job_id'])
      .where('ota_job_id', '=', startId)
      .executeTakeFirst();
    if (!start) return { rows: [], total: 0 };
    page = page.where(
      atOrOlderThan('ota_jobs.triggered_timestamp', 'ota_jobs.ota_job_id', {
        time: Number(start.triggered_timestamp),
        id: start.ota_job_id,
      }),
    );
  }
  const rows = await page
    .orderBy('ota_jobs.triggered_timestamp', 'desc')
    .orderBy('ota_jobs.ota_job_id', 'desc')
    .limit(limit + 1)
    .execute();
  const next = rows.length > limit ? rows.pop() : undefined;
  const count = await filteredJobs(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(count.n), ...(next ? { nextId: next.ota_job_id } : {}) };
}

/** One job with its image's name, archived or not. */
export function findJob(db: Db, otaJobId: string): Promise<JobWithImage | undefined> {
  return db
    .selectFrom('ota_jobs')
    .leftJoin('ota_images', 'ota_images.ota_image_id', 'ota_jobs.ota_image_id')
    .selectAll('ota_jobs')
    .select(['ota_images.image_name', 'ota_images.fault_id'])
    .where('ota_jobs.ota_job_id', '=', otaJobId)
    .executeTakeFirst();
}

/** Executions per status for each job, counted from the execution rows (never a counter). */
export async function countByStatus(
  db: Db,
  jobIds: string[],
): Promise<Map<string, Map<string, number>>> {
  const result = new Map<string, Map<string, number>>();
  if (jobIds.length === 0) return result;
  const rows = await db
    .selectFrom('ota_executions')
    .select(['ota_job_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('ota_job_id', 'in', jobIds)
    .groupBy(['ota_job_id', 'status'])
    .execute();
  for (const row of rows) {
    let perJob = result.get(row.ota_job_id);
    if (!perJob) result.set(row.ota_job_id, (perJob = new Map<string, number>()));
    perJob.set(row.status, Number(row.n));
  }
  return result;
}

/** Cancels a job not yet cancelled: no more offers; executions not yet running become cancelled. */
export async function cancelJob(
  trx: Transaction<Database>,
  otaJobId: string,
  now: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('ota_jobs')
    .set({ status: 'cancelled', cancelled_timestamp: now })
    .where('ota_job_id', '=', otaJobId)
    .where('status', '!=', 'cancelled')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await trx
    .updateTable('ota_executions')
    .set({
      status: 'cancelled',
      status_timestamp: now,
      ts_source: 'CLOUD',
      additional_info: 'Job cancelled',
    })
    .where('ota_job_id', '=', otaJobId)
    .where('status', 'in', ['started', 'triggered', 'delayed'])
    .execute();
  return true;
}

/** Archives a cancelled job; false when it is not cancelled. */
export async function archiveJob(db: Db, otaJobId: string): Promise<boolean> {
  const result = await db
    .updateTable('ota_jobs')
    .set({ archived: 1 })
    .where('ota_job_id', '=', otaJobId)
    .where('status', '=', 'cancelled')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A keyset page of a job's executions by node id. */
export async function executionPage(
  db: Db,
  otaJobId: string,
  startId: string | undefined,
  limit: number,
) {
  let query = db
    .selectFrom('ota_executions')
    .select(['node_id', 'status', 'status_timestamp', 'additional_info', 'ts_source'])
    .where('ota_job_id', '=', otaJobId);
  if (startId) query = query.where('node_id', '>=', startId);
  const rows = await query
    .orderBy('node_id')
    .limit(limit + 1)
    .execute();
  const next = rows.length > limit ? rows.pop() : undefined;
  return { rows, ...(next ? { nextId: next.node_id } : {}) };
}

/**
 * The status history of one node in one job, newest first. Nodes report whole seconds, so reports
 * of the same second are ordered by when they were stored (`seq`), latest first.
 */
export function executionHistory(db: Db, otaJobId: string, nodeId: string) {
  return db
    .selectFrom('ota_execution_history')
    .select(['node_id', 'status', 'timestamp', 'additional_info', 'ts_source', 'received_at'])
    .where('ota_job_id', '=', otaJobId)
    .where('node_id', '=', nodeId)
    .orderBy('timestamp', 'desc')
    .orderBy('received_at', 'desc')
    .orderBy('seq', 'desc')
    .execute();
}

/** The current state of many executions at once, keyed by `<job>\n<node>`. */
export async function findExecutions(
  db: Db,
  pairs: Array<{ jobId: string; nodeId: string }>,
): Promise<
  Map<
    string,
    { status: string; status_timestamp: number; additional_info: string; ts_source: string }
  >
> {
  const found = new Map<
    string,
    { status: string; status_timestamp: number; additional_info: string; ts_source: string }
  >();
  for (let i = 0; i < pairs.length; i += 400) {
    const chunk = pairs.slice(i, i + 400);
    const rows = await db
      .selectFrom('ota_executions')
      .select([
        'ota_job_id',
        'node_id',
        'status',
        'status_timestamp',
        'additional_info',
        'ts_source',
      ])
      .where((eb) =>
        eb(
          eb.refTuple('ota_job_id', 'node_id'),
          'in',
          chunk.map((pair) => eb.tuple(pair.jobId, pair.nodeId)),
        ),
      )
      .execute();
    for (const row of rows)
      found.set(`${row.ota_job_id}\n${row.node_id}`, {
        status: row.status,
        status_timestamp: Number(row.status_timestamp),
        additional_info: row.additional_info,
        ts_source: row.ts_source,
      });
  }
  return found;
}

/** A new state of one execution. */
export interface ExecutionUpdate {
  jobId: string;
  nodeId: string;
  status: string;
  timestamp: number;
  info: string;
  source: string;
}

/** Writes many execution states in one statement per 300 rows (UPDATE … FROM a VALUES list). */
export async function updateExecutions(db: Db, updates: ExecutionUpdate[]): Promise<void> {
  for (let i = 0; i < updates.length; i += 300) {
    const values = sql.join(
      updates
        .slice(i, i + 300)
        .map(
          (u) =>
            sql`(${u.jobId}, ${u.nodeId}, ${u.status}, ${u.timestamp}, ${u.info}, ${u.source})`,
        ),
    );
    await sql`with v(j, n, s, t, i, src) as (values ${values})
      update ota_executions set status = v.s, status_timestamp = cast(v.t as bigint),
        additional_info = v.i, ts_source = v.src
      from v where ota_executions.ota_job_id = v.j and ota_executions.node_id = v.n`.execute(db);
  }
}

/** The current execution of a node in a job. */
export function findExecution(db: Db, otaJobId: string, nodeId: string) {
  return db
    .selectFrom('ota_executions')
    .selectAll()
    .where('ota_job_id', '=', otaJobId)
    .where('node_id', '=', nodeId)
    .executeTakeFirst();
}

/** What an `otaurl` offer is built from: the job and its image. */
function offerSource(db: Db) {
  return db
    .selectFrom('ota_jobs')
    .innerJoin('ota_images', 'ota_images.ota_image_id', 'ota_jobs.ota_image_id')
    .select([
      'ota_jobs.ota_job_id',
      'ota_images.ota_image_id',
      'ota_images.fw_version',
      'ota_images.type',
      'ota_images.model',
      'ota_images.file_size',
      'ota_images.file_md5',
      'ota_images.file_sha256',
      'ota_images.signature',
      'ota_images.blob_key',
      'ota_images.file_name',
    ]);
}

/** The offer of one job (for force-push dispatch). */
export function offerForJob(db: Db, otaJobId: string) {
  return offerSource(db).where('ota_jobs.ota_job_id', '=', otaJobId).executeTakeFirst();
}

/** Whether any OTA job is active (nothing to offer a connecting node otherwise). */
export async function hasActiveJob(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('ota_jobs')
    .select('ota_job_id')
    .where('status', '=', 'active')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The newest active job that still has something to offer this node, with its image: one of
 * whose executions is in `statuses` (OFFERABLE_STATUSES, or REFETCHABLE_STATUSES when it asks).
 */
export function pendingOfferForNode(
  db: Db,
  nodeId: string,
  statuses: readonly OfferableStatus[] = OFFERABLE_STATUSES,
) {
  return offerSource(db)
    .innerJoin('ota_executions', 'ota_executions.ota_job_id', 'ota_jobs.ota_job_id')
    .where('ota_executions.node_id', '=', nodeId)
    .where('ota_executions.status', 'in', [...statuses])
    .where('ota_jobs.status', '=', 'active')
    .orderBy('ota_jobs.triggered_timestamp', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The next batch of a job's not-yet-offered executions whose nodes are online, by node id. */
export async function onlineUnofferedNodes(
  db: Db,
  otaJobId: string,
  afterNodeId: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('ota_executions')
    .innerJoin('nodes', 'nodes.node_id', 'ota_executions.node_id')
    .select('ota_executions.node_id')
    .where('ota_executions.ota_job_id', '=', otaJobId)
    .where('ota_executions.status', '=', 'started')
    .where('ota_executions.node_id', '>', afterNodeId)
    .where('nodes.connected', '=', 1)
    .orderBy('ota_executions.node_id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.node_id);
}

/** Which executions an offer may be claimed for. */
export interface OfferClaim {
  /** Execution statuses that may be offered. */
  statuses: readonly OfferableStatus[];
  /**
   * Epoch ms when what asks for the offer (a connect, an `otafetch`) arrived: an execution offered
   * at or after it has been answered already, by this instance or another one.
   */
  notOfferedSince?: number;
}

/**
 * Claims offers and records them, in one conditional update per 500 nodes: of the given nodes,
 * those whose execution is in `claim.statuses` and was not offered since `claim.notOfferedSince`;
 * `started` ones become `triggered`; each is counted and kept in the history. Returns the nodes
 * claimed, the only ones to publish to: of instances claiming the same execution at once, one
 * gets it (on PostgreSQL the others wait for its commit, then find the row no longer matches).
 */
export async function claimOffers(
  trx: Transaction<Database>,
  otaJobId: string,
  nodeIds: string[],
  nowMs: number,
  claim: OfferClaim,
): Promise<string[]> {
  const now = Math.floor(nowMs / 1000);
  const claimed: string[] = [];
  for (let i = 0; i < nodeIds.length; i += 500) {
    const chunk = nodeIds.slice(i, i + 500);
    let update = trx
      .updateTable('ota_executions')
      .set((eb) => ({
        status: sql<string>`case when ${eb.ref('status')} = 'started' then 'triggered' else ${eb.ref('status')} end`,
        status_timestamp: sql<number>`case when ${eb.ref('status')} = 'started' then cast(${now} as bigint) else ${eb.ref('status_timestamp')} end`,
        offered_at: nowMs,
        offer_count: sql<number>`${eb.ref('offer_count')} + 1`,
      }))
      .where('ota_job_id', '=', otaJobId)
      .where('node_id', 'in', chunk)
      .where('status', 'in', [...claim.statuses]);
    const since = claim.notOfferedSince;
    if (since !== undefined)
      update = update.where((eb) =>
        eb.or([eb('offered_at', 'is', null), eb('offered_at', '<', since)]),
      );
    const rows = await update.returning('node_id').execute();
    const ids = rows.map((row) => row.node_id);
    claimed.push(...ids);
    await insertHistory(
      trx,
      ids.map((nodeId) => ({
        ota_job_id: otaJobId,
        node_id: nodeId,
        status: 'triggered',
        additional_info: 'Update offered to the node',
        timestamp: now,
        ts_source: 'CLOUD',
        received_at: now,
      })),
    );
  }
  return claimed;
}

/** One status history entry (before its de-duplication key is derived). */
export interface HistoryEntry {
  ota_job_id: string;
  node_id: string;
  status: OtaExecutionStatus;
  additional_info: string;
  timestamp: number;
  ts_source: string;
  received_at: number;
}

/** Appends history entries; an entry equal to a stored one (redelivery) is kept once. */
export async function insertHistory(db: Db, entries: HistoryEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map((entry) => ({
    ...entry,
    entry_key: createHash('sha256')
      .update(`${entry.status}\n${entry.timestamp}\n${entry.ts_source}\n${entry.additional_info}`)
      .digest('hex')
      .slice(0, 40),
  }));
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto('ota_execution_history')
      .values(rows.slice(i, i + 200))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** Marks active jobs finished when none of their executions is open any more. */
export async function finishCompletedJobs(
  trx: Transaction<Database>,
  jobIds: string[],
  now: number,
): Promise<string[]> {
  const finished: string[] = [];
  for (const jobId of jobIds) {
    const open = await trx
      .selectFrom('ota_executions')
      .select('node_id')
      .where('ota_job_id', '=', jobId)
      .where('status', 'in', [...OPEN_EXECUTION_STATUSES])
      .limit(1)
      .executeTakeFirst();
    if (open) continue;
    const result = await trx
      .updateTable('ota_jobs')
      .set({ status: 'finished', finished_timestamp: now })
      .where('ota_job_id', '=', jobId)
      .where('status', '=', 'active')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) finished.push(jobId);
  }
  return finished;
}
