import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type {
  GridComponentOption,
  LegendComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { formatClock, formatDayLabel, formatLogTime } from './diag-dates';

/** The only option shapes the diagnostics charts use (keeps the echarts build modular). */
export type DiagnosticsChartOption = ComposeOption<
  | BarSeriesOption
  | LineSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | TooltipComponentOption
>;

/** The five log types in the order the timeline stacks them, with their colours. */
export const LOG_TYPE_STYLE = {
  crash: { color: '#c92a2a', label: 'Crash' },
  reboot: { color: '#e8590c', label: 'Reboot' },
  error: { color: '#f08c00', label: 'Error' },
  warning: { color: '#fab005', label: 'Warning' },
  event: { color: '#1c7ed6', label: 'Event' },
} as const;

export type TimelineLogType = keyof typeof LOG_TYPE_STYLE;

export const TIMELINE_TYPES = Object.keys(LOG_TYPE_STYLE) as TimelineLogType[];

/** One bar of the timeline: its start (epoch seconds) and a count per log type. */
export interface TimelineBar {
  timestamp: number;
  counts: Readonly<Record<TimelineLogType, number>>;
}

const AXIS_TEXT = '#495057';
const SPLIT_LINE = '#e9ecef';
const FONT =
  'Inter, "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, sans-serif';

/** The timeline's plot area inside the chart, in pixels from each edge. */
export const TIMELINE_GRID = { left: 44, right: 12, top: 36, bottom: 24 } as const;

/** Whether any bar counts anything (else the report shows its empty text instead). */
export function timelineHasEntries(bars: readonly TimelineBar[]): boolean {
  return bars.some((bar) => TIMELINE_TYPES.some((type) => bar.counts[type] > 0));
}

/**
 * Stacked bars per day (Week, Month) or hour (Day). In Week and Month the pointer says the bars
 * can be clicked (they open that day).
 */
export function timelineOption(
  bars: readonly TimelineBar[],
  options: { hourly: boolean; tzOffset: number },
): DiagnosticsChartOption {
  const label = (ts: number) =>
    options.hourly ? formatClock(ts, options.tzOffset) : formatDayLabel(ts, options.tzOffset);
  return {
    animationDuration: 250,
    textStyle: { fontFamily: FONT },
    // A fixed plot area (counts need little room), so a bar's place is known from its index.
    grid: { ...TIMELINE_GRID, containLabel: false },
    legend: {
      top: 0,
      left: 0,
      icon: 'roundRect',
      itemWidth: 12,
      itemHeight: 12,
      textStyle: { color: AXIS_TEXT },
    },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: {
      type: 'category',
      data: bars.map((bar) => label(bar.timestamp)),
      axisTick: { alignWithLabel: true },
      axisLine: { lineStyle: { color: '#ced4da' } },
      axisLabel: { color: AXIS_TEXT, hideOverlap: true },
      // Clicking the empty space above a quiet day still opens it.
      triggerEvent: !options.hourly,
    },
    yAxis: {
      type: 'value',
      minInterval: 1,
      axisLabel: { color: AXIS_TEXT },
      splitLine: { lineStyle: { color: SPLIT_LINE } },
    },
    series: TIMELINE_TYPES.map((type): BarSeriesOption => ({
      type: 'bar',
      name: LOG_TYPE_STYLE[type].label,
      stack: 'logs',
      data: bars.map((bar) => bar.counts[type]),
      itemStyle: { color: LOG_TYPE_STYLE[type].color },
      barMaxWidth: 28,
      cursor: options.hourly ? 'default' : 'pointer',
      emphasis: { focus: 'series' },
    })),
  };
}

/** One metric's line: its label and its points (epoch seconds, value). */
export interface MetricLine {
  name: string;
  unit?: string | undefined;
  points: readonly (readonly [number, number])[];
}

const LINE_COLORS = ['#1c7ed6', '#e8590c', '#2f9e44', '#ae3ec9', '#f08c00', '#0c8599', '#c92a2a'];

function lineColor(index: number): string {
  return LINE_COLORS[index % LINE_COLORS.length] ?? '#1c7ed6';
}

/** The height (px) of one row of the legend. */
const LEGEND_ROW = 22;

/** How far (px) a third or further value axis stands beside the one before it on its side. */
const AXIS_OFFSET = 64;

/** Axis values: large ones shortened (180000 bytes as 180k), so an offset axis needs little room. */
function formatAxisNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${formatNumber(value / 1e9)}G`;
  if (abs >= 1e6) return `${formatNumber(value / 1e6)}M`;
  if (abs >= 1e4) return `${formatNumber(value / 1e3)}k`;
  return formatNumber(value);
}

export function metricLinesHavePoints(lines: readonly MetricLine[]): boolean {
  return lines.some((line) => line.points.length > 0);
}

/**
 * Metric values over time on a time axis from `window.start` to `window.end`, labelled in the
 * viewer's zone; each line with its own colour, points shown only when there are few of them.
 */
export function metricLinesOption(
  lines: readonly MetricLine[],
  options: { start: number; end: number; tzOffset: number },
): DiagnosticsChartOption {
  const units = axisUnits(lines);
  const firstLineOf = units.map((unit) => lines.findIndex((line) => (line.unit ?? '') === unit));
  return {
    animationDuration: 250,
    textStyle: { fontFamily: FONT },
    // Room above the plot for the legend (on a phone about two names fit on a line, so three or
    // more lines take more rows) and for the unit names when there are several scales.
    grid: {
      left: 8,
      right: 16,
      top: 32 + LEGEND_ROW * (Math.ceil(lines.length / 2) - 1) + (units.length > 1 ? 24 : 0),
      bottom: 8,
      containLabel: true,
    },
    legend: {
      top: 0,
      left: 0,
      icon: 'roundRect',
      itemWidth: 12,
      itemHeight: 12,
      textStyle: { color: AXIS_TEXT },
    },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'line' },
      valueFormatter: (value) => (typeof value === 'number' ? formatNumber(value) : String(value)),
    },
    xAxis: {
      type: 'time',
      min: options.start * 1000,
      max: options.end * 1000,
      axisLine: { lineStyle: { color: '#ced4da' } },
      axisLabel: {
        color: AXIS_TEXT,
        hideOverlap: true,
        formatter: (value: number) => formatClock(value / 1000, options.tzOffset),
      },
      axisPointer: {
        label: { formatter: (p) => formatLogTime(Number(p.value) / 1000, options.tzOffset) },
      },
    },
    yAxis: units.map((unit, i) => {
      // Every unit has its own scale: the first on the left, the second on the right, further
      // ones beside those, alternating sides. With two or more scales each axis has the colour of
      // its first line and its unit as its name, so the reader knows which scale a line uses.
      const color = units.length > 1 ? lineColor(firstLineOf[i] ?? 0) : AXIS_TEXT;
      return {
        type: 'value' as const,
        scale: true,
        position: i % 2 === 1 ? ('right' as const) : ('left' as const),
        offset: Math.floor(i / 2) * AXIS_OFFSET,
        name: units.length > 1 ? unit : '',
        nameTextStyle: { color },
        axisLine: { show: units.length > 1, lineStyle: { color } },
        axisTick: { show: units.length > 1 },
        axisLabel: { color, formatter: formatAxisNumber },
        splitLine: { show: i === 0, lineStyle: { color: SPLIT_LINE } },
      };
    }),
    series: lines.map((line, i): LineSeriesOption => ({
      type: 'line',
      name: line.unit ? `${line.name} (${line.unit})` : line.name,
      yAxisIndex: units.indexOf(line.unit ?? ''),
      data: line.points.map(([ts, value]) => [ts * 1000, value]),
      itemStyle: { color: lineColor(i) },
      lineStyle: { width: 2 },
      showSymbol: line.points.length <= 40,
      symbolSize: 5,
      emphasis: { focus: 'series' },
    })),
  };
}

/**
 * One value axis per unit, in the order the lines come: bytes of heap and dBm of Wi-Fi on one
 * scale would flatten both into lines along zero.
 */
export function axisUnits(lines: readonly MetricLine[]): string[] {
  const units: string[] = [];
  for (const line of lines) if (!units.includes(line.unit ?? '')) units.push(line.unit ?? '');
  return units.length === 0 ? [''] : units;
}

/** Values with at most 2 decimals (a float heap or temperature reading has many). */
export function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
}
