import { Center, Skeleton, Text } from '@mantine/core';
import { Component, Suspense, type ReactNode } from 'react';
import { isMissingChunkError, reloadForNewBuild } from '../app/new-build';

/**
 * A chart chunk that failed to download says so instead of breaking the page; after a release
 * (the old build's chunk is gone) the page first reloads once into the new build.
 */
class ChartBoundary extends Component<
  { height: number; failedText: string; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    if (isMissingChunkError(error)) reloadForNewBuild();
  }

  override render() {
    if (this.state.failed)
      return (
        <Center h={this.props.height}>
          <Text c="dimmed" size="sm">
            {this.props.failedText}
          </Text>
        </Center>
      );
    return this.props.children;
  }
}

/**
 * Where a lazily loaded chart renders: a skeleton of its size while the chart library loads, and
 * `failedText` when its chunk cannot be loaded. Shared by every feature that draws charts.
 */
export function LazyChartFrame({
  height,
  failedText,
  children,
}: {
  height: number;
  failedText: string;
  children: ReactNode;
}) {
  return (
    <ChartBoundary height={height} failedText={failedText}>
      <Suspense fallback={<Skeleton height={height} radius="md" />}>{children}</Suspense>
    </ChartBoundary>
  );
}
