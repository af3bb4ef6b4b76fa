import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type {
  GridComponentOption,
  LegendComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';

/** The only option shapes the dashboard's charts use (keeps the echarts build modular). */
export type StatsChartOption = ComposeOption<
  | BarSeriesOption
  | LineSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | TooltipComponentOption
>;

/** One line or set of bars: a value per category (period or fault code). */
export interface ChartSeries {
  name: string;
  color: string;
  values: readonly number[];
  kind: 'bar' | 'line';
  /** Series with the same stack are drawn on top of each other. */
  stack?: string;
}

/** What a chart draws: the categories along one axis and the series measured against them. */
export interface ChartData {
  categories: readonly string[];
  series: readonly ChartSeries[];
}

const AXIS_TEXT = '#495057';
const SPLIT_LINE = '#e9ecef';
const FONT =
  'Inter, "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, sans-serif';

/** Whether a chart would draw anything but zeros (then the dashboard shows its empty state). */
export function hasValues(data: ChartData): boolean {
  return data.categories.length > 0 && data.series.some((s) => s.values.some((v) => v > 0));
}

/**
 * Counts over time: periods along the bottom, whole numbers up the side, one tooltip for the
 * period with every series in it. Many periods show fewer labels rather than overlapping ones.
 */
export function timeSeriesOption(data: ChartData): StatsChartOption {
  const bars = data.series.filter((s) => s.kind === 'bar').length;
  return {
    animationDuration: 300,
    textStyle: { fontFamily: FONT },
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    legend: {
      show: data.series.length > 1,
      top: 0,
      left: 0,
      icon: 'roundRect',
      itemWidth: 12,
      itemHeight: 12,
      textStyle: { color: AXIS_TEXT },
    },
    tooltip: { trigger: 'axis', axisPointer: { type: bars > 0 ? 'shadow' : 'line' } },
    xAxis: {
      type: 'category',
      data: [...data.categories],
      axisTick: { alignWithLabel: true },
      axisLine: { lineStyle: { color: '#ced4da' } },
      axisLabel: { color: AXIS_TEXT, hideOverlap: true },
    },
    yAxis: {
      type: 'value',
      minInterval: 1,
      axisLabel: { color: AXIS_TEXT },
      splitLine: { lineStyle: { color: SPLIT_LINE } },
    },
    series: data.series.map((s): BarSeriesOption | LineSeriesOption =>
      s.kind === 'bar'
        ? {
            type: 'bar',
            name: s.name,
            data: [...s.values],
            itemStyle: { color: s.color, borderRadius: s.stack ? 0 : [3, 3, 0, 0] },
            barMaxWidth: 28,
            ...(s.stack ? { stack: s.stack } : {}),
            emphasis: { focus: 'series' },
          }
        : {
            type: 'line',
            name: s.name,
            data: [...s.values],
            itemStyle: { color: s.color },
            lineStyle: { width: 2 },
            smooth: false,
            showSymbol: data.categories.length <= 31,
            symbolSize: 6,
            areaStyle: { opacity: 0.08 },
            ...(s.stack ? { stack: s.stack } : {}),
            emphasis: { focus: 'series' },
          },
    ),
  };
}

/**
 * A distribution as horizontal bars, largest first from the top, so the codes that matter are
 * read first and long labels have room.
 */
export function distributionOption(data: ChartData): StatsChartOption {
  const series = data.series[0];
  return {
    animationDuration: 300,
    textStyle: { fontFamily: FONT },
    grid: { left: 8, right: 40, top: 4, bottom: 4, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: {
      type: 'value',
      minInterval: 1,
      axisLabel: { color: AXIS_TEXT },
      splitLine: { lineStyle: { color: SPLIT_LINE } },
    },
    yAxis: {
      type: 'category',
      // echarts draws the first category at the bottom; reverse so the largest is on top.
      data: [...data.categories].reverse(),
      axisTick: { show: false },
      axisLine: { lineStyle: { color: '#ced4da' } },
      axisLabel: { color: AXIS_TEXT, fontWeight: 600 },
    },
    series: series
      ? [
          {
            type: 'bar',
            name: series.name,
            data: [...series.values].reverse(),
            itemStyle: { color: series.color, borderRadius: [0, 3, 3, 0] },
            barMaxWidth: 18,
            label: { show: true, position: 'right', color: AXIS_TEXT },
          },
        ]
      : [],
  };
}
