/**
 * The chart renderer: echarts, built from its modular parts (bars, lines, grid, legend, tooltip,
 * canvas). Only ever imported through lazy-chart.tsx, so echarts stays in its own chunk that the
 * dashboard loads after its first paint.
 */
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use as registerEcharts, type ECharts } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import {
  distributionOption,
  timeSeriesOption,
  type ChartData,
  type StatsChartOption,
} from '../../model/chart-options';

registerEcharts([
  BarChart,
  LineChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  CanvasRenderer,
]);

export interface StatsChartProps {
  data: ChartData;
  variant: 'time' | 'distribution';
  height: number;
  /** What the chart shows, for screen readers (the canvas itself says nothing). */
  label: string;
}

export function StatsChart({ data, variant, height, label }: StatsChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);

  useEffect(() => {
    const element = host.current;
    if (!element) return undefined;
    const instance = init(element, null, { renderer: 'canvas' });
    chart.current = instance;
    // Follow the card's width (sidebar toggles, phone rotation), not only the window's.
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const option: StatsChartOption =
      variant === 'time' ? timeSeriesOption(data) : distributionOption(data);
    chart.current?.setOption(option, { notMerge: true });
  }, [data, variant]);

  return <div ref={host} role="img" aria-label={label} style={{ width: '100%', height }} />;
}
