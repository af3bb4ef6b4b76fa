import type { LogCounts, NodeDiagnosticsInfo } from '@fleetdeck/contract';
import { Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { DIAGNOSTICS_LABELS } from '../labels';
import { LOG_TYPE_STYLE, TIMELINE_TYPES, type TimelineLogType } from '../model/chart-options';
import { formatLogTime } from '../model/diag-dates';

const COUNT_LABELS: Record<TimelineLogType, string> = {
  crash: DIAGNOSTICS_LABELS.countCrash,
  reboot: DIAGNOSTICS_LABELS.countReboot,
  error: DIAGNOSTICS_LABELS.countError,
  warning: DIAGNOSTICS_LABELS.countWarning,
  event: DIAGNOSTICS_LABELS.countEvent,
};

function Field({ label, value }: { label: string; value: string | undefined }) {
  return (
    <Stack gap={0} miw={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {value || DIAGNOSTICS_LABELS.unknownValue}
      </Text>
    </Stack>
  );
}

/** Device info (project, app_version) from /node/info. */
export function DeviceInfoCard({
  info,
  tzOffset,
}: {
  info: NodeDiagnosticsInfo | undefined;
  tzOffset: number;
}) {
  return (
    <Paper withBorder p="md" data-testid="device-info">
      <Stack gap="sm">
        <Title order={2} size="h5">
          {DIAGNOSTICS_LABELS.deviceInfo}
        </Title>
        {info === undefined ? (
          <Skeleton h={40} />
        ) : (
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
            <Field label={DIAGNOSTICS_LABELS.project} value={info.project} />
            <Field label={DIAGNOSTICS_LABELS.appVersion} value={info.app_version} />
            <Field
              label={DIAGNOSTICS_LABELS.lastSeen}
              value={formatLogTime(info.last_seen, tzOffset)}
            />
          </SimpleGrid>
        )}
      </Stack>
    </Paper>
  );
}

/** The five event counts of the window, each in its timeline colour. */
export function EventCounts({ counts, stale }: { counts: LogCounts | undefined; stale: boolean }) {
  return (
    <Paper withBorder p="md" data-testid="event-counts" aria-busy={stale}>
      <Stack gap="sm">
        <Title order={2} size="h5">
          {DIAGNOSTICS_LABELS.eventCounts}
        </Title>
        <SimpleGrid cols={{ base: 3, xs: 5 }} spacing="sm" style={{ opacity: stale ? 0.55 : 1 }}>
          {TIMELINE_TYPES.map((type) => (
            <Stack key={type} gap={0} data-testid={`count-${type}`}>
              <Group gap={6} wrap="nowrap">
                <span
                  aria-hidden="true"
                  style={{
                    width: 8,
                    height: 8,
                    borderRadius: 2,
                    background: LOG_TYPE_STYLE[type].color,
                    flex: 'none',
                  }}
                />
                <Text size="xs" c="dimmed">
                  {COUNT_LABELS[type]}
                </Text>
              </Group>
              {counts === undefined ? (
                <Skeleton h={28} w={40} mt={2} />
              ) : (
                <Text fz={24} fw={600} lh={1.2} data-testid={`count-${type}-value`}>
                  {counts[type]}
                </Text>
              )}
            </Stack>
          ))}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
