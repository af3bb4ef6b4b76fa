import { Box, Center, Skeleton, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { ChartWithTable } from '../../../components/chart-table';
import { FetchingBar } from '../../../components/fetching-bar';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { useMetricList } from '../api/metric-list.query';
import { DIAGNOSTICS_LABELS } from '../labels';
import { metricLinesHavePoints, metricLinesOption, type MetricLine } from '../model/chart-options';
import { metricTableData } from '../model/chart-table';
import { graphWindow, metricListLimit } from '../model/graph-range';
import { LazyDiagnosticsChart } from './charts/lazy-diagnostics-chart';

/**
 * Chosen metrics of one node over the last `hours` hours, on one chart, with its loading, empty
 * and error states; the previous chart stays (dimmed) while a new range or selection loads.
 */
export function MetricChart({
  nodeId,
  metricIds,
  hours,
  now,
  tzOffset,
  height,
  label,
}: {
  nodeId: string;
  metricIds: readonly string[];
  hours: number;
  now: number;
  tzOffset: number;
  height: number;
  label: string;
}) {
  const span = graphWindow(hours, now);
  const query = useMetricList(
    {
      node_id: nodeId,
      start: span.start,
      end: span.end,
      limit: metricListLimit(span),
      tz: tzOffset,
      id: metricIds,
    },
    metricIds.length > 0,
  );
  const wanted = metricIds.join('\n');
  const lines: MetricLine[] = useMemo(() => {
    const ids = new Set(wanted.split('\n'));
    return (query.data?.metrics ?? [])
      .filter((series) => ids.has(series.id))
      .map((series) => ({
        name: series.label,
        unit: series.unit,
        points: series.points.map((p) => [p.ts, p.val] as const),
      }));
  }, [query.data, wanted]);
  const option = useMemo(
    () => metricLinesOption(lines, { start: span.start, end: span.end, tzOffset }),
    [lines, span.start, span.end, tzOffset],
  );
  const table = useMemo(
    () => metricTableData(lines, { tzOffset, rowHeader: DIAGNOSTICS_LABELS.columnTime }),
    [lines, tzOffset],
  );

  let body;
  if (metricIds.length === 0)
    body = (
      <Center h={120}>
        <Text c="dimmed" size="sm">
          {DIAGNOSTICS_LABELS.pickMetric}
        </Text>
      </Center>
    );
  else if (query.isError)
    body = (
      <QueryErrorAlert
        error={query.error}
        retryLabel={DIAGNOSTICS_LABELS.tryAgain}
        onRetry={() => void query.refetch()}
      />
    );
  else if (query.data === undefined) body = <Skeleton h={height} radius="md" />;
  else if (!metricLinesHavePoints(lines))
    body = (
      <Center h={120} data-testid="graph-empty">
        <Text c="dimmed" size="sm">
          {DIAGNOSTICS_LABELS.noPoints}
        </Text>
      </Center>
    );
  else
    body = (
      <Box style={{ opacity: query.isPlaceholderData ? 0.55 : 1, transition: 'opacity 150ms' }}>
        <ChartWithTable name={label} table={table}>
          <LazyDiagnosticsChart
            option={option}
            height={height}
            testId="graph-chart"
            label={`${label}: ${lines.map((l) => l.name).join(', ')}`}
          />
        </ChartWithTable>
      </Box>
    );

  return (
    <Stack gap={6} aria-busy={query.isFetching}>
      <FetchingBar active={query.isFetching} label={DIAGNOSTICS_LABELS.loading} />
      {body}
    </Stack>
  );
}
