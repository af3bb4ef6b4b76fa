/**
 * The chart renderer: echarts from its modular parts (bars, lines, grid, legend, tooltip,
 * canvas), the same library and parts the statistics dashboard uses, so they share one chunk.
 * Only ever imported through lazy-diagnostics-chart.tsx.
 */
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use as registerEcharts, type ECharts } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { DiagnosticsChartOption } from '../../model/chart-options';

registerEcharts([
  BarChart,
  LineChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  CanvasRenderer,
]);

export interface DiagnosticsChartProps {
  option: DiagnosticsChartOption;
  height: number;
  /** What the chart shows, for screen readers (the canvas itself says nothing). */
  label: string;
  /** A click on a bar or on its axis label, with the index of the category. */
  onCategoryClick?: ((index: number) => void) | undefined;
  testId?: string | undefined;
}

export function DiagnosticsChart({
  option,
  height,
  label,
  onCategoryClick,
  testId,
}: DiagnosticsChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const clickHandler = useRef(onCategoryClick);
  useEffect(() => {
    clickHandler.current = onCategoryClick;
  }, [onCategoryClick]);

  useEffect(() => {
    const element = host.current;
    if (!element) return undefined;
    const instance = init(element, null, { renderer: 'canvas' });
    chart.current = instance;
    instance.on('click', (params) => {
      const handler = clickHandler.current;
      if (!handler) return;
      if (params.componentType === 'series' && typeof params.dataIndex === 'number') {
        handler(params.dataIndex);
      } else if (params.componentType === 'xAxis') {
        const index = (params as { dataIndex?: unknown }).dataIndex;
        if (typeof index === 'number') handler(index);
      }
    });
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
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return (
    <div
      ref={host}
      role="img"
      aria-label={label}
      data-testid={testId}
      style={{ width: '100%', height }}
    />
  );
}
