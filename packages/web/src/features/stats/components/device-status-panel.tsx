import type { StatsSummary } from '@fleetdeck/contract';
import { formatMessage } from '@fleetdeck/contract';
import {
  Box,
  Center,
  Group,
  Paper,
  RingProgress,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { STATS_LABELS } from '../labels';
import { STATS_COLORS } from './stats-colors';

const count = new Intl.NumberFormat('en-US');

function Row({ color, label, value }: { color: string; label: string; value: number | undefined }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Group gap={8} wrap="nowrap">
        <Box w={10} h={10} style={{ borderRadius: 3, background: color, flex: 'none' }} />
        <Text size="sm">{label}</Text>
      </Group>
      {value === undefined ? (
        <Skeleton h={14} w={40} />
      ) : (
        <Text size="sm" fw={600}>
          {count.format(value)}
        </Text>
      )}
    </Group>
  );
}

/**
 * Device status (access §2): online, offline and total certificates generated, with a ring of
 * the fleet's share online. Devices registered but never connected are the ring's grey part.
 */
export function DeviceStatusPanel({ summary }: { summary: StatsSummary | undefined }) {
  const certificates = summary?.num_certificates_generated;
  const base = Math.max(certificates ?? 0, 1);
  const online = summary ? (summary.num_online_nodes / base) * 100 : 0;
  const offline = summary ? (summary.num_offline_nodes / base) * 100 : 0;
  const percent = summary ? Math.round(online) : undefined;

  return (
    <Paper withBorder p="md" h="100%" data-testid="device-status">
      <Title order={2} size="h5" mb="sm">
        {STATS_LABELS.deviceStatus}
      </Title>
      <Stack gap="sm">
        <Center>
          {summary ? (
            <RingProgress
              size={132}
              thickness={14}
              roundCaps={false}
              sections={[
                { value: online, color: STATS_COLORS.online, tooltip: STATS_LABELS.online },
                { value: offline, color: STATS_COLORS.offline, tooltip: STATS_LABELS.offline },
              ]}
              rootColor={STATS_COLORS.notActivated}
              label={
                <Text ta="center" fw={700} fz={22} lh={1}>
                  {percent}%
                  <Text component="span" display="block" size="xs" c="dimmed" fw={500} mt={4}>
                    {STATS_LABELS.online}
                  </Text>
                </Text>
              }
              role="img"
              aria-label={formatMessage(STATS_LABELS.ofFleetOnline, { percent: percent ?? 0 })}
            />
          ) : (
            <Skeleton circle h={132} />
          )}
        </Center>
        <Stack gap={6}>
          <Row
            color={STATS_COLORS.online}
            label={STATS_LABELS.online}
            value={summary?.num_online_nodes}
          />
          <Row
            color={STATS_COLORS.offline}
            label={STATS_LABELS.offline}
            value={summary?.num_offline_nodes}
          />
          <Row
            color={STATS_COLORS.nodes}
            label={STATS_LABELS.certificatesGenerated}
            value={certificates}
          />
        </Stack>
      </Stack>
    </Paper>
  );
}
