import { MESSAGES, formatMessage, type StatsInfoResponse } from '@fleetdeck/contract';
import { Badge, SimpleGrid } from '@mantine/core';
import { useMemo } from 'react';
import { STATS_LABELS } from '../labels';
import { rangeSum, timeChartData } from '../model/stats-series';
import { ChartCard } from './chart-card';
import { STATS_COLORS } from './stats-colors';

const count = new Intl.NumberFormat('en-US');
const CHART_HEIGHT = 240;

function InRange({ value }: { value: number }) {
  return (
    <Badge variant="light" color="gray" radius="sm" tt="none" style={{ flex: 'none' }}>
      {formatMessage(STATS_LABELS.inRange, { count: count.format(value) })}
    </Badge>
  );
}

/** The range's charts: registrations, claims, online/offline, timed-out association requests. */
export function RangeCharts({
  stats,
  loading,
  stale,
  error,
  onRetry,
}: {
  stats: StatsInfoResponse | undefined;
  loading: boolean;
  stale: boolean;
  error: unknown;
  onRetry: () => void;
}) {
  const charts = useMemo(() => {
    if (!stats) return undefined;
    return {
      registrations: timeChartData([
        {
          series: stats.num_registered_nodes,
          name: STATS_LABELS.registeredNodes,
          color: STATS_COLORS.nodes,
          kind: 'bar',
        },
        {
          series: stats.num_registered_users,
          name: STATS_LABELS.registeredUsers,
          color: STATS_COLORS.users,
          kind: 'bar',
        },
      ]),
      claims: timeChartData([
        {
          series: stats.num_claimed_nodes,
          name: STATS_LABELS.claimedNodes,
          color: STATS_COLORS.claimed,
          kind: 'bar',
        },
      ]),
      connectivity: timeChartData([
        {
          series: stats.connectivity_history?.num_online_nodes,
          name: STATS_LABELS.online,
          color: STATS_COLORS.online,
          kind: 'line',
        },
        {
          series: stats.connectivity_history?.num_offline_nodes,
          name: STATS_LABELS.offline,
          color: STATS_COLORS.offline,
          kind: 'line',
        },
      ]),
      timedOut: timeChartData([
        {
          series: stats.num_timed_out_node_association_reqs,
          name: STATS_LABELS.timedOutRequests,
          color: STATS_COLORS.timedOut,
          kind: 'bar',
        },
      ]),
    };
  }, [stats]);

  const common = {
    variant: 'time' as const,
    height: CHART_HEIGHT,
    loading,
    stale,
    error,
    onRetry,
    emptyText: MESSAGES.noDataSelectOther,
    tableRowHeader: STATS_LABELS.tablePeriod,
  };

  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing={{ base: 'sm', md: 'md' }}>
      <ChartCard
        {...common}
        testId="chart-registrations"
        title={STATS_LABELS.chartRegistrations}
        hint={STATS_LABELS.chartRegistrationsHint}
        data={charts?.registrations}
        aside={stats && <InRange value={rangeSum(stats.num_registered_nodes)} />}
      />
      <ChartCard
        {...common}
        testId="chart-claims"
        title={STATS_LABELS.chartClaims}
        hint={STATS_LABELS.chartClaimsHint}
        data={charts?.claims}
        aside={stats && <InRange value={rangeSum(stats.num_claimed_nodes)} />}
      />
      <ChartCard
        {...common}
        testId="chart-connectivity"
        title={STATS_LABELS.chartConnectivity}
        hint={STATS_LABELS.chartConnectivityHint}
        data={charts?.connectivity}
      />
      <ChartCard
        {...common}
        testId="chart-timed-out"
        title={STATS_LABELS.chartTimedOut}
        hint={STATS_LABELS.chartTimedOutHint}
        data={charts?.timedOut}
        aside={stats && <InRange value={rangeSum(stats.num_timed_out_node_association_reqs)} />}
      />
    </SimpleGrid>
  );
}
