import { Box, Center, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ChartWithTable } from '../../../components/chart-table';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { STATS_LABELS } from '../labels';
import { hasValues, type ChartData } from '../model/chart-options';
import { chartTableData } from '../model/chart-table';
import { LazyChart } from './charts/lazy-chart';

/** An empty chart says so in less room than a chart takes (phones scroll less). */
const EMPTY_HEIGHT = 120;

/**
 * A titled card around one chart with its loading, empty and error states. While a new range
 * loads, the previous chart stays (dimmed) so the layout never jumps.
 */
export function ChartCard({
  title,
  hint,
  aside,
  data,
  variant,
  height,
  loading,
  stale,
  error,
  onRetry,
  emptyText,
  testId,
  tableRowHeader,
  tableColumns,
}: {
  title: string;
  hint: string;
  aside?: ReactNode;
  data: ChartData | undefined;
  variant: 'time' | 'distribution';
  height: number;
  loading: boolean;
  stale: boolean;
  error: unknown;
  onRetry: () => void;
  emptyText: string;
  testId: string;
  /** The first column of the chart's table (what a category is). */
  tableRowHeader: string;
  /** The table's value columns, when not the series' names. */
  tableColumns?: readonly string[];
}) {
  const asideBelow = variant === 'distribution';
  let body: ReactNode;
  if (error)
    body = <QueryErrorAlert error={error} retryLabel={STATS_LABELS.tryAgain} onRetry={onRetry} />;
  else if (loading || !data) body = <Skeleton h={height} radius="md" />;
  else if (!hasValues(data))
    body = (
      <Center h={Math.min(height, EMPTY_HEIGHT)} data-testid="chart-empty">
        <Text c="dimmed" size="sm">
          {emptyText}
        </Text>
      </Center>
    );
  else
    body = (
      <Box style={{ opacity: stale ? 0.55 : 1, transition: 'opacity 150ms' }}>
        <ChartWithTable name={title} table={chartTableData(data, tableRowHeader, tableColumns)}>
          <LazyChart data={data} variant={variant} height={height} label={`${title}: ${hint}`} />
        </ChartWithTable>
      </Box>
    );

  return (
    <Paper withBorder p="md" data-testid={testId} aria-busy={loading || stale}>
      <Stack gap="sm">
        {/* The hint gets the card's whole width under the title, and a title never wraps, so
            neighbouring cards' charts start level. The aside (a count badge) sits beside the title
            of a wide time chart; in a narrow distribution card it has its own line (kept while
            the chart loads) so that it never squeezes the title. */}
        <Box>
          <Group justify="space-between" align="center" wrap="nowrap" gap={6}>
            <Title order={3} size="h5" miw={0} lineClamp={1} title={title}>
              {title}
            </Title>
            {!asideBelow && aside}
          </Group>
          <Text size="xs" c="dimmed">
            {hint}
          </Text>
          {asideBelow && (
            <Box mih={20} mt={6}>
              {aside}
            </Box>
          )}
        </Box>
        {body}
      </Stack>
    </Paper>
  );
}
