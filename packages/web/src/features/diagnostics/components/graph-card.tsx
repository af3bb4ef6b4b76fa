import type { MetricMeta } from '@fleetdeck/contract';
import {
  ActionIcon,
  Group,
  MultiSelect,
  Paper,
  Select,
  Stack,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useMemo } from 'react';
import { DIAGNOSTICS_LABELS } from '../labels';
import { GRAPH_RANGE_HOURS } from '../model/graph-range';
import type { GraphConfig } from '../model/graph-selection';
import { MetricChart } from './metric-chart';

const HEIGHT = 260;

export function rangeLabel(hours: number): string {
  return hours === 1
    ? DIAGNOSTICS_LABELS.rangeHour
    : DIAGNOSTICS_LABELS.rangeHours.replace('{n}', String(hours));
}

const RANGE_OPTIONS = GRAPH_RANGE_HOURS.map((hours) => ({
  value: String(hours),
  label: rangeLabel(hours),
}));

/** The picker's options: metrics grouped by their path (heap, Wi-Fi, appliance), with units. */
export function metricOptions(metrics: readonly MetricMeta[]) {
  const groups = new Map<string, { value: string; label: string }[]>();
  for (const metric of metrics) {
    const root = metric.path?.split('.')[0] || metric.id.split('.')[0] || metric.id;
    const group = root.charAt(0).toUpperCase() + root.slice(1);
    const items = groups.get(group) ?? [];
    items.push({
      value: metric.id,
      label: metric.unit ? `${metric.label} (${metric.unit})` : metric.label,
    });
    groups.set(group, items);
  }
  return [...groups.entries()].map(([group, items]) => ({ group, items }));
}

/** One graph of the Graphs tab: its metrics, its range and the chart of their points. */
export function GraphCard({
  nodeId,
  graph,
  index,
  title: givenTitle,
  metrics,
  now,
  tzOffset,
  removable,
  onChange,
  onRemove,
}: {
  nodeId: string;
  graph: GraphConfig;
  index: number;
  /** Defaults to 'Graph {n}'. */
  title?: string;
  metrics: readonly MetricMeta[];
  now: number;
  tzOffset: number;
  removable: boolean;
  onChange: (change: Partial<Omit<GraphConfig, 'id'>>) => void;
  onRemove: () => void;
}) {
  const available = useMemo(() => new Set(metrics.map((m) => m.id)), [metrics]);
  const selected = graph.metricIds.filter((id) => available.has(id));
  const title = givenTitle ?? DIAGNOSTICS_LABELS.graphTitle.replace('{n}', String(index + 1));

  return (
    <Paper
      withBorder
      p="md"
      data-testid={`graph-${graph.id}`}
      aria-label={title}
      component="section"
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end" gap="sm">
          <Title order={2} size="h5">
            {title}
          </Title>
          {removable && (
            <Tooltip label={DIAGNOSTICS_LABELS.removeGraph.replace('{n}', String(index + 1))}>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={DIAGNOSTICS_LABELS.removeGraph.replace('{n}', String(index + 1))}
                onClick={onRemove}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
        <Group gap="sm" align="flex-end" wrap="wrap">
          {/* Compact like the device id search above the graphs (the theme's inputs are md). */}
          <MultiSelect
            size="sm"
            style={{ flex: '1 1 320px' }}
            label={DIAGNOSTICS_LABELS.metricsLabel}
            placeholder={selected.length === 0 ? DIAGNOSTICS_LABELS.metricsPlaceholder : undefined}
            data={metricOptions(metrics)}
            value={selected}
            onChange={(metricIds) => onChange({ metricIds })}
            searchable
            clearable
            maxDropdownHeight={320}
            comboboxProps={{ withinPortal: true }}
            data-testid="metric-picker"
          />
          <Select
            size="sm"
            w={160}
            label={DIAGNOSTICS_LABELS.rangeLabel}
            data={RANGE_OPTIONS}
            value={String(graph.rangeHours)}
            onChange={(value) => {
              if (value !== null) onChange({ rangeHours: Number(value) });
            }}
            allowDeselect={false}
            data-testid="range-picker"
          />
        </Group>
        <MetricChart
          nodeId={nodeId}
          metricIds={selected}
          hours={graph.rangeHours}
          now={now}
          tzOffset={tzOffset}
          height={HEIGHT}
          label={`${title}, ${rangeLabel(graph.rangeHours)}`}
        />
      </Stack>
    </Paper>
  );
}
