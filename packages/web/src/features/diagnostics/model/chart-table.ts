import type { ChartTableData } from '../../../components/chart-table';
import {
  LOG_TYPE_STYLE,
  TIMELINE_TYPES,
  formatNumber,
  type MetricLine,
  type TimelineBar,
} from './chart-options';
import { formatClock, formatDayLabel, formatLogTime } from './diag-dates';

/** The timeline's values as its table: a row per bar (hour or day), a column per log type. */
export function timelineTableData(
  bars: readonly TimelineBar[],
  options: { hourly: boolean; tzOffset: number; rowHeader: string },
): ChartTableData {
  return {
    rowHeader: options.rowHeader,
    columns: TIMELINE_TYPES.map((type) => LOG_TYPE_STYLE[type].label),
    rows: bars.map((bar) => ({
      key: String(bar.timestamp),
      label: options.hourly
        ? formatClock(bar.timestamp, options.tzOffset)
        : formatDayLabel(bar.timestamp, options.tzOffset),
      values: TIMELINE_TYPES.map((type) => String(bar.counts[type])),
    })),
  };
}

/**
 * Metric lines as their table: a row per time any line has a point, oldest first, a column per
 * line (with its unit); a line without a point at that time has an empty cell.
 */
export function metricTableData(
  lines: readonly MetricLine[],
  options: { tzOffset: number; rowHeader: string },
): ChartTableData {
  const byLine = lines.map((line) => new Map(line.points.map(([ts, value]) => [ts, value])));
  const times = [...new Set(lines.flatMap((line) => line.points.map(([ts]) => ts)))].sort(
    (a, b) => a - b,
  );
  return {
    rowHeader: options.rowHeader,
    columns: lines.map((line) => (line.unit ? `${line.name} (${line.unit})` : line.name)),
    rows: times.map((ts) => ({
      key: String(ts),
      label: formatLogTime(ts, options.tzOffset),
      values: byLine.map((points) => {
        const value = points.get(ts);
        return value === undefined ? undefined : formatNumber(value);
      }),
    })),
  };
}
