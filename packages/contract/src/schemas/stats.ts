import { z } from 'zod';
import {
  STATS_DAILY_MAX_DAYS,
  STATS_MONTHLY_MAX_MONTHS,
  STATS_WEEKLY_MAX_MONTHS,
  STATS_YEARLY_MAX_YEARS,
} from '../constants.js';
import { SERVER_MESSAGES } from '../errors.js';
import { MESSAGES } from '../messages.js';

/**
 * GET /v1/admin/stats_info (alias GET /v1/stats_info): fleet statistics in RainMaker's shape
 * (`reference/rainmaker-contract.md`, `admin/stats_info`). Buckets are UTC days; see
 * docs/adr/0008-statistics-rollups.md for what each series counts.
 */

/** The statistics keys, in RainMaker's order. */
export const STATS_METRICS = [
  'num_registered_users',
  'num_registered_nodes',
  'num_users_with_nodes',
  'num_users_without_nodes',
  'num_claimed_nodes',
  'num_timed_out_node_association_reqs',
  'num_online_nodes',
  'num_offline_nodes',
] as const;
export const StatsMetricSchema = z.enum(STATS_METRICS);
export type StatsMetric = z.infer<typeof StatsMetricSchema>;

/** Metrics answered as `{data, total_count}` objects at the top level of the answer. */
export const STATS_SERIES_METRICS = [
  'num_registered_users',
  'num_registered_nodes',
  'num_users_with_nodes',
  'num_users_without_nodes',
  'num_claimed_nodes',
  'num_timed_out_node_association_reqs',
] as const satisfies readonly StatsMetric[];
export type StatsSeriesMetric = (typeof STATS_SERIES_METRICS)[number];

/**
 * Online and offline are plain numbers (now) at the top level, as in RainMaker; their daily
 * history (end-of-day snapshots) is under `connectivity_history`.
 */
export const STATS_CONNECTIVITY_METRICS = [
  'num_online_nodes',
  'num_offline_nodes',
] as const satisfies readonly StatsMetric[];
export type StatsConnectivityMetric = (typeof STATS_CONNECTIVITY_METRICS)[number];

/** Durations: ours (`daily`) and RainMaker's spelling (`daily_count`) both work. */
export const StatsDurationSchema = z
  .enum([
    'daily',
    'weekly',
    'monthly',
    'yearly',
    'daily_count',
    'weekly_count',
    'monthly_count',
    'yearly_count',
  ])
  .transform((value) => value.replace('_count', '') as 'daily' | 'weekly' | 'monthly' | 'yearly');
export type StatsDuration = z.output<typeof StatsDurationSchema>;

/** English month names as RainMaker answers them (`month: "March"`). */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Epoch day (days since 1970-01-01 UTC) of a `YYYY-MM-DD` date, or undefined when not a real date. */
export function parseStatsDate(value: string | undefined): number | undefined {
  if (value === undefined || !ISO_DATE.test(value)) return undefined;
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) return undefined;
  return ms / 86_400_000;
}

/** A month as 1–12 from a number (`3`, `03`) or an English name (`march`, `Mar`); else undefined. */
export function parseStatsMonth(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d{1,2}$/.test(text)) {
    const month = Number(text);
    return month >= 1 && month <= 12 ? month : undefined;
  }
  const lower = text.toLowerCase();
  if (lower.length < 3) return undefined;
  const index = MONTH_NAMES.findIndex((name) => name.toLowerCase().startsWith(lower));
  return index >= 0 ? index + 1 : undefined;
}

/** A four-digit year from 1970 to 9999, or undefined. */
export function parseStatsYear(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{4}$/.test(value.trim())) return undefined;
  const year = Number(value.trim());
  return year >= 1970 ? year : undefined;
}

/** Whether `zone` is an IANA time-zone name this runtime knows (case-insensitive). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const optionalText = z
  .string()
  .trim()
  .max(64, { error: SERVER_MESSAGES.invalidQueryParam })
  .optional()
  .transform((value) => (value ? value : undefined));

/**
 * GET /v1/admin/stats_info query. Without `duration` only `total_count` per metric is answered.
 * Range rules (access §5) with the spec's messages:
 * daily `start_date`…`end_date` (YYYY-MM-DD, 1 to 31 days); weekly `start_month/start_year`…
 * `end_month/end_year` (1 to 3 months); monthly the same (1 to 24 months: current and previous
 * year); yearly `start_year`…`end_year` (1 to 5 years). Months are 1–12 or English names.
 */
export const StatsInfoQuerySchema = z
  .object({
    /** Comma list of metrics; all when absent. */
    metric_name: optionalText,
    duration: StatsDurationSchema.optional(),
    start_date: optionalText,
    end_date: optionalText,
    start_month: optionalText,
    start_year: optionalText,
    end_month: optionalText,
    end_year: optionalText,
    /** IANA zone; accepted and checked, but buckets are UTC days (ADR 8). */
    timezone: optionalText,
  })
  .superRefine((query, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (query.metric_name !== undefined) {
      const names = query.metric_name.split(',').map((name) => name.trim());
      if (names.some((name) => !StatsMetricSchema.safeParse(name).success))
        return fail(SERVER_MESSAGES.statsInvalidMetrics);
    }
    if (query.timezone !== undefined && !isTimeZone(query.timezone))
      return fail(SERVER_MESSAGES.statsInvalidTimezone);
    const range = statsRangeOf(query);
    if (typeof range === 'string') return fail(range);
  })
  .transform((query) => ({
    metrics: (query.metric_name
      ? [...new Set(query.metric_name.split(',').map((name) => name.trim()))]
      : [...STATS_METRICS]) as StatsMetric[],
    timezone: query.timezone ?? 'UTC',
    range: statsRangeOf(query) as StatsRange | undefined,
  }));
export type StatsInfoQueryInput = z.input<typeof StatsInfoQuerySchema>;
export type StatsInfoQuery = z.output<typeof StatsInfoQuerySchema>;

/** A validated range in epoch days (inclusive) with its duration. */
export interface StatsRange {
  duration: StatsDuration;
  /** First day (epoch day, UTC) of the range. */
  startDay: number;
  /** Last day (epoch day, UTC) of the range, inclusive. */
  endDay: number;
}

const epochDay = (year: number, month: number, day: number): number =>
  Date.UTC(year, month - 1, day) / 86_400_000;

/**
 * The range a stats query asks for, the spec's message when it is invalid, or undefined without a
 * duration. Shared by the server's validation and the dashboard's form so both say the same.
 */
export function statsRangeOf(query: {
  duration?: StatsDuration | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
  start_month?: string | undefined;
  start_year?: string | undefined;
  end_month?: string | undefined;
  end_year?: string | undefined;
}): StatsRange | string | undefined {
  const duration = query.duration;
  if (duration === undefined) return undefined;
  if (duration === 'daily') {
    const start = parseStatsDate(query.start_date);
    const end = parseStatsDate(query.end_date);
    if (start === undefined || end === undefined) return MESSAGES.statsInvalidDates;
    if (start > end) return MESSAGES.statsDateRangeInvalid;
    if (end - start + 1 > STATS_DAILY_MAX_DAYS) return MESSAGES.statsDailyLimit;
    return { duration, startDay: start, endDay: end };
  }
  if (duration === 'weekly' || duration === 'monthly') {
    const startMonth = parseStatsMonth(query.start_month);
    const endMonth = parseStatsMonth(query.end_month);
    const startYear = parseStatsYear(query.start_year);
    const endYear = parseStatsYear(query.end_year);
    if (
      startMonth === undefined ||
      endMonth === undefined ||
      startYear === undefined ||
      endYear === undefined
    )
      return MESSAGES.statsInvalidMonths;
    const first = startYear * 12 + startMonth;
    const last = endYear * 12 + endMonth;
    if (first > last) return MESSAGES.statsMonthRangeInvalid;
    const months = last - first + 1;
    if (duration === 'weekly' && months > STATS_WEEKLY_MAX_MONTHS) return MESSAGES.statsWeeklyLimit;
    if (duration === 'monthly' && months > STATS_MONTHLY_MAX_MONTHS)
      return SERVER_MESSAGES.statsMonthlyLimit;
    return {
      duration,
      startDay: epochDay(startYear, startMonth, 1),
      endDay: epochDay(endYear, endMonth + 1, 1) - 1,
    };
  }
  const startYear = parseStatsYear(query.start_year);
  const endYear = parseStatsYear(query.end_year);
  if (startYear === undefined || endYear === undefined) return MESSAGES.statsInvalidYears;
  if (startYear > endYear) return MESSAGES.statsYearRangeInvalid;
  if (endYear - startYear + 1 > STATS_YEARLY_MAX_YEARS) return SERVER_MESSAGES.statsYearlyLimit;
  return { duration, startDay: epochDay(startYear, 1, 1), endDay: epochDay(endYear, 12, 31) };
}

/** One daily point: the count (or end-of-day level) of that UTC day. */
export const StatsDailyPointSchema = z.object({
  daily_count: z.number().int(),
  /** YYYY-MM-DD */
  date: z.string(),
});
/** One weekly point: a Monday–Sunday week clipped to the asked range. */
export const StatsWeeklyPointSchema = z.object({
  weekly_count: z.number().int(),
  start_date: z.string(),
  end_date: z.string(),
});
/** One monthly point (`month` is the English name, e.g. "March"). */
export const StatsMonthlyPointSchema = z.object({
  monthly_count: z.number().int(),
  month: z.string(),
  year: z.number().int(),
});
/** One yearly point (`year` is a string, as in RainMaker's example). */
export const StatsYearlyPointSchema = z.object({
  yearly_count: z.number().int(),
  year: z.string(),
});
export const StatsPointSchema = z.union([
  StatsDailyPointSchema,
  StatsWeeklyPointSchema,
  StatsMonthlyPointSchema,
  StatsYearlyPointSchema,
]);
export type StatsPoint = z.infer<typeof StatsPointSchema>;

/** One metric: its points, newest first (absent without a duration), and the total now. */
export const StatsSeriesSchema = z.object({
  data: z.array(StatsPointSchema).optional(),
  total_count: z.number().int(),
});
export type StatsSeries = z.infer<typeof StatsSeriesSchema>;

/** GET /v1/admin/stats_info answer: the asked metrics only. */
export const StatsInfoResponseSchema = z.object({
  num_registered_users: StatsSeriesSchema.optional(),
  num_registered_nodes: StatsSeriesSchema.optional(),
  num_users_with_nodes: StatsSeriesSchema.optional(),
  num_users_without_nodes: StatsSeriesSchema.optional(),
  num_claimed_nodes: StatsSeriesSchema.optional(),
  num_timed_out_node_association_reqs: StatsSeriesSchema.optional(),
  /** Nodes online now. */
  num_online_nodes: z.number().int().optional(),
  /** Nodes offline now (connected before, not connected now). */
  num_offline_nodes: z.number().int().optional(),
  /** Fleetdeck extension: end-of-day online/offline levels, with a duration only. */
  connectivity_history: z
    .object({
      num_online_nodes: StatsSeriesSchema.optional(),
      num_offline_nodes: StatsSeriesSchema.optional(),
    })
    .optional(),
  /** The zone the buckets are in (always UTC; ADR 8). */
  timezone: z.string(),
});
export type StatsInfoResponse = z.infer<typeof StatsInfoResponseSchema>;

/** GET /v1/admin/stats_info/summary: the dashboard's "now" tiles in one cheap call. */
export const StatsSummarySchema = z.object({
  num_online_nodes: z.number().int(),
  num_offline_nodes: z.number().int(),
  /** Registered, never connected. */
  num_not_activated_nodes: z.number().int(),
  num_registered_users: z.number().int(),
  num_registered_nodes: z.number().int(),
  num_claimed_nodes: z.number().int(),
  /** Nodes registered with MQTT credentials (every registration issues them). */
  num_certificates_generated: z.number().int(),
});
export type StatsSummary = z.infer<typeof StatsSummarySchema>;
