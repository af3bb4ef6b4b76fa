import { Box, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FetchingBar } from '../../../components/fetching-bar';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { faultKeys } from '../../faults/api/faults.keys';
import { FAULT_TYPE_KEYS } from '../../faults/model/fault-types';
import { useStatsInfo } from '../api/stats-info.query';
import { useStatsSummary } from '../api/stats-summary.query';
import { statsKeys } from '../api/stats.keys';
import { STATS_LABELS } from '../labels';
import {
  checkRange,
  initialDraft,
  isoDay,
  yearChoices,
  type StatsRangeDraft,
  type StatsRangeParams,
} from '../model/stats-range';
import { DeviceStatusPanel } from './device-status-panel';
import { DurationSelector } from './duration-selector';
import { FaultDistributionCard } from './fault-distribution-card';
import { RangeCharts } from './range-charts';
import { SummaryCards } from './summary-cards';
import { RefreshButton } from '../../../components/refresh-button';

/** The dashboard's heading, its line and the refresh button (also the static shell's, ADR 35). */
export function StatsDashboardHeader({
  onRefresh,
  refreshing,
}: {
  onRefresh: () => void;
  refreshing: boolean;
}) {
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap">
      <Box>
        <Title order={1} size="h2">
          {STATS_LABELS.heading}
        </Title>
        <Text c="dimmed" size="sm">
          {STATS_LABELS.subtitle}
        </Text>
      </Box>
      <RefreshButton label={STATS_LABELS.refresh} onClick={onRefresh} loading={refreshing} />
    </Group>
  );
}

/**
 * The statistics dashboard (access §2 Dashboard): the fleet now (cards, device status, current
 * fault codes) and the chosen range's series. An invalid range shows the spec's message and
 * keeps the last valid range's charts, dimmed, instead of asking the server.
 */
export function StatsDashboard({ showFaults }: { showFaults: boolean }) {
  useDocumentTitle(`${STATS_LABELS.heading} · Fleetdeck`);
  const queryClient = useQueryClient();
  const [now] = useState(() => new Date());
  const [draft, setDraft] = useState<StatsRangeDraft>(() => initialDraft(now));
  const [applied, setApplied] = useState<StatsRangeParams>(() => {
    const check = checkRange(initialDraft(now));
    return check.ok ? check.params : {};
  });
  const check = checkRange(draft);

  const summary = useStatsSummary();
  const stats = useStatsInfo(applied);

  const changeRange = (next: StatsRangeDraft) => {
    setDraft(next);
    const result = checkRange(next);
    if (result.ok) setApplied(result.params);
  };

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: statsKeys.all });
    if (showFaults) void queryClient.invalidateQueries({ queryKey: faultKeys.distributions() });
  };

  return (
    <Stack gap="lg" data-testid="stats-dashboard">
      <StatsDashboardHeader
        onRefresh={refresh}
        refreshing={summary.isRefetching || (stats.isFetching && !stats.isPending)}
      />

      {summary.isError && (
        <QueryErrorAlert
          error={summary.error}
          retryLabel={STATS_LABELS.tryAgain}
          onRetry={() => void summary.refetch()}
        />
      )}
      <SummaryCards summary={summary.data} stale={summary.isError} />

      <SimpleGrid
        cols={{ base: 1, sm: 2, lg: showFaults ? 4 : 1 }}
        spacing={{ base: 'sm', md: 'md' }}
      >
        <DeviceStatusPanel summary={summary.data} />
        {showFaults &&
          FAULT_TYPE_KEYS.map((type) => <FaultDistributionCard key={type} type={type} />)}
      </SimpleGrid>

      <Paper withBorder p={0} data-testid="stats-range">
        <Box p="md">
          <Title order={2} size="h4" mb="sm">
            {STATS_LABELS.statistics}
          </Title>
          <DurationSelector
            draft={draft}
            onChange={changeRange}
            years={yearChoices(now)}
            today={isoDay(now)}
            message={check.ok ? null : check.message}
          />
        </Box>
        <FetchingBar active={stats.isFetching} label={STATS_LABELS.loadingStatistics} />
      </Paper>

      <RangeCharts
        stats={stats.data}
        loading={stats.isPending}
        stale={stats.isPlaceholderData || !check.ok}
        error={stats.isError ? stats.error : null}
        onRetry={() => void stats.refetch()}
      />
    </Stack>
  );
}
