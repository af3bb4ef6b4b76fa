import { parseStatsMonth, type StatsPoint, type StatsSeries } from '@fleetdeck/contract';
import type { ChartData, ChartSeries } from './chart-options';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** One point of a series on the chart: where it sorts, what the axis says, its count. */
export interface PeriodPoint {
  /** Sorts in time order as text: YYYY-MM-DD, YYYY-MM or YYYY. */
  key: string;
  label: string;
  count: number;
}

/** 'DD MMM' of a YYYY-MM-DD date (the statistics' UTC day); the text itself when not a date. */
export function dayLabel(date: string): string {
  const match = /^\d{4}-(\d{2})-(\d{2})$/.exec(date);
  const month = match ? MONTHS[Number(match[1]) - 1] : undefined;
  return match && month ? `${match[2]} ${month}` : date;
}

/** Reads any of the four point shapes (daily, weekly, monthly, yearly). */
export function periodOf(point: StatsPoint): PeriodPoint {
  if ('daily_count' in point)
    return { key: point.date, label: dayLabel(point.date), count: point.daily_count };
  if ('weekly_count' in point)
    return {
      key: point.start_date,
      label:
        point.start_date === point.end_date
          ? dayLabel(point.start_date)
          : `${dayLabel(point.start_date)} – ${dayLabel(point.end_date)}`,
      count: point.weekly_count,
    };
  if ('monthly_count' in point) {
    const month = parseStatsMonth(point.month);
    const key =
      month === undefined
        ? `${point.year}-${point.month}`
        : `${point.year}-${String(month).padStart(2, '0')}`;
    const name = month === undefined ? point.month : MONTHS[month - 1];
    return { key, label: `${name} ${point.year}`, count: point.monthly_count };
  }
  return { key: point.year, label: point.year, count: point.yearly_count };
}

/** How one metric is drawn. */
export interface MetricLine {
  series: StatsSeries | undefined;
  name: string;
  color: string;
  kind: ChartSeries['kind'];
  stack?: string;
}

/**
 * Lines up several metrics on one time axis, oldest period first (the server answers newest
 * first). A period missing from one metric counts 0 there.
 */
export function timeChartData(lines: readonly MetricLine[]): ChartData {
  const labels = new Map<string, string>();
  const counts = lines.map((line) => {
    const byKey = new Map<string, number>();
    for (const point of line.series?.data ?? []) {
      const period = periodOf(point);
      labels.set(period.key, period.label);
      byKey.set(period.key, (byKey.get(period.key) ?? 0) + period.count);
    }
    return byKey;
  });
  const keys = [...labels.keys()].sort();
  return {
    categories: keys.map((key) => labels.get(key) ?? key),
    series: lines.map((line, index) => ({
      name: line.name,
      color: line.color,
      kind: line.kind,
      ...(line.stack ? { stack: line.stack } : {}),
      values: keys.map((key) => counts[index]?.get(key) ?? 0),
    })),
  };
}

/** The sum of a metric's counts over the range (new registrations, claims… in that range). */
export function rangeSum(series: StatsSeries | undefined): number {
  return (series?.data ?? []).reduce((sum, point) => sum + periodOf(point).count, 0);
}
