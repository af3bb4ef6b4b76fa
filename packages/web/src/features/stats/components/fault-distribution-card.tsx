import { MESSAGES, formatMessage } from '@fleetdeck/contract';
import { Badge } from '@mantine/core';
import { useMemo } from 'react';
import { useFaultCatalogue } from '../../faults/api/fault-catalogue.query';
import { useFaultDistribution } from '../../faults/api/fault-distribution.query';
import { FAULT_TYPES, type FaultTypeKey } from '../../faults/model/fault-types';
import { STATS_LABELS } from '../labels';
import { displayCodesOf, faultChartData } from '../model/fault-distribution';
import { ChartCard } from './chart-card';
import { STATS_COLORS } from './stats-colors';

const CHART_HEIGHT = 220;
const TABLE_COLUMNS = [STATS_LABELS.tableDevices];

/**
 * One appliance type's current fault codes: insights byvalue/count of its fault dimension, shown
 * with the display codes of its catalogue (the fault screens' own queries, so the cache is shared).
 */
export function FaultDistributionCard({ type }: { type: FaultTypeKey }) {
  const { listLabel } = FAULT_TYPES[type];
  const distribution = useFaultDistribution(type);
  const catalogue = useFaultCatalogue(type);
  const chart = useMemo(
    () =>
      distribution.data &&
      faultChartData(
        [...distribution.data].map(([value, count]) => ({ value, count })),
        {
          name: listLabel,
          color: STATS_COLORS.fault,
          otherLabel: STATS_LABELS.faultsOther,
          displayCodes: displayCodesOf(catalogue.data),
        },
      ),
    [distribution.data, catalogue.data, listLabel],
  );

  return (
    <ChartCard
      testId={`faults-${type}`}
      title={listLabel}
      hint={STATS_LABELS.faultsHint}
      variant="distribution"
      height={CHART_HEIGHT}
      data={chart?.data}
      loading={distribution.isPending}
      stale={false}
      error={distribution.error}
      onRetry={() => void distribution.refetch()}
      emptyText={MESSAGES.noDataFound}
      tableRowHeader={STATS_LABELS.tableFaultCode}
      tableColumns={TABLE_COLUMNS}
      aside={
        chart &&
        chart.total > 0 && (
          <Badge
            variant="light"
            color="red"
            size="sm"
            radius="sm"
            tt="none"
            style={{ flex: 'none' }}
          >
            {chart.total === 1
              ? STATS_LABELS.faultsDevice
              : formatMessage(STATS_LABELS.faultsDevices, { count: chart.total })}
          </Badge>
        )
      }
    />
  );
}
