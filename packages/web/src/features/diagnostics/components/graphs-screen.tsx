import { MAX_GRAPHS } from '@fleetdeck/contract';
import { ActionIcon, Button, Center, Group, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { useInterval } from '@mantine/hooks';
import { IconPlus, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { diagnosticsKeys } from '../api/diagnostics.keys';
import { useMetricMeta } from '../api/metric-meta.query';
import { isNoDiagnosticsError } from '../api/node-info.query';
import { DIAGNOSTICS_LABELS } from '../labels';
import { formatZone } from '../model/diag-dates';
import {
  addGraph,
  canAddGraph,
  graphStorageKey,
  parseGraphs,
  removeGraph,
  serializeGraphs,
  updateGraph,
  type GraphConfig,
} from '../model/graph-selection';
import { browserTzOffsetSeconds, toEpochSeconds } from '../model/interval';
import { GraphCard } from './graph-card';
import { NoDiagnostics } from './no-diagnostics';

/** How often the graphs move on to "now" while the tab is open. */
const FOLLOW_NOW_MS = 60_000;

function readStored(nodeId: string): readonly GraphConfig[] {
  try {
    return parseGraphs(localStorage.getItem(graphStorageKey(nodeId)));
  } catch {
    return parseGraphs(null);
  }
}

/** The node's graphs, remembered in localStorage on every change. */
function useStoredGraphs(nodeId: string) {
  const [graphs, setGraphs] = useState(() => readStored(nodeId));
  useEffect(() => {
    try {
      localStorage.setItem(graphStorageKey(nodeId), serializeGraphs(graphs));
    } catch {
      // Full or disabled storage only costs the memory of the selection.
    }
  }, [nodeId, graphs]);
  return [graphs, setGraphs] as const;
}

/**
 * Graphs (access §2): up to 5 graphs of the node's metrics over the last 1–24 hours; 'Add Graph'
 * is disabled at 5 graphs or when the node describes no metrics.
 */
export function GraphsScreen({ nodeId }: { nodeId: string }) {
  const queryClient = useQueryClient();
  const meta = useMetricMeta(nodeId);
  const [graphs, setGraphs] = useStoredGraphs(nodeId);
  const [tz] = useState(() => browserTzOffsetSeconds());
  const [now, setNow] = useState(() => toEpochSeconds(Date.now()));
  useInterval(() => setNow(toEpochSeconds(Date.now())), FOLLOW_NOW_MS, { autoInvoke: true });

  const metrics = meta.data?.metrics ?? [];
  const hasMetadata = metrics.length > 0;

  if (meta.isError && isNoDiagnosticsError(meta.error)) return <NoDiagnostics />;
  if (meta.isError)
    return (
      <QueryErrorAlert
        error={meta.error}
        retryLabel={DIAGNOSTICS_LABELS.tryAgain}
        onRetry={() => void meta.refetch()}
      />
    );

  const refresh = () => {
    setNow(toEpochSeconds(Date.now()));
    void queryClient.invalidateQueries({ queryKey: diagnosticsKeys.node(nodeId) });
  };

  return (
    <Stack gap="md" data-testid="graphs">
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed">
          {DIAGNOSTICS_LABELS.timesIn.replace('{zone}', formatZone(tz))}
          {graphs.length >= MAX_GRAPHS &&
            ` · ${DIAGNOSTICS_LABELS.maxGraphsHint.replace('{n}', String(MAX_GRAPHS))}`}
        </Text>
        <Group gap="xs">
          <Tooltip label={DIAGNOSTICS_LABELS.refresh}>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={DIAGNOSTICS_LABELS.refresh}
              onClick={refresh}
            >
              <IconRefresh size={16} />
            </ActionIcon>
          </Tooltip>
          <Button
            leftSection={<IconPlus size={16} aria-hidden="true" />}
            disabled={!canAddGraph(graphs, hasMetadata)}
            onClick={() => setGraphs(addGraph)}
          >
            {DIAGNOSTICS_LABELS.addGraph}
          </Button>
        </Group>
      </Group>
      {meta.isPending ? (
        <Skeleton h={320} radius="md" />
      ) : !hasMetadata ? (
        <Center h={120} data-testid="graphs-no-meta">
          <Text c="dimmed" size="sm">
            {DIAGNOSTICS_LABELS.graphsEmptyMeta}
          </Text>
        </Center>
      ) : (
        graphs.map((graph, index) => (
          <GraphCard
            key={graph.id}
            nodeId={nodeId}
            graph={graph}
            index={index}
            metrics={metrics}
            now={now}
            tzOffset={tz}
            removable={graphs.length > 1}
            onChange={(change) => setGraphs((current) => updateGraph(current, graph.id, change))}
            onRemove={() => setGraphs((current) => removeGraph(current, graph.id))}
          />
        ))
      )}
    </Stack>
  );
}
