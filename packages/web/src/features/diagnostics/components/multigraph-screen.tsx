import { GRAPH_RANGE_DEFAULT_HOURS } from '@fleetdeck/contract';
import { Center, Skeleton, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { useMetricMeta } from '../api/metric-meta.query';
import { isNoDiagnosticsError } from '../api/node-info.query';
import { DIAGNOSTICS_LABELS } from '../labels';
import { newGraph, updateGraph, type GraphConfig } from '../model/graph-selection';
import { browserTzOffsetSeconds, toEpochSeconds } from '../model/interval';
import { GraphCard } from './graph-card';
import { NoDiagnostics } from './no-diagnostics';

/** Metrics drawn at first: enough to compare, few enough to read. */
const FIRST_METRICS = 4;

/**
 * /home/diagnostics/multigraph1/{node_id} (access §2): several metrics of one node on one chart,
 * starting with its first few metrics over the last hour.
 */
export function MultigraphScreen({ nodeId }: { nodeId: string }) {
  const meta = useMetricMeta(nodeId);
  const [tz] = useState(() => browserTzOffsetSeconds());
  const [now] = useState(() => toEpochSeconds(Date.now()));
  const [graph, setGraph] = useState<GraphConfig | null>(null);

  if (meta.isError && isNoDiagnosticsError(meta.error)) return <NoDiagnostics />;
  if (meta.isError)
    return (
      <QueryErrorAlert
        error={meta.error}
        retryLabel={DIAGNOSTICS_LABELS.tryAgain}
        onRetry={() => void meta.refetch()}
      />
    );
  if (meta.isPending) return <Skeleton h={360} radius="md" />;
  const metrics = meta.data.metrics;
  if (metrics.length === 0)
    return (
      <Center h={120}>
        <Text c="dimmed" size="sm">
          {DIAGNOSTICS_LABELS.graphsEmptyMeta}
        </Text>
      </Center>
    );

  const shown = graph ?? {
    ...newGraph(1),
    rangeHours: GRAPH_RANGE_DEFAULT_HOURS,
    metricIds: metrics.slice(0, FIRST_METRICS).map((m) => m.id),
  };
  return (
    <Stack gap="sm" data-testid="multigraph">
      <Text size="sm" c="dimmed">
        {DIAGNOSTICS_LABELS.multigraphHint}
      </Text>
      <GraphCard
        nodeId={nodeId}
        graph={shown}
        index={0}
        title={DIAGNOSTICS_LABELS.multigraph}
        metrics={metrics}
        now={now}
        tzOffset={tz}
        removable={false}
        onChange={(change) => setGraph(updateGraph([shown], shown.id, change)[0] ?? shown)}
        onRemove={() => undefined}
      />
    </Stack>
  );
}
