import {
  GRAPH_RANGE_DEFAULT_HOURS,
  GRAPH_RANGE_MAX_HOURS,
  GRAPH_RANGE_MIN_HOURS,
  GRAPH_RANGE_STEP_SECONDS,
  METRIC_LIST_DEFAULT_LIMIT,
  METRIC_LIST_LIMITS_BY_RANGE_DAYS,
} from '@fleetdeck/contract';
import { DAY_SECONDS, type TimeWindow } from './interval';

/**
 * The Graphs tab's range (access §2, §9): the last 1 to 24 hours in 3600-second steps, default
 * 1 hour, and how many points the metric list is asked for over such a range.
 */

/** Every offered range in hours: 1, 2, … 24. */
export const GRAPH_RANGE_HOURS: readonly number[] = Array.from(
  { length: GRAPH_RANGE_MAX_HOURS - GRAPH_RANGE_MIN_HOURS + 1 },
  (_, i) => GRAPH_RANGE_MIN_HOURS + i,
);

/** A range from a control or storage, kept to whole hours within 1–24 (else the default). */
export function toGraphRangeHours(value: unknown): number {
  const hours = typeof value === 'number' ? value : Number(value);
  return Number.isInteger(hours) && hours >= GRAPH_RANGE_MIN_HOURS && hours <= GRAPH_RANGE_MAX_HOURS
    ? hours
    : GRAPH_RANGE_DEFAULT_HOURS;
}

/** The last `hours` hours before `now` (epoch seconds). */
export function graphWindow(hours: number, now: number): TimeWindow {
  return { start: now - toGraphRangeHours(hours) * GRAPH_RANGE_STEP_SECONDS, end: now };
}

/**
 * The metric list limit for a window: 150, or 200 from a 1-day range, 1000 from 6 days and 1400
 * from 24 days (a range between two named lengths gets the smaller limit).
 */
export function metricListLimit(window: TimeWindow): number {
  const days = (window.end - window.start) / DAY_SECONDS;
  let limit: number = METRIC_LIST_DEFAULT_LIMIT;
  const steps = Object.entries(METRIC_LIST_LIMITS_BY_RANGE_DAYS)
    .map(([minDays, value]) => [Number(minDays), value] as const)
    .sort((a, b) => a[0] - b[0]);
  for (const [minDays, value] of steps) if (days >= minDays) limit = value;
  return limit;
}
