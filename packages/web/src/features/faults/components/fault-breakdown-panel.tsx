import { formatMessage, type FaultBreakdown, type FaultBucket } from '@fleetdeck/contract';
import { Alert, Box, Group, Paper, Progress, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { FAULT_LABELS } from '../labels';
import {
  breakdownRows,
  formatShare,
  standOut,
  strongestStandOut,
  type BreakdownRow,
} from '../model/breakdown';

interface Dimension {
  key: 'by_fw_version' | 'by_model' | 'by_city';
  label: string;
  /** The call-out when one value holds most devices ("90% … run firmware 2.1.0."). */
  insight: string;
}

const DIMENSIONS: readonly Dimension[] = [
  {
    key: 'by_fw_version',
    label: FAULT_LABELS.breakdownFirmware,
    insight: FAULT_LABELS.insightFirmware,
  },
  { key: 'by_model', label: FAULT_LABELS.breakdownModel, insight: FAULT_LABELS.insightModel },
  { key: 'by_city', label: FAULT_LABELS.breakdownCity, insight: FAULT_LABELS.insightCity },
];

const valueText = (value: string) => (value === '' ? FAULT_LABELS.breakdownUnknown : value);

function BreakdownBars({
  dimension,
  rows,
  total,
  highlight,
}: {
  dimension: Dimension;
  rows: readonly BreakdownRow[];
  total: number;
  highlight: string | undefined;
}) {
  const headingId = `fault-breakdown-${dimension.key}`;
  return (
    <Stack gap={6} component="section" aria-labelledby={headingId}>
      <Text id={headingId} fw={600} size="sm">
        {dimension.label}
      </Text>
      <Stack gap={8} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {rows.map((row) => {
          const label =
            row.value === undefined
              ? formatMessage(FAULT_LABELS.breakdownOther, { count: row.folded ?? 0 })
              : valueText(row.value);
          const share = formatMessage(FAULT_LABELS.breakdownShare, {
            count: row.count,
            total,
            percent: formatShare(row.share),
          });
          const strong = row.value !== undefined && row.value === highlight;
          return (
            <li key={row.value ?? '…'} data-value={row.value ?? ''}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text
                  size="sm"
                  fw={strong ? 700 : 400}
                  c={row.value === undefined ? 'dimmed' : undefined}
                  truncate
                  title={label}
                >
                  {label}
                </Text>
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {row.count} · {formatShare(row.share)}
                </Text>
              </Group>
              <Progress
                value={row.share * 100}
                size="sm"
                radius="xl"
                color={strong ? 'red' : row.value === undefined ? 'gray' : 'fleet'}
                aria-label={`${label}: ${share}`}
              />
            </li>
          );
        })}
      </Stack>
    </Stack>
  );
}

/**
 * How the devices reporting a fault split by firmware version, model and city: one bar per value,
 * largest first, the long tail folded. A value holding most of them is called out, which is what
 * tells an operator that a firmware release (or a model, or a city) is behind the fault.
 */
export function FaultBreakdownPanel({
  code,
  breakdown,
  isPending,
  error,
  onRetry,
}: {
  code: string;
  breakdown: FaultBreakdown | undefined;
  isPending: boolean;
  error: unknown;
  onRetry: () => void;
}) {
  const total = breakdown?.total ?? 0;
  const dimensions = DIMENSIONS.map((dimension) => {
    const buckets: readonly FaultBucket[] = breakdown?.[dimension.key] ?? [];
    const rows = breakdownRows(buckets, total);
    return { dimension, rows, insight: standOut(rows) };
  });
  const callOut = strongestStandOut(
    dimensions.map(({ dimension, insight }) => ({ key: dimension.key, insight })),
  );
  const calledOut = DIMENSIONS.find((dimension) => dimension.key === callOut?.key);

  return (
    <Paper withBorder radius="lg" p="md" data-testid="fault-breakdown" component="aside">
      <Stack gap="md">
        <Box>
          <Title order={2} size="h4">
            {FAULT_LABELS.breakdownHeading}
          </Title>
          <Text size="sm" c="dimmed">
            {formatMessage(FAULT_LABELS.breakdownSubtitle, { code })}
          </Text>
        </Box>
        {error !== null && error !== undefined ? (
          <QueryErrorAlert error={error} retryLabel={FAULT_LABELS.tryAgain} onRetry={onRetry} />
        ) : isPending ? (
          <Stack gap="sm" aria-busy="true">
            {Array.from({ length: 6 }, (_, index) => (
              <Skeleton key={index} height={index % 2 === 0 ? 12 : 8} radius="sm" />
            ))}
          </Stack>
        ) : total === 0 ? (
          <Text size="sm" c="dimmed" data-testid="fault-breakdown-empty">
            {FAULT_LABELS.breakdownEmpty}
          </Text>
        ) : (
          <>
            {callOut !== undefined && calledOut !== undefined && (
              <Alert
                color="red"
                variant="light"
                p="xs"
                icon={<IconAlertTriangle size={16} aria-hidden="true" />}
                data-testid="fault-insight"
              >
                <Text size="sm">
                  {formatMessage(calledOut.insight, {
                    percent: formatShare(callOut.insight.share),
                    value: valueText(callOut.insight.value),
                  })}
                </Text>
              </Alert>
            )}
            {dimensions.map(({ dimension, rows }) => (
              <BreakdownBars
                key={dimension.key}
                dimension={dimension}
                rows={rows}
                total={total}
                highlight={callOut?.key === dimension.key ? callOut.insight.value : undefined}
              />
            ))}
          </>
        )}
      </Stack>
    </Paper>
  );
}
