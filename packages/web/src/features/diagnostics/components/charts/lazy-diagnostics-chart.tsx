import { Center, Skeleton, Text } from '@mantine/core';
import { Component, Suspense, lazy, type ReactNode } from 'react';
import { DIAGNOSTICS_LABELS } from '../../labels';
import type { DiagnosticsChartProps } from './diagnostics-chart';

const DiagnosticsChart = lazy(async () => ({
  default: (await import('./diagnostics-chart')).DiagnosticsChart,
}));

/** A chart chunk that failed to download (offline, new deploy) says so instead of breaking the tab. */
class ChartBoundary extends Component<
  { height: number; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    if (this.state.failed)
      return (
        <Center h={this.props.height}>
          <Text c="dimmed" size="sm">
            {DIAGNOSTICS_LABELS.chartFailed}
          </Text>
        </Center>
      );
    return this.props.children;
  }
}

/** The chart, with a skeleton of its size while echarts loads. */
export function LazyDiagnosticsChart(props: DiagnosticsChartProps) {
  return (
    <ChartBoundary height={props.height}>
      <Suspense fallback={<Skeleton height={props.height} radius="md" />}>
        <DiagnosticsChart {...props} />
      </Suspense>
    </ChartBoundary>
  );
}
