import {
  DIAGNOSTICS_INTERVAL_BUCKETS,
  DIAGNOSTICS_LOG_PAGE_SIZE,
  INSIGHTS_PREFIX,
  LogEntrySchema,
  MESSAGES,
  SERVER_MESSAGES,
  metricListLimitForRange,
  startOfMonthSeconds,
  type DeploymentCapability,
  type EventListQuery,
  type LogByIntervalResponse,
  type LogCountResponse,
  type LogEntry,
  type LogListQuery,
  type LogListResponse,
  type LogWindowQuery,
  type MetricListQuery,
  type MetricListResponse,
  type MetricMetaResponse,
  type NodeDiagnosticsInfo,
  type ParamListQuery,
  type ParamListResponse,
  type ParamMetaResponse,
  type ParamTreeNode,
  type ParamValueScalar,
} from '@fleetdeck/contract';
import type { Kysely, Selectable } from 'kysely';
import type { Database, DiagLogsTable } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import {
  countLogs,
  countLogsByBucket,
  findNodeInfo,
  listLogs,
  listMetricMeta,
  listMetricPoints,
  listParamMeta,
  listParamValues,
  purgeOlderThan,
  type LogCursor,
} from '../../repositories/diagnostics.repository.js';

const DAY = 86_400;
const PURGE_TABLES = ['diag_logs', 'diag_metric_points', 'diag_param_values'] as const;

/** The first second of the local hour or day (`unit` 3600 or 86400) holding `ts` in `tz`. */
export function alignDown(ts: number, unit: number, tz: number): number {
  return Math.floor((ts + tz) / unit) * unit - tz;
}

/**
 * The window of a log query: Day is 24 hours from the local hour of `start` (default: today's
 * local midnight); Week and Month are 7 or 30 local days from the local midnight of `start`
 * (default: ending with today).
 */
export function logWindow(
  query: Pick<LogWindowQuery, 'time' | 'start' | 'tz'>,
  now: number,
): { start: number; end: number; bucketSeconds: number; count: number } {
  const { count, seconds } = DIAGNOSTICS_INTERVAL_BUCKETS[query.time];
  const start =
    query.start !== undefined
      ? alignDown(query.start, query.time === 'Day' ? 3600 : DAY, query.tz)
      : alignDown(now, DAY, query.tz) - (query.time === 'Day' ? 0 : (count - 1) * DAY);
  return { start, end: start + count * seconds, bucketSeconds: seconds, count };
}

function encodeCursor(cursor: LogCursor): string {
  return Buffer.from(JSON.stringify([cursor.ts, cursor.id])).toString('base64url');
}

function decodeCursor(token: string): LogCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      Number.isSafeInteger(value[0]) &&
      Number.isSafeInteger(value[1])
    )
      return { ts: Number(value[0]), id: Number(value[1]) };
  } catch {
    // fall through
  }
  throw badRequest(SERVER_MESSAGES.invalidQueryParam);
}

function toEntry(row: Selectable<DiagLogsTable>): LogEntry {
  const base = {
    id: String(row.id),
    ts: Number(row.ts),
    tag: row.tag,
    message: row.message,
    ...(row.task ? { task: row.task } : {}),
    ...(row.sha256 ? { sha256: row.sha256 } : {}),
    elf_missing: row.elf_missing === 1,
  };
  const data: unknown = row.data === null ? undefined : JSON.parse(row.data);
  // Rows were written from schema-checked input; parsing again keeps the answer honest.
  return LogEntrySchema.parse({ ...base, type: row.type, data });
}

/** Diagnostics reads (the insights API) and the retention purge. */
export class DiagnosticsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly publicUrl: string,
    private readonly retentionDays: number,
  ) {}

  /** `InsightsAPIUrl`: where this deployment serves the insights API. */
  capability(name: string): DeploymentCapability {
    return { name, value: `${this.publicUrl}${INSIGHTS_PREFIX}` };
  }

  /** The node's info; a node that never sent diagnostics answers 404 with the firmware hint. */
  async nodeInfo(nodeId: string): Promise<NodeDiagnosticsInfo> {
    const row = await this.requireDiagnostics(nodeId);
    return {
      node_id: nodeId,
      project: row.project,
      app_version: row.app_version,
      ...(row.chip ? { chip: row.chip } : {}),
      ...(row.sha256 ? { sha256: row.sha256 } : {}),
      ...(row.last_boot !== null ? { last_boot: Number(row.last_boot) } : {}),
      last_seen: Number(row.last_seen),
    };
  }

  /** Counts by log type in the query's window. */
  async logCount(query: LogWindowQuery, now = nowSeconds()): Promise<LogCountResponse> {
    await this.requireDiagnostics(query.node_id);
    const { start, end } = logWindow(query, now);
    return { ...(await countLogs(this.db, query.node_id, start, end)), start, end };
  }

  /** Counts per hourly (Day) or local-day (Week, Month) bar, every bar present. */
  async logByInterval(query: LogWindowQuery, now = nowSeconds()): Promise<LogByIntervalResponse> {
    await this.requireDiagnostics(query.node_id);
    const { start, end, bucketSeconds, count } = logWindow(query, now);
    const buckets = await countLogsByBucket(this.db, query.node_id, start, end, bucketSeconds);
    const intervals = Array.from({ length: count }, (_, i) => start + i * bucketSeconds);
    return {
      interval: query.time,
      start,
      end,
      bucket_seconds: bucketSeconds,
      intervals,
      data: intervals.map((ts, i) => ({
        ts,
        ...(buckets.get(i) ?? { crash: 0, reboot: 0, error: 0, warning: 0, event: 0 }),
      })),
    };
  }

  /** The window's log entries, newest first, one page per call. */
  async logList(query: LogListQuery, now = nowSeconds()): Promise<LogListResponse> {
    await this.requireDiagnostics(query.node_id);
    const { start, end } = logWindow(query, now);
    return this.page(query.node_id, start, end, query.page_token, DIAGNOSTICS_LOG_PAGE_SIZE);
  }

  /** `/query/event/list`: the node's entries from `from_ts` (start of month) to `to_ts` (now). */
  async eventList(query: EventListQuery, now = nowSeconds()): Promise<LogListResponse> {
    const nodeId = query.filters['Node.ID'];
    await this.requireDiagnostics(nodeId);
    const from = query.from_ts ?? startOfMonthSeconds(now);
    const to = query.to_ts ?? now;
    if (to < from) throw badRequest(SERVER_MESSAGES.invalidQueryParam);
    return this.page(nodeId, from, to + 1, query.pagetoken, query.limit);
  }

  /** The node's metrics and their labels. */
  async metricMeta(nodeId: string): Promise<MetricMetaResponse> {
    await this.requireDiagnostics(nodeId);
    const rows = await listMetricMeta(this.db, nodeId);
    return {
      metrics: rows.map((row) => ({
        id: row.metric_id,
        label: row.label,
        unit: row.unit,
        ...(row.path ? { path: row.path } : {}),
        storageType: 'Metric' as const,
      })),
    };
  }

  /** The chosen metrics' points in the range, at most `limit` per metric (see the contract). */
  async metricList(query: MetricListQuery): Promise<MetricListResponse> {
    await this.requireDiagnostics(query.node_id);
    const ceiling = metricListLimitForRange(query.start, query.end);
    const limit = Math.min(query.limit ?? ceiling, ceiling);
    const meta = (await this.metricMeta(query.node_id)).metrics;
    const chosen = query.id.length ? meta.filter((m) => query.id.includes(m.id)) : meta;
    const bucketSeconds = Math.max(1, Math.ceil((query.end - query.start + 1) / limit));
    const points = await listMetricPoints(
      this.db,
      query.node_id,
      chosen.map((m) => m.id),
      query.start,
      query.end,
      bucketSeconds,
    );
    return {
      limit,
      metrics: chosen.map((m) => ({
        ...m,
        points: points
          .filter((p) => p.metric_id === m.id)
          .slice(-limit)
          .map(({ ts, val }) => ({ ts, val })),
      })),
    };
  }

  /** The variables tree (folders and params, without values). */
  async paramMeta(nodeId: string): Promise<ParamMetaResponse> {
    await this.requireDiagnostics(nodeId);
    const rows = await listParamMeta(this.db, nodeId);
    const roots: ParamTreeNode[] = [];
    const folders = new Map<string, ParamTreeNode>();
    const folderOf = (path: string): ParamTreeNode[] => {
      if (!path) return roots;
      const existing = folders.get(path);
      if (existing) return (existing.children ??= []);
      const cut = path.lastIndexOf('/');
      const folder: ParamTreeNode = { label: path.slice(cut + 1), type: 'folder', children: [] };
      folderOf(cut < 0 ? '' : path.slice(0, cut)).push(folder);
      folders.set(path, folder);
      return folder.children ?? [];
    };
    for (const row of rows)
      folderOf(row.path).push({
        label: row.label,
        type: 'param',
        id: row.param_id,
        storageType: 'ParamValue',
      });
    return { params: roots };
  }

  /** Values of the chosen variables in the range, newest first, `limit` per variable. */
  async paramList(query: ParamListQuery): Promise<ParamListResponse> {
    await this.requireDiagnostics(query.node_id);
    const rows = await listParamMeta(this.db, query.node_id);
    const chosen = query.id.length ? rows.filter((r) => query.id.includes(r.param_id)) : rows;
    const params = [];
    for (const row of chosen) {
      const values = await listParamValues(
        this.db,
        query.node_id,
        row.param_id,
        query.start,
        query.end,
        query.limit,
      );
      params.push({
        id: row.param_id,
        label: row.label,
        ...(row.path ? { path: row.path } : {}),
        storageType: 'ParamValue' as const,
        values: {
          data: values.map((v) => ({
            val: JSON.parse(v.val) as ParamValueScalar,
            ts: Number(v.ts),
          })),
        },
      });
    }
    return { params };
  }

  /**
   * Deletes diagnostics older than the retention in batches of `batch` rows, yielding between
   * statements so ingest transactions are never held up behind one large delete.
   */
  async purgeExpired(now = nowSeconds(), batch = 1000): Promise<number> {
    const cutoff = now - this.retentionDays * DAY;
    let total = 0;
    for (const table of PURGE_TABLES) {
      for (;;) {
        const deleted = await purgeOlderThan(this.db, table, cutoff, batch);
        total += deleted;
        if (deleted < batch) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return total;
  }

  private async page(
    nodeId: string,
    start: number,
    end: number,
    token: string | undefined,
    size: number,
  ): Promise<LogListResponse> {
    const cursor = token ? decodeCursor(token) : undefined;
    const rows = await listLogs(this.db, nodeId, start, end, cursor, size + 1);
    const list = rows.slice(0, size).map(toEntry);
    const last = rows.length > size ? rows[size - 1] : undefined;
    const missingelfs = [
      ...new Set(list.filter((e) => e.elf_missing).map((e) => e.sha256 ?? 'unknown')),
    ];
    return {
      list,
      remarks: {
        missingelfs,
        ...(missingelfs.length ? { message: MESSAGES.missingElfRemark } : {}),
      },
      ...(last ? { pagetoken: encodeCursor({ ts: Number(last.ts), id: Number(last.id) }) } : {}),
    };
  }

  private async requireDiagnostics(nodeId: string) {
    const row = await findNodeInfo(this.db, nodeId);
    if (!row) throw notFound(MESSAGES.enableDiagnosticsFirmware);
    return row;
  }
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
