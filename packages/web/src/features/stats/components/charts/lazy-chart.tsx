import { Skeleton } from '@mantine/core';
import { Component, Suspense, lazy, type ReactNode } from 'react';
import { Center, Text } from '@mantine/core';
import { STATS_LABELS } from '../../labels';
import type { StatsChartProps } from './stats-chart';

const StatsChart = lazy(async () => ({ default: (await import('./stats-chart')).StatsChart }));

/** A chart chunk that failed to download (offline, new deploy) says so instead of breaking the page. */
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
            {STATS_LABELS.chartFailed}
          </Text>
        </Center>
      );
    return this.props.children;
  }
}

/** The chart, with a skeleton of its size while echarts loads. */
export function LazyChart(props: StatsChartProps) {
  return (
    <ChartBoundary height={props.height}>
      <Suspense fallback={<Skeleton height={props.height} radius="md" />}>
        <StatsChart {...props} />
      </Suspense>
    </ChartBoundary>
  );
}
