import { lazy } from 'react';
import { LazyChartFrame } from '../../../../components/lazy-chart-frame';
import { DIAGNOSTICS_LABELS } from '../../labels';
import type { DiagnosticsChartProps } from './diagnostics-chart';

const DiagnosticsChart = lazy(async () => ({
  default: (await import('./diagnostics-chart')).DiagnosticsChart,
}));

/** The chart, with a skeleton of its size while echarts loads. */
export function LazyDiagnosticsChart(props: DiagnosticsChartProps) {
  return (
    <LazyChartFrame height={props.height} failedText={DIAGNOSTICS_LABELS.chartFailed}>
      <DiagnosticsChart {...props} />
    </LazyChartFrame>
  );
}
