import { lazy } from 'react';
import { LazyChartFrame } from '../../../../components/lazy-chart-frame';
import { STATS_LABELS } from '../../labels';
import type { StatsChartProps } from './stats-chart';

const StatsChart = lazy(async () => ({ default: (await import('./stats-chart')).StatsChart }));

/** The chart, with a skeleton of its size while echarts loads. */
export function LazyChart(props: StatsChartProps) {
  return (
    <LazyChartFrame height={props.height} failedText={STATS_LABELS.chartFailed}>
      <StatsChart {...props} />
    </LazyChartFrame>
  );
}
