import { z } from 'zod';
import {
  DIAGNOSTICS_INTERVALS,
  DIAGNOSTICS_MONTH_WINDOW_DAYS,
  DIAGNOSTICS_WEEK_WINDOW_DAYS,
  EVENT_LIST_PAGE_SIZE,
  LOG_TYPES,
  METRIC_LIST_DEFAULT_LIMIT,
  METRIC_LIST_LIMITS_BY_RANGE_DAYS,
  PARAM_LIST_LIMIT,
} from '../constants.js';
import { SERVER_MESSAGES } from '../errors.js';
import { NodeIdSchema } from './nodes.js';

/**
 * Device diagnostics (access §2 Diagnostics, §3, §4, §7 "Diagnostics (a separate insights API)",
 * §8, §9; rainmaker-contract B.8 ESP Insights): what a node sends on
 * `node/<id>/diagnostics/from-node` in its JSON form, and every insights call with its answer.
 *
 * Conventions: timestamps are 10-digit epoch **seconds**; `tz` is the viewer's offset from UTC
 * in seconds, east positive (IST = 19800; in a browser `-new Date().getTimezoneOffset() * 60`),
 * and decides where local days (and hours) begin. Page tokens are opaque strings.
 */
export const DIAGNOSTICS_PATHS = {
  /** `{name: 'InsightsAPIUrl', value: '<public URL>/insights/v1'}` (nodes.read). */
  deploymentCapabilities: '/v1/admin/deployment_capabilities',
  nodeInfo: '/insights/v1/node/info',
  logCount: '/insights/v1/node/log/count',
  logByIntervalCount: '/insights/v1/node/log/byinterval/count',
  logList: '/insights/v1/node/log/list',
  metricMeta: '/insights/v1/node/metric/meta',
  metricList: '/insights/v1/node/metric/list',
  paramMeta: '/insights/v1/node/param/meta',
  paramList: '/insights/v1/node/param/list',
  eventList: '/insights/v1/query/event/list',
} as const;

/** The deployment capability that names the insights API base. */
export const INSIGHTS_API_URL_CAPABILITY = 'InsightsAPIUrl';
/** Log entries per page of `/node/log/list`. */
export const DIAGNOSTICS_LOG_PAGE_SIZE = 20;
/** The largest page `/query/event/list` serves. */
export const EVENT_LIST_MAX_LIMIT = 100;
/** Most metric or param ids one list call may name. */
export const DIAGNOSTICS_MAX_IDS = 20;
/** The largest metric list limit (the 24-day range). */
export const METRIC_LIST_MAX_LIMIT = Math.max(...Object.values(METRIC_LIST_LIMITS_BY_RANGE_DAYS));
/** Most seconds of the metric and param list ranges (the largest metric range). */
export const DIAGNOSTICS_MAX_RANGE_SECONDS = 31 * 86_400;
/** Offsets in the world run from UTC−12 to UTC+14. */
export const TZ_OFFSET_MIN_SECONDS = -12 * 3600;
export const TZ_OFFSET_MAX_SECONDS = 14 * 3600;
/** ESP Insights binary frame kinds (B.8): byte 0 of a frame. */
export const INSIGHTS_FRAME_KIND = { data: 0x02, metadata: 0x03, config: 0x12 } as const;

export const LogTypeSchema = z.enum(LOG_TYPES);
export type LogType = z.infer<typeof LogTypeSchema>;
export const DiagnosticsIntervalSchema = z.enum(DIAGNOSTICS_INTERVALS);
export type DiagnosticsInterval = z.infer<typeof DiagnosticsIntervalSchema>;

/** Buckets of the timeline: Day = 24 hourly bars, Week = 7 daily, Month = 30 daily. */
export const DIAGNOSTICS_INTERVAL_BUCKETS: Record<
  DiagnosticsInterval,
  { count: number; seconds: number }
> = {
  Day: { count: 24, seconds: 3600 },
  Week: { count: DIAGNOSTICS_WEEK_WINDOW_DAYS, seconds: 86_400 },
  Month: { count: DIAGNOSTICS_MONTH_WINDOW_DAYS, seconds: 86_400 },
};

/**
 * The metric list limit for a range (access §9): 150, or 200 from a 1-day range, 1000 from 6
 * days, 1400 from 24 days. Also the most points per metric the server returns for that range.
 */
export function metricListLimitForRange(startSeconds: number, endSeconds: number): number {
  const days = (endSeconds - startSeconds) / 86_400;
  let limit: number = METRIC_LIST_DEFAULT_LIMIT;
  for (const [threshold, value] of Object.entries(METRIC_LIST_LIMITS_BY_RANGE_DAYS))
    if (days >= Number(threshold)) limit = Math.max(limit, value);
  return limit;
}

// ---------------------------------------------------------------------------------------------
// Payloads: what a node sends (JSON form) and what the API returns
// ---------------------------------------------------------------------------------------------

/** 10-digit epoch seconds. */
export const EpochSecondsSchema = z
  .number({ error: 'ts must be a number' })
  .int({ error: 'ts must be epoch seconds' })
  .min(1_000_000_000, { error: 'ts must be 10-digit epoch seconds' })
  .max(9_999_999_999, { error: 'ts must be 10-digit epoch seconds' });

const shortText = (max: number) => z.string().max(max);

/** One backtrace frame; method, file and line are absent when the firmware ELF is unknown. */
export const BacktraceFrameSchema = z.object({
  /** `0x…` hex. */
  address: shortText(20),
  method: shortText(128).optional(),
  file: shortText(256).optional(),
  line: z.number().int().min(0).optional(),
});
export type BacktraceFrame = z.infer<typeof BacktraceFrameSchema>;

/** The data of a crash log: the core-dump summary (B.8 `crash`). */
export const CrashDataSchema = z.object({
  prev_app_version: shortText(64).optional(),
  /** Program counter, `0x…`. */
  pc: shortText(20),
  /** Register name → `0x…` value (Xtensa a0…a15 or RISC-V ra, sp, a0…a7, mstatus, …). */
  registers: z.record(shortText(16), shortText(20)).default({}),
  /** Exception cause, e.g. `LoadProhibited (28)` or `Load access fault (5)`. */
  cause: shortText(64),
  /** The faulting virtual address (EXCVADDR / mtval), `0x…`. */
  vaddr: shortText(20).optional(),
  task: shortText(32).optional(),
  backtrace: z.array(BacktraceFrameSchema).max(64).default([]),
  /** The firmware marked the backtrace as corrupted (it may end early or hold garbage). */
  corrupted: z.boolean().default(false),
});
export type CrashData = z.infer<typeof CrashDataSchema>;

/** The data of a reboot log: the ESP-IDF reset reason (B.8 `boot`). */
export const RebootDataSchema = z.object({
  /** `esp_reset_reason_t` number. */
  reason: z.number().int().min(0).max(255),
  /** Its name, e.g. `ESP_RST_PANIC`. */
  reset_reason: shortText(48),
  app_version: shortText(64).optional(),
  chip: shortText(32).optional(),
});
export type RebootData = z.infer<typeof RebootDataSchema>;

/** The names of `esp_reset_reason_t` (ESP-IDF), by number. */
export const ESP_RESET_REASONS: readonly string[] = [
  'ESP_RST_UNKNOWN',
  'ESP_RST_POWERON',
  'ESP_RST_EXT',
  'ESP_RST_SW',
  'ESP_RST_PANIC',
  'ESP_RST_INT_WDT',
  'ESP_RST_TASK_WDT',
  'ESP_RST_WDT',
  'ESP_RST_DEEPSLEEP',
  'ESP_RST_BROWNOUT',
  'ESP_RST_SDIO',
  'ESP_RST_USB',
  'ESP_RST_JTAG',
  'ESP_RST_EFUSE',
  'ESP_RST_PWR_GLITCH',
  'ESP_RST_CPU_LOCKUP',
];

/** Free-form data of an error, warning or event (tag arguments). */
const OtherLogDataSchema = z.record(z.string(), z.unknown());

const logBase = {
  ts: EpochSecondsSchema,
  /** The log tag (ESP_LOG tag or event tag), e.g. `wifi`, `compressor`. */
  tag: shortText(64).default(''),
  message: shortText(1024).default(''),
  task: shortText(32).optional(),
};

/** One log record a node sends (JSON form); `data` depends on `type`. */
export const DiagnosticsLogInputSchema = z.discriminatedUnion('type', [
  z.object({ ...logBase, type: z.literal('crash'), data: CrashDataSchema }),
  z.object({ ...logBase, type: z.literal('reboot'), data: RebootDataSchema }),
  z.object({
    ...logBase,
    type: z.enum(['error', 'warning', 'event']),
    data: OtherLogDataSchema.optional(),
  }),
]);
export type DiagnosticsLogInput = z.infer<typeof DiagnosticsLogInputSchema>;

/** One point of a metric series. */
export const MetricPointSchema = z.object({ ts: EpochSecondsSchema, val: z.number() });
export type MetricPoint = z.infer<typeof MetricPointSchema>;

/** A metric id: `tag.key` (`heap.free`, `wifi.rssi`, `compressor.current`). */
export const DiagnosticsIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.:-]+$/, { error: SERVER_MESSAGES.invalidQueryParam });

/** One metric a node sends: its points (and, on first use, its label and unit). */
export const DiagnosticsMetricInputSchema = z.object({
  id: DiagnosticsIdSchema,
  label: shortText(64).optional(),
  unit: shortText(16).optional(),
  /** Grouping path, e.g. `heap.internal`, `Wi-Fi.Station`. */
  path: shortText(64).optional(),
  points: z.array(MetricPointSchema).max(1000),
});
export type DiagnosticsMetricInput = z.infer<typeof DiagnosticsMetricInputSchema>;

/** A variable (param) value. */
export const ParamValueScalarSchema = z.union([z.string().max(256), z.number(), z.boolean()]);
export type ParamValueScalar = z.infer<typeof ParamValueScalarSchema>;
export const ParamValuePointSchema = z.object({
  val: ParamValueScalarSchema,
  ts: EpochSecondsSchema,
});
export type ParamValuePoint = z.infer<typeof ParamValuePointSchema>;

/**
 * A node of the variables tree (access §3): folders hold children; params carry an `id` and,
 * in what a node sends and in `/node/param/list`, `values.data` (newest first, so `data[0]` is
 * the current value).
 */
export interface ParamTreeNode {
  label: string;
  type: 'folder' | 'param';
  id?: string | undefined;
  storageType?: 'ParamValue' | undefined;
  children?: ParamTreeNode[] | undefined;
  values?: { data: ParamValuePoint[] } | undefined;
}
export const ParamTreeNodeSchema: z.ZodType<ParamTreeNode> = z.lazy(() =>
  z.object({
    label: shortText(64),
    type: z.enum(['folder', 'param']),
    id: DiagnosticsIdSchema.optional(),
    storageType: z.literal('ParamValue').optional(),
    children: z.array(ParamTreeNodeSchema).max(100).optional(),
    values: z.object({ data: z.array(ParamValuePointSchema).max(100) }).optional(),
  }),
);

/** What the node reports about itself (from the JSON `info` or the binary `boot` record). */
export const DiagnosticsNodeInfoInputSchema = z.object({
  project: shortText(64).optional(),
  app_version: shortText(64).optional(),
  chip: shortText(32).optional(),
  /** SHA-256 (hex) of the firmware ELF the records belong to. */
  sha256: shortText(64).optional(),
});
export type DiagnosticsNodeInfoInput = z.infer<typeof DiagnosticsNodeInfoInputSchema>;

/**
 * The JSON form of a `diagnostics/from-node` message (the binary ESP Insights frame is decoded
 * into the same shape by the server). Every part is optional; at least one should be present.
 */
export const DiagnosticsMessageSchema = z.object({
  info: DiagnosticsNodeInfoInputSchema.optional(),
  logs: z.array(DiagnosticsLogInputSchema).max(500).optional(),
  metrics: z.array(DiagnosticsMetricInputSchema).max(100).optional(),
  variables: z.array(ParamTreeNodeSchema).max(100).optional(),
});
export type DiagnosticsMessage = z.infer<typeof DiagnosticsMessageSchema>;

// ---------------------------------------------------------------------------------------------
// Query helpers
// ---------------------------------------------------------------------------------------------

const invalid = { error: SERVER_MESSAGES.invalidQueryParam };

const epochParam = z.coerce
  .number(invalid)
  .int(invalid)
  .min(1_000_000_000, invalid)
  .max(9_999_999_999, invalid);

const tzParam = z.coerce
  .number(invalid)
  .int(invalid)
  .min(TZ_OFFSET_MIN_SECONDS, invalid)
  .max(TZ_OFFSET_MAX_SECONDS, invalid)
  .default(0);

/** `Day`, `Week` or `Month` (any case); default Month. */
const intervalParam = z
  .string()
  .trim()
  .default('Month')
  .transform((raw) => raw.charAt(0).toUpperCase() + raw.slice(1).toLowerCase())
  .pipe(DiagnosticsIntervalSchema);

const pageTokenParam = z.string().trim().max(512, invalid).optional();

/** `id` repeated (or comma-separated). */
const idListParam = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((raw) =>
    (raw === undefined ? [] : Array.isArray(raw) ? raw : [raw])
      .flatMap((part) => part.split(','))
      .map((part) => part.trim())
      .filter((part) => part.length > 0),
  )
  .pipe(z.array(DiagnosticsIdSchema).max(DIAGNOSTICS_MAX_IDS, invalid));

const rangeRefinement = (query: { start: number; end: number }) =>
  query.end > query.start && query.end - query.start <= DIAGNOSTICS_MAX_RANGE_SECONDS;

// ---------------------------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------------------------

/** GET /v1/admin/deployment_capabilities?name=InsightsAPIUrl. */
export const DeploymentCapabilityQuerySchema = z.object({
  name: z.literal(INSIGHTS_API_URL_CAPABILITY, invalid),
});
export type DeploymentCapabilityQuery = z.infer<typeof DeploymentCapabilityQuerySchema>;
export const DeploymentCapabilitySchema = z.object({ name: z.string(), value: z.string() });
export type DeploymentCapability = z.infer<typeof DeploymentCapabilitySchema>;

/** GET /node/info?node_id → what the node last said about itself. */
export const NodeDiagnosticsInfoSchema = z.object({
  node_id: z.string(),
  project: z.string(),
  app_version: z.string(),
  chip: z.string().optional(),
  sha256: z.string().optional(),
  /** The latest reboot (epoch seconds), when one was reported. */
  last_boot: z.number().int().optional(),
  /** When diagnostics last arrived. */
  last_seen: z.number().int(),
});
export type NodeDiagnosticsInfo = z.infer<typeof NodeDiagnosticsInfoSchema>;

/**
 * GET /node/log/count and /node/log/byinterval/count: `time` is the interval (Day, Week, Month;
 * default Month); `start` the window's first second — rounded down to the local hour (Day) or
 * local midnight (Week, Month) in `tz`. Without `start` the window is the local day of now
 * (Day) or ends with the local day of now (Week: 7 days, Month: 30 days).
 */
export const LogWindowQuerySchema = z.object({
  node_id: NodeIdSchema,
  time: intervalParam,
  start: epochParam.optional(),
  tz: tzParam,
});
export type LogWindowQuery = z.infer<typeof LogWindowQuerySchema>;

/** Counts of each log type. */
export const LogCountsSchema = z.object({
  crash: z.number().int(),
  reboot: z.number().int(),
  error: z.number().int(),
  warning: z.number().int(),
  event: z.number().int(),
});
export type LogCounts = z.infer<typeof LogCountsSchema>;

/** `/node/log/count` answer: the counts in the window `[start, end)`. */
export const LogCountResponseSchema = LogCountsSchema.extend({
  start: z.number().int(),
  end: z.number().int(),
});
export type LogCountResponse = z.infer<typeof LogCountResponseSchema>;

/**
 * `/node/log/byinterval/count` answer: `intervals[i]` is the first second of bar i (hourly for
 * Day, local-midnight days for Week and Month) and `data[i]` its counts; bars run oldest first
 * and every bar is present (zeros included).
 */
export const LogByIntervalResponseSchema = z.object({
  interval: DiagnosticsIntervalSchema,
  start: z.number().int(),
  end: z.number().int(),
  /** Seconds per bar (3600 or 86400). */
  bucket_seconds: z.number().int(),
  intervals: z.array(z.number().int()),
  data: z.array(LogCountsSchema.extend({ ts: z.number().int() })),
});
export type LogByIntervalResponse = z.infer<typeof LogByIntervalResponseSchema>;

/** GET /node/log/list: the window of `/node/log/count`, newest first, paged by `page_token`. */
export const LogListQuerySchema = LogWindowQuerySchema.extend({ page_token: pageTokenParam });
export type LogListQuery = z.infer<typeof LogListQuerySchema>;

const logEntryBase = {
  /** Stable id of the entry. */
  id: z.string(),
  ts: z.number().int(),
  tag: z.string(),
  message: z.string(),
  task: z.string().optional(),
  /** SHA-256 of the firmware ELF the entry belongs to, when known. */
  sha256: z.string().optional(),
  /**
   * The entry came with raw addresses only and no firmware image resolves them; show
   * MESSAGES.firmwareImageMissingForLog beside it.
   */
  elf_missing: z.boolean(),
};

/** One log entry of the list: time, type, message and its data. */
export const LogEntrySchema = z.discriminatedUnion('type', [
  z.object({ ...logEntryBase, type: z.literal('crash'), data: CrashDataSchema }),
  z.object({ ...logEntryBase, type: z.literal('reboot'), data: RebootDataSchema }),
  z.object({
    ...logEntryBase,
    type: z.enum(['error', 'warning', 'event']),
    data: OtherLogDataSchema.optional(),
  }),
]);
export type LogEntry = z.infer<typeof LogEntrySchema>;

/** Remarks of a log page: `missingelfs` lists the firmware SHA-256s no ELF was found for. */
export const LogRemarksSchema = z.object({
  missingelfs: z.array(z.string()),
  /** MESSAGES.missingElfRemark when `missingelfs` is not empty. */
  message: z.string().optional(),
});
export type LogRemarks = z.infer<typeof LogRemarksSchema>;

/** `{list, remarks, pagetoken}`; `pagetoken` is absent on the last page. */
export const LogListResponseSchema = z.object({
  list: z.array(LogEntrySchema),
  remarks: LogRemarksSchema,
  pagetoken: z.string().optional(),
});
export type LogListResponse = z.infer<typeof LogListResponseSchema>;

/** A metric's description. */
export const MetricMetaSchema = z.object({
  id: z.string(),
  label: z.string(),
  unit: z.string(),
  path: z.string().optional(),
  storageType: z.literal('Metric'),
});
export type MetricMeta = z.infer<typeof MetricMetaSchema>;

/** GET /node/metric/meta?node_id → the node's metrics, by id. */
export const MetricMetaResponseSchema = z.object({ metrics: z.array(MetricMetaSchema) });
export type MetricMetaResponse = z.infer<typeof MetricMetaResponseSchema>;

/**
 * GET /node/metric/list?node_id&start&end&limit&tz&id (id repeated; none = every metric). At most
 * `limit` points per metric: the default and the ceiling are metricListLimitForRange(start, end);
 * a range holding more points is averaged over equal time buckets.
 */
export const MetricListQuerySchema = z
  .object({
    node_id: NodeIdSchema,
    start: epochParam,
    end: epochParam,
    limit: z.coerce.number(invalid).int(invalid).min(1, invalid).optional(),
    tz: tzParam,
    id: idListParam,
  })
  .refine(rangeRefinement, invalid);
export type MetricListQuery = z.infer<typeof MetricListQuerySchema>;

/** A metric with its points, oldest first. */
export const MetricSeriesSchema = MetricMetaSchema.extend({ points: z.array(MetricPointSchema) });
export type MetricSeries = z.infer<typeof MetricSeriesSchema>;
export const MetricListResponseSchema = z.object({
  /** The limit applied per metric. */
  limit: z.number().int(),
  metrics: z.array(MetricSeriesSchema),
});
export type MetricListResponse = z.infer<typeof MetricListResponseSchema>;

/** GET /node/param/meta?node_id → the variables tree without values. */
export const ParamMetaResponseSchema = z.object({ params: z.array(ParamTreeNodeSchema) });
export type ParamMetaResponse = z.infer<typeof ParamMetaResponseSchema>;

/** GET /node/param/list?node_id&start&end&limit=150&id (id repeated; none = every param). */
export const ParamListQuerySchema = z
  .object({
    node_id: NodeIdSchema,
    start: epochParam,
    end: epochParam,
    limit: z.coerce
      .number(invalid)
      .int(invalid)
      .min(1, invalid)
      .max(PARAM_LIST_LIMIT, invalid)
      .default(PARAM_LIST_LIMIT),
    id: idListParam,
  })
  .refine(rangeRefinement, invalid);
export type ParamListQuery = z.infer<typeof ParamListQuerySchema>;

/** A param with its values in the range, newest first (`values.data[0]` is the latest). */
export const ParamSeriesSchema = z.object({
  id: z.string(),
  label: z.string(),
  path: z.string().optional(),
  storageType: z.literal('ParamValue'),
  values: z.object({ data: z.array(ParamValuePointSchema) }),
});
export type ParamSeries = z.infer<typeof ParamSeriesSchema>;
export const ParamListResponseSchema = z.object({ params: z.array(ParamSeriesSchema) });
export type ParamListResponse = z.infer<typeof ParamListResponseSchema>;

/** The filters of `/query/event/list`: `Node.ID` is required; the interface keys are informative. */
export const EventFiltersSchema = z.object({
  'Node.ID': NodeIdSchema,
  'Node.Interface.ID': z.string().max(16).optional(),
  'Node.Interface.Type': z.string().max(16).optional(),
});
export type EventFilters = z.infer<typeof EventFiltersSchema>;

/** The start of the current UTC month, in epoch seconds (the event list's default `from_ts`). */
export function startOfMonthSeconds(nowSeconds: number): number {
  const now = new Date(nowSeconds * 1000);
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) / 1000;
}

/**
 * GET /query/event/list?from_ts&to_ts&filters&limit&pagetoken: the node's log entries (every
 * type), newest first; `from_ts` defaults to the start of the month, `to_ts` to now, `limit` to 10.
 * `filters` is a JSON object, e.g. `{"Node.ID":"…","Node.Interface.ID":"0","Node.Interface.Type":"RMP"}`.
 */
export const EventListQuerySchema = z.object({
  from_ts: epochParam.optional(),
  to_ts: epochParam.optional(),
  filters: z
    .string({ error: 'filters is required' })
    .max(1024, invalid)
    .transform((raw, ctx) => {
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'filters must be JSON' });
        return z.NEVER;
      }
    })
    .pipe(EventFiltersSchema),
  limit: z.coerce
    .number(invalid)
    .int(invalid)
    .min(1, invalid)
    .max(EVENT_LIST_MAX_LIMIT, invalid)
    .default(EVENT_LIST_PAGE_SIZE),
  pagetoken: pageTokenParam,
});
export type EventListQuery = z.infer<typeof EventListQuerySchema>;

/** `{list, remarks, pagetoken}` like the log list. */
export const EventListResponseSchema = LogListResponseSchema;
export type EventListResponse = LogListResponse;
