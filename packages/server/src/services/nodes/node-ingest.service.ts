import { randomUUID } from 'node:crypto';
import {
  MAPPING_REQUEST_TIMEOUT_SECONDS,
  NODE_TYPES,
  type AlertPayload,
  type NodeConfigPayload,
  type OtaFetchPayload,
  type OtaStatusPayload,
  type ParamsPayload,
  type UserMappingPayload,
} from '@fleetdeck/contract';
import type { Kysely, Transaction } from 'kysely';
import { lockGroupMembership } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import { refreshAutomaticMembership } from '../../repositories/group.repository.js';
import type { Logger } from '../../logger.js';
import {
  claimNode,
  confirmOpenRequest,
  discardOtherRequests,
  findOpenRequest,
  markTimedOutMappings,
  releaseNode,
} from '../../repositories/mapping.repository.js';
import { runFixedQuery } from '../../db/raw-query.js';
import { transactionWithRetry } from '../../db/transaction-retry.js';
import {
  addToCounters,
  findNode,
  nodeState,
  stateTypeCounter,
} from '../../repositories/node.repository.js';
import {
  selectNodesForIngest,
  updateNodesForIngest,
  upsertNodeConfigs,
  type IngestNodeUpdate,
} from '../../repositories/node-batch.repository.js';
import { recordFaultReadings, type FaultReading } from '../../repositories/fault.repository.js';
import { faultReadingOf } from '../faults/fault-readings.js';
import { hashNodeSecret } from './node-credentials.js';
import type { FleetActivity, NodeEvents } from './node-events.js';
import type { NodeGatewayPort } from './node-gateway.port.js';
import type { NodeService } from './node.service.js';
import { applyOtaReports, type OtaStatusReport } from '../ota/ota-status.apply.js';
import {
  applyDiagnostics,
  type DiagnosticsItem,
  type DiagnosticsReport,
} from '../diagnostics/diagnostics.apply.js';
import { recordClaim, recordRelease, recordTimedOutRequests } from '../stats/stats-events.js';

interface PendingConnectivity {
  connected: boolean;
  session: number;
  at: number;
}

/** Everything waiting to be written for one node; newer messages overwrite or merge into it. */
interface PendingNode {
  connectivity?: PendingConnectivity;
  config?: { document: NodeConfigPayload; at: number };
  /** A full document (init) replaces; partial documents merge on top. */
  params?: { document: ParamsPayload; replace: boolean; at: number };
  lastActivity: number;
}

/** A committed params change of one node: the stored document before and after, and the report. */
export interface ParamsChange {
  nodeId: string;
  before: ParamsPayload;
  after: ParamsPayload;
  /** What the batch's messages reported (merged), i.e. the params that were sent. */
  reported: ParamsPayload;
}

/**
 * Who hears about params changes after commit (node automations). `watches` runs inside the ingest
 * transaction for every node with new params, so it must be a cheap in-memory lookup.
 */
export interface ParamsWatcher {
  watches(nodeId: string): boolean;
  /** Takes the batch's changes of watched nodes; must return at once and never throw. */
  paramsCommitted(changes: ParamsChange[]): void;
}

export interface IngestOptions {
  /** Longest time a message waits before its batch is written. */
  flushIntervalMs: number;
  /**
   * How long a batch that someone waits on (a QoS 1 PUBACK, `whenDurable`) gathers more messages
   * before it is written. While a batch is being written, new messages wait for that commit and
   * then go together in the next one (group commit), so under load batches stay large.
   */
  durableDelayMs: number;
  /** A batch is written at once when this many nodes are pending. */
  maxPendingNodes: number;
}

const DEFAULT_OPTIONS: IngestOptions = {
  flushIntervalMs: 50,
  durableDelayMs: 2,
  maxPendingNodes: 2000,
};
/** Diagnostics reports waiting beyond this are dropped (counted) instead of buffered. */
const MAX_PENDING_DIAGNOSTICS = 20_000;
/**
 * After a batch failed (the database is away), the next attempt waits this long, doubling with
 * each failure in a row up to the cap; messages meanwhile only gather. Without it every message
 * past `maxPendingNodes` started another failing write and logged it (thousands a second).
 */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 5_000;
const RESET_USER_ID = 'esp-rmaker';

/** Adds one to a counter's delta (and may take one off with -1). */
const bump = (deltas: Record<string, number>, name: string, by: number) => {
  deltas[name] = (deltas[name] ?? 0) + by;
};

/** Merges a partial params document into a stored one (device → param → value). */
export function mergeParams(base: ParamsPayload, change: ParamsPayload): ParamsPayload {
  const merged: ParamsPayload = { ...base };
  for (const [device, params] of Object.entries(change))
    merged[device] = { ...(merged[device] ?? {}), ...params };
  return merged;
}

/** What one transaction of the ingest writes. */
interface BatchPart {
  batch: Map<string, PendingNode>;
  alerts: Array<{ nodeId: string; payload: AlertPayload; at: number }>;
  mappings: Array<{ nodeId: string; payload: UserMappingPayload; at: number }>;
  otaReports: OtaStatusReport[];
  diagnostics: DiagnosticsItem[];
}

/** The nodes a batch part holds anything of, in a stable order. */
function nodeIdsOf(part: BatchPart): string[] {
  const ids = new Set(part.batch.keys());
  for (const list of [part.alerts, part.mappings, part.otaReports, part.diagnostics])
    for (const item of list) ids.add(item.nodeId);
  return [...ids].sort();
}

/** The part of `part` that belongs to the nodes in `nodeIds` (or, with `inside` false, the rest). */
function partOf(part: BatchPart, nodeIds: ReadonlySet<string>, inside: boolean): BatchPart {
  const keep = (nodeId: string) => nodeIds.has(nodeId) === inside;
  return {
    batch: new Map([...part.batch].filter(([nodeId]) => keep(nodeId))),
    alerts: part.alerts.filter((item) => keep(item.nodeId)),
    mappings: part.mappings.filter((item) => keep(item.nodeId)),
    otaReports: part.otaReports.filter((item) => keep(item.nodeId)),
    diagnostics: part.diagnostics.filter((item) => keep(item.nodeId)),
  };
}

/** What a committed part of a batch changed, for the events told after the commit. */
interface CommitResult {
  changes: Array<{ node_id: string; connected: boolean; timestamp: number }>;
  ota: { changedJobs: string[]; finishedJobs: string[] };
}

const NOTHING_COMMITTED: CommitResult = { changes: [], ota: { changedJobs: [], finishedJobs: [] } };

function mergeResults(results: readonly CommitResult[]): CommitResult {
  return {
    changes: results.flatMap((result) => result.changes),
    ota: {
      changedJobs: results.flatMap((result) => result.ota.changedJobs),
      finishedJobs: results.flatMap((result) => result.ota.finishedJobs),
    },
  };
}

/**
 * A batch split by node (see commitIsolating) failed for a reason other than its data after some
 * of its parts had committed: those must not be written again (an alert would be stored twice).
 * `settled` holds the nodes whose messages are done (committed, or dropped as refused).
 */
class PartlyCommitted extends Error {
  constructor(
    readonly committed: CommitResult,
    readonly settled: ReadonlySet<string>,
    readonly failure: unknown,
  ) {
    super('part of the ingest batch committed before the rest failed', { cause: failure });
  }
}

/**
 * Whether the database refused the data rather than failed: PostgreSQL's data exceptions (class
 * 22), integrity constraint violations (23) and program limits (54); SQLite's constraint, type,
 * size and range errors. The same batch would fail again.
 */
export function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  if (/^(22|23|54)[0-9A-Z]{3}$/.test(code)) return true;
  return /^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG|RANGE)/.test(code);
}

/**
 * The gateway's way into the database. Calls return at once; per-node updates are coalesced in
 * memory and written in one transaction per batch (every `flushIntervalMs`; within
 * `durableDelayMs` when a QoS 1 acknowledgement waits, group-committed behind a running write; at
 * once when many nodes are pending), so ingest keeps up with the fleet. Connectivity is guarded by the session
 * number: a disconnect of an older connection never overrides a newer connect.
 */
/** `update nodes` texts by the list of columns set (a few fixed shapes; the names are ours). */
export class NodeIngestService implements NodeGatewayPort {
  private pending = new Map<string, PendingNode>();
  private alerts: Array<{ nodeId: string; payload: AlertPayload; at: number }> = [];
  private mappings: Array<{ nodeId: string; payload: UserMappingPayload; at: number }> = [];
  private otaReports: OtaStatusReport[] = [];
  private diagnostics: DiagnosticsItem[] = [];
  /** Diagnostics payloads refused (undecodable) or dropped (overload) since start. */
  readonly diagnosticsCounters = { accepted: 0, rejected: 0, dropped: 0 };
  /** Batches of one node's messages the database refused (see commitIsolating) since start. */
  readonly ingestCounters = { droppedNodeBatches: 0 };
  private otaFetchListener:
    | ((nodeId: string, payload: OtaFetchPayload, receivedAt: number) => void | Promise<void>)
    | undefined;
  /** Answers to `otafetch` under way (`whenAnswered`). */
  private readonly answers = new Set<Promise<void>>();
  private paramsWatcher: ParamsWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Callers of whenDurable waiting for the batch that will contain their messages. */
  private waiters: Array<() => void> = [];
  private writing = false;
  private chain: Promise<void> = Promise.resolve();
  /** When the scheduled batch write is due (epoch ms), while `timer` is set. */
  private timerDue = 0;
  /** The timer fired during a write: write the next batch as soon as that one commits. */
  private flushAfterWrite = false;
  /** Batches that failed in a row; until `retryAt` (epoch ms) only the retry timer writes. */
  private failures = 0;
  private retryAt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly options: IngestOptions;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly nodes: NodeService,
    private readonly events: NodeEvents,
    private readonly logger: Logger,
    options: Partial<IngestOptions> = {},
  ) {
    this.options = { ...DEFAULT_OPTIONS, ...options };
  }

  /** Whether the password is the node's MQTT credential. */
  authenticateNode(nodeId: string, password: string): Promise<boolean> {
    return this.nodes.authenticateNode(nodeId, password);
  }

  nodeConnected(nodeId: string, session: number, at: number): void {
    this.setConnectivity(nodeId, { connected: true, session, at });
  }

  nodeDisconnected(nodeId: string, session: number, at: number): void {
    this.setConnectivity(nodeId, { connected: false, session, at });
  }

  async sweepUnconfirmed(confirmed: ReadonlySet<string>, at: number): Promise<number> {
    let swept = 0;
    let after = '';
    for (;;) {
      // Keyset pages over the (connected, node_id) index, so a large fleet never blocks long.
      const { rows } = await runFixedQuery<{ node_id: string; conn_session: number | string }>(
        this.db,
        'select node_id, conn_session from nodes where connected = 1 and node_id > ? order by node_id limit 2000',
        [after],
      );
      for (const row of rows) {
        if (confirmed.has(row.node_id)) continue;
        this.setConnectivity(row.node_id, {
          connected: false,
          session: Number(row.conn_session),
          at,
        });
        swept += 1;
      }
      if (rows.length < 2000) break;
      after = rows[rows.length - 1]!.node_id;
    }
    return swept;
  }

  nodeConfig(nodeId: string, config: NodeConfigPayload, at: number): void {
    const entry = this.entry(nodeId, at);
    entry.config = { document: config, at };
    this.schedule();
  }

  nodeParams(nodeId: string, params: ParamsPayload, init: boolean, at: number): void {
    const entry = this.entry(nodeId, at);
    if (init || !entry.params) entry.params = { document: params, replace: init, at };
    else
      entry.params = {
        document: mergeParams(entry.params.document, params),
        replace: entry.params.replace,
        at,
      };
    this.schedule();
  }

  nodeAlert(nodeId: string, alert: AlertPayload, at: number): void {
    this.entry(nodeId, at);
    this.alerts.push({ nodeId, payload: alert, at });
    this.schedule();
  }

  nodeUserMapping(nodeId: string, mapping: UserMappingPayload, at: number): void {
    this.entry(nodeId, at);
    this.mappings.push({ nodeId, payload: mapping, at });
    this.schedule();
  }

  /** Tells `watcher` the committed params changes of the nodes it watches (automations). */
  setParamsWatcher(watcher: ParamsWatcher): void {
    this.paramsWatcher = watcher;
  }

  /**
   * Hands `otafetch` requests to the rollout engine (they need an answer, not a write), once
   * what the node sent before them is committed: a verdict on its last update (`otastatus`)
   * published just before the question must settle the execution before the answer is chosen,
   * or a node whose update just failed would be offered it again. `whenAnswered` waits for the
   * listener's promise (the answer published).
   */
  onOtaFetch(
    listener: (
      nodeId: string,
      payload: OtaFetchPayload,
      receivedAt: number,
    ) => void | Promise<void>,
  ): void {
    this.otaFetchListener = listener;
  }

  nodeOtaFetch(nodeId: string, fetch: OtaFetchPayload, at: number): void {
    this.entry(nodeId, at);
    const answered = this.whenDurable()
      .then(() => this.otaFetchListener?.(nodeId, fetch, at))
      .then(
        () => undefined,
        (error: unknown) => this.logger.error({ err: error, nodeId }, 'otafetch answer failed'),
      );
    this.answers.add(answered);
    void answered.finally(() => this.answers.delete(answered));
  }

  nodeOtaStatus(nodeId: string, status: OtaStatusPayload, at: number): void {
    this.entry(nodeId, at);
    this.otaReports.push({ nodeId, payload: status, at });
    this.schedule();
  }

  nodeDiagnostics(nodeId: string, report: DiagnosticsReport, at: number): void {
    if (this.diagnostics.length >= MAX_PENDING_DIAGNOSTICS) {
      this.diagnosticsCounters.dropped += 1;
      return;
    }
    this.entry(nodeId, at);
    this.diagnosticsCounters.accepted += 1;
    this.diagnostics.push({ nodeId, report, at });
    this.schedule();
  }

  nodeDiagnosticsRejected(nodeId: string, reason: string, _at: number): void {
    this.diagnosticsCounters.rejected += 1;
    this.logger.warn(
      { nodeId, reason, rejected: this.diagnosticsCounters.rejected },
      'diagnostics payload rejected',
    );
  }

  /** Resolves once every `otafetch` accepted so far is answered. */
  whenAnswered(): Promise<void> {
    if (this.answers.size === 0) return Promise.resolve();
    return Promise.all([...this.answers]).then(() => undefined);
  }

  /** Resolves when everything accepted so far is committed by the next scheduled batch. */
  whenDurable(): Promise<void> {
    if (!this.hasPending()) return this.writing ? this.chain : Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.schedule(this.options.durableDelayMs);
    });
  }

  /** Writes everything accepted so far; resolves when it is committed. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.chain = this.chain.then(() => this.writeBatch());
    return this.chain;
  }

  /**
   * After a restart of the embedded broker no node can still be connected: mark every online
   * node offline and reset the session counters the gateway starts again from 1.
   */
  async resetConnectivity(at: number): Promise<void> {
    await transactionWithRetry(this.db, async (trx) => {
      // Every online node of each type goes offline (read first, in the same transaction).
      const byType = await trx
        .selectFrom('nodes')
        .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
        .where('connected', '=', 1)
        .groupBy('type')
        .execute();
      const result = await trx
        .updateTable('nodes')
        .set({ connected: 0, conn_changed_at: at })
        .where('connected', '=', 1)
        .executeTakeFirst();
      const wentOffline = Number(result.numUpdatedRows);
      const typeDeltas: Record<string, number> = {};
      for (const { type, n } of byType) {
        bump(typeDeltas, stateTypeCounter('online', type), -Number(n));
        bump(typeDeltas, stateTypeCounter('offline', type), Number(n));
      }
      await trx
        .updateTable('nodes')
        .set({ conn_session: 0 })
        .where('conn_session', '!=', 0)
        .execute();
      await addToCounters(trx, { online: -wentOffline, offline: wentOffline, ...typeDeltas });
    });
  }

  private setConnectivity(nodeId: string, change: PendingConnectivity): void {
    const entry = this.entry(nodeId, change.at);
    const current = entry.connectivity;
    // Within one session the later event wins; an older session never overrides a newer one.
    if (!current || change.session >= current.session) entry.connectivity = change;
    this.schedule();
  }

  private entry(nodeId: string, at: number): PendingNode {
    let entry = this.pending.get(nodeId);
    if (!entry) {
      entry = { lastActivity: at };
      this.pending.set(nodeId, entry);
    }
    entry.lastActivity = Math.max(entry.lastActivity, at);
    return entry;
  }

  /** Writes the pending batch within `delayMs` (sooner if already due), or at once when full. */
  private schedule(delayMs = this.options.flushIntervalMs): void {
    if (this.pending.size >= this.options.maxPendingNodes) {
      this.flushUnlessWaiting();
      return;
    }
    const now = Date.now();
    if (this.timer && this.timerDue <= now) {
      // The batch is due but its timer has not run: under a flood of device messages libuv runs
      // up to 48 × 1,024 socket callbacks before timers get their turn (seconds at full load,
      // ADR 20). The message path writes it instead; this message goes with it.
      clearTimeout(this.timer);
      this.timer = undefined;
      this.writeDue();
      return;
    }
    const due = now + delayMs;
    if (this.timer && this.timerDue <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.writeDue();
    }, delayMs);
  }

  /** Writes the pending batch that is due. */
  private writeDue(): void {
    // A batch is being written: what arrived meanwhile goes right after its commit, together.
    if (this.writing) this.flushAfterWrite = true;
    else this.flushUnlessWaiting();
  }

  /** Writes now, unless a failed batch's retry is pending: then that retry takes it all. */
  private flushUnlessWaiting(): void {
    if (this.retryTimer && Date.now() < this.retryAt) return;
    void this.flush();
  }

  /** The database failed a batch: the next attempt after a wait that grows with each failure. */
  private retryLater(): void {
    this.failures += 1;
    const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (this.failures - 1));
    this.retryAt = Date.now() + delay;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.flush();
    }, delay);
    this.retryTimer.unref();
  }

  private hasPending(): boolean {
    return (
      this.pending.size > 0 ||
      this.alerts.length > 0 ||
      this.mappings.length > 0 ||
      this.otaReports.length > 0 ||
      this.diagnostics.length > 0
    );
  }

  private async writeBatch(): Promise<void> {
    if (!this.hasPending()) return;
    const batch = this.pending;
    const alerts = this.alerts;
    const mappings = this.mappings;
    const otaReports = this.otaReports;
    const diagnostics = this.diagnostics;
    const waiters = this.waiters;
    this.pending = new Map();
    this.alerts = [];
    this.mappings = [];
    this.otaReports = [];
    this.diagnostics = [];
    this.waiters = [];
    this.writing = true;
    // Node and mapping activity for push notifications, told only once the batch is committed.
    const activity: FleetActivity[] = [];
    const watched: ParamsChange[] = [];
    const whole: BatchPart = { batch, alerts, mappings, otaReports, diagnostics };
    try {
      const committed = await this.commitIsolating(whole, activity, watched);
      this.failures = 0;
      if (this.retryTimer) {
        // Written by an explicit flush (shutdown) before the retry was due: no wait any more,
        // and what gathered meanwhile goes right after this batch.
        clearTimeout(this.retryTimer);
        this.retryTimer = undefined;
        if (this.hasPending()) this.flushAfterWrite = true;
      }
      for (const resolve of waiters) resolve();
      this.announce(committed, activity, watched);
    } catch (error) {
      // What committed is told now and never written again; the rest and every waiter go back
      // in line (a waiter is told "durable" once all of its batch is).
      let rest = whole;
      if (error instanceof PartlyCommitted) {
        this.announce(error.committed, activity, watched);
        rest = partOf(whole, error.settled, false);
      }
      this.logger.error(
        {
          err: error instanceof PartlyCommitted ? error.failure : error,
          nodes: rest.batch.size,
          failures_in_a_row: this.failures + 1,
        },
        'node ingest batch failed; retrying',
      );
      this.requeue(rest.batch, rest.alerts, rest.mappings);
      this.otaReports = [...rest.otaReports, ...this.otaReports];
      this.diagnostics = [...rest.diagnostics, ...this.diagnostics];
      this.waiters = [...waiters, ...this.waiters];
      this.retryLater();
    } finally {
      this.writing = false;
      if (this.flushAfterWrite) {
        this.flushAfterWrite = false;
        if (this.hasPending()) this.flushUnlessWaiting();
      }
    }
  }

  /** Tells the fleet what a committed batch (or part of one) changed. */
  private announce(committed: CommitResult, activity: FleetActivity[], watched: ParamsChange[]) {
    for (const change of committed.changes) {
      this.events.emitConnectivity({ type: 'node.connectivity', ...change });
    }
    const finished = new Set(committed.ota.finishedJobs);
    for (const jobId of committed.ota.changedJobs)
      this.events.emitOtaJob({
        type: 'ota.job',
        ota_job_id: jobId,
        status: finished.has(jobId) ? 'finished' : 'active',
      });
    for (const event of activity) this.events.emitActivity(event);
    if (watched.length > 0) this.paramsWatcher?.paramsCommitted(watched);
  }

  /**
   * Commits one part of a batch in one transaction. A deadlock or serialization failure (another
   * instance's batch, an admin's write) runs the same part again at once in a new transaction
   * (ADR 37): the body writes only to the database, and what it tells is collected per attempt
   * and told after the commit. When the database refuses the data itself (a value it cannot
   * store, a constraint), retrying the same batch would fail for ever and hold up every node's
   * messages: the part is split by node and each half committed on its own, down to the one node
   * whose messages cannot be stored, which are dropped and logged. Any other error (the database
   * is away, or conflicts went on past the last attempt) goes up, and the whole batch is retried.
   */
  private async commitIsolating(
    part: BatchPart,
    activity: FleetActivity[],
    watched: ParamsChange[],
  ): Promise<CommitResult> {
    try {
      const committed = await transactionWithRetry(this.db, async (trx) => {
        // Fresh for each attempt: a rolled-back attempt's activity was never committed.
        const partActivity: FleetActivity[] = [];
        const partWatched: ParamsChange[] = [];
        const result: CommitResult = {
          changes: await this.apply(
            trx,
            part.batch,
            part.alerts,
            part.mappings,
            partActivity,
            partWatched,
          ),
          ota:
            part.otaReports.length > 0
              ? await applyOtaReports(trx, part.otaReports)
              : { changedJobs: [], finishedJobs: [] },
        };
        if (part.diagnostics.length > 0) await applyDiagnostics(trx, part.diagnostics);
        return { result, partActivity, partWatched };
      });
      activity.push(...committed.partActivity);
      watched.push(...committed.partWatched);
      return committed.result;
    } catch (error) {
      if (!isDataError(error)) throw error;
      const nodeIds = nodeIdsOf(part);
      if (nodeIds.length <= 1) {
        this.ingestCounters.droppedNodeBatches += 1;
        this.logger.error(
          { err: error, nodeId: nodeIds[0] },
          'node ingest: the database refuses what this node sent; its messages of this batch are dropped',
        );
        return NOTHING_COMMITTED;
      }
      const half = new Set(nodeIds.slice(0, Math.ceil(nodeIds.length / 2)));
      const results: CommitResult[] = [];
      const settled = new Set<string>();
      for (const piece of [partOf(part, half, true), partOf(part, half, false)]) {
        try {
          results.push(await this.commitIsolating(piece, activity, watched));
          for (const nodeId of nodeIdsOf(piece)) settled.add(nodeId);
        } catch (failure) {
          if (failure instanceof PartlyCommitted) {
            results.push(failure.committed);
            for (const nodeId of failure.settled) settled.add(nodeId);
          }
          if (settled.size === 0) throw failure;
          const cause = failure instanceof PartlyCommitted ? failure.failure : failure;
          throw new PartlyCommitted(mergeResults(results), settled, cause);
        }
      }
      return mergeResults(results);
    }
  }

  /** Puts a failed batch back under anything newer that arrived meanwhile. */
  private requeue(
    batch: Map<string, PendingNode>,
    alerts: typeof this.alerts,
    mappings: typeof this.mappings,
  ): void {
    for (const [nodeId, old] of batch) {
      const newer = this.pending.get(nodeId);
      if (!newer) {
        this.pending.set(nodeId, old);
        continue;
      }
      if (
        old.connectivity &&
        (!newer.connectivity || old.connectivity.session > newer.connectivity.session)
      ) {
        newer.connectivity = old.connectivity;
      }
      newer.config ??= old.config;
      if (old.params) {
        newer.params =
          newer.params && !newer.params.replace
            ? {
                ...newer.params,
                document: mergeParams(old.params.document, newer.params.document),
                replace: old.params.replace,
              }
            : (newer.params ?? old.params);
      }
    }
    this.alerts = [...alerts, ...this.alerts];
    this.mappings = [...mappings, ...this.mappings];
  }

  private async apply(
    trx: Transaction<Database>,
    batch: Map<string, PendingNode>,
    alerts: typeof this.alerts,
    mappings: typeof this.mappings,
    activity: FleetActivity[] = [],
    watched: ParamsChange[] = [],
  ): Promise<Array<{ node_id: string; connected: boolean; timestamp: number }>> {
    let withParams = false;
    for (const entry of batch.values()) if (entry.params) withParams = true;
    const current = await selectNodesForIngest(trx, [...batch.keys()], withParams);
    // Status counters: by state, and by state and type (a node moves when either changes).
    const deltas: Record<string, number> = {};
    const changed: Array<{ node_id: string; connected: boolean; timestamp: number }> = [];
    const groupRefresh: string[] = [];
    const faultReadings: FaultReading[] = [];
    const updates: Array<{ nodeId: string; update: IngestNodeUpdate }> = [];
    const configs: Array<{ nodeId: string; config: string }> = [];

    for (const [nodeId, entry] of batch) {
      const row = current.get(nodeId);
      if (!row) continue; // not registered (the gateway authenticates, so this is a race with a delete)
      const update: IngestNodeUpdate = {
        last_activity_at: Math.floor(entry.lastActivity / 1000),
      };
      const conn = entry.connectivity;
      if (conn && conn.session >= Number(row.conn_session)) {
        const next = conn.connected ? 1 : 0;
        update.conn_session = conn.session;
        if (row.connected !== next) {
          update.connected = next;
          update.conn_changed_at = conn.at;
          bump(deltas, nodeState(row.connected), -1);
          bump(deltas, nodeState(next), 1);
          changed.push({ node_id: nodeId, connected: conn.connected, timestamp: conn.at });
        }
        if (conn.connected && row.activated_at === null)
          update.activated_at = Math.floor(conn.at / 1000);
      }
      if (entry.config) {
        const info = entry.config.document.info;
        configs.push({ nodeId, config: JSON.stringify(entry.config.document) });
        update.config_updated_at = Math.floor(entry.config.at / 1000);
        if (info.name) update.name = info.name.slice(0, 256);
        const filtersChanged =
          (info.model !== undefined && info.model.slice(0, 64) !== row.model) ||
          (info.fw_version !== undefined && info.fw_version.slice(0, 64) !== row.fw_version) ||
          (info.type !== undefined &&
            info.type !== row.type &&
            (NODE_TYPES as readonly string[]).includes(info.type));
        if (filtersChanged) groupRefresh.push(nodeId);
        if (info.model) update.model = info.model.slice(0, 64);
        if (info.fw_version) update.fw_version = info.fw_version.slice(0, 64);
        if (info.type && (NODE_TYPES as readonly string[]).includes(info.type))
          update.type = info.type;
      }
      if (entry.params) {
        const stored = row.params ? (JSON.parse(row.params) as ParamsPayload) : {};
        const document = entry.params.replace
          ? entry.params.document
          : mergeParams(stored, entry.params.document);
        update.params = JSON.stringify(document);
        update.params_updated_at = Math.floor(entry.params.at / 1000);
        const fault = faultReadingOf(
          nodeId,
          update.type ?? row.type,
          entry.params,
          document,
          update.params_updated_at,
        );
        if (fault) faultReadings.push(fault);
        // Automations see the change once committed; nodes without any cost one Set lookup.
        if (this.paramsWatcher?.watches(nodeId))
          watched.push({
            nodeId,
            before: stored,
            after: document,
            reported: entry.params.document,
          });
      }
      const state = update.connected === undefined ? row.connected : update.connected;
      if (state !== row.connected || (update.type !== undefined && update.type !== row.type)) {
        bump(deltas, stateTypeCounter(nodeState(row.connected), row.type), -1);
        bump(deltas, stateTypeCounter(nodeState(state), update.type ?? row.type), 1);
      }
      updates.push({ nodeId, update });
      if (entry.config) activity.push({ kind: 'node_config_changed', node_id: nodeId });
      if (entry.params) activity.push({ kind: 'node_params_changed', node_id: nodeId });
    }
    await updateNodesForIngest(trx, updates);
    await upsertNodeConfigs(trx, configs);
    await addToCounters(trx, deltas);
    // Fault changes are kept as history in the same transaction (docs/adr/0009-fault-history.md).
    await recordFaultReadings(trx, faultReadings);
    if (groupRefresh.length > 0) {
      // Model, type or firmware changed: automatic groups follow.
      await lockGroupMembership(trx);
      await refreshAutomaticMembership(trx, groupRefresh);
    }

    const knownAlerts = alerts.filter((alert) => current.has(alert.nodeId));
    if (knownAlerts.length > 0) {
      await trx
        .insertInto('node_alerts')
        .values(
          knownAlerts.map((alert) => ({
            alert_id: randomUUID(),
            node_id: alert.nodeId,
            created_at: Math.floor(alert.at / 1000),
            payload: JSON.stringify(alert.payload),
          })),
        )
        .execute();
    }
    for (const alert of knownAlerts) {
      const text = (alert.payload as Record<string, unknown>)['esp.alert.str'];
      activity.push({
        kind: 'node_alert',
        node_id: alert.nodeId,
        message: typeof text === 'string' ? text : undefined,
      });
    }
    for (const mapping of mappings) await this.applyMapping(trx, mapping, activity);
    return changed;
  }

  /** The node confirms an open request with the matching secret, or reports a factory reset. */
  private async applyMapping(
    trx: Transaction<Database>,
    { nodeId, payload, at }: { nodeId: string; payload: UserMappingPayload; at: number },
    activity: FleetActivity[],
  ): Promise<void> {
    const now = Math.floor(at / 1000);
    if (payload.reset && payload.user_id === RESET_USER_ID) {
      const previous = (await findNode(trx, nodeId))?.primary_user_id;
      if (previous)
        activity.push({ kind: 'user_node_removed', node_id: nodeId, user_id: previous });
      await recordRelease(trx, nodeId, now);
      await releaseNode(trx, nodeId);
      await discardOtherRequests(trx, nodeId, '', now);
      return;
    }
    // A request the node confirms after its deadline stays timed out (issue 3 item 3): the
    // periodic sweep may not have run yet, so expire what is due first, counted as the sweep does.
    const expired = await markTimedOutMappings(trx, now - MAPPING_REQUEST_TIMEOUT_SECONDS, now);
    await recordTimedOutRequests(trx, expired, now);
    const request = await findOpenRequest(trx, nodeId, payload.user_id);
    if (!request || request.secret_key_hash !== hashNodeSecret(payload.secret_key)) {
      this.logger.info(
        { nodeId, userId: payload.user_id },
        'user/mapping without a matching open request',
      );
      return;
    }
    // Another instance may be confirming the same message (basic-ingest topics reach every
    // instance): only the one whose update changed the row counts the claim and tells the user.
    if (!(await confirmOpenRequest(trx, request.request_id, now))) return;
    await discardOtherRequests(trx, nodeId, request.request_id, now);
    await recordClaim(trx, nodeId, payload.user_id, now);
    await claimNode(trx, nodeId, payload.user_id, now);
    activity.push({ kind: 'user_node_added', node_id: nodeId, user_id: payload.user_id });
  }
}
