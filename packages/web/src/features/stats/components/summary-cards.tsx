import type { StatsSummary } from '@fleetdeck/contract';
import { Group, Paper, SimpleGrid, Skeleton, Text, ThemeIcon } from '@mantine/core';
import {
  IconCircleCheck,
  IconDevices,
  IconPlugConnectedX,
  IconUserCheck,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { STATS_LABELS } from '../labels';
import { STATS_COLORS } from './stats-colors';

const count = new Intl.NumberFormat('en-US');

interface CardSpec {
  key: keyof StatsSummary;
  label: string;
  color: string;
  icon: Icon;
  testId: string;
}

const CARDS: readonly CardSpec[] = [
  {
    key: 'num_online_nodes',
    label: STATS_LABELS.onlineNow,
    color: STATS_COLORS.online,
    icon: IconCircleCheck,
    testId: 'stat-online',
  },
  {
    key: 'num_offline_nodes',
    label: STATS_LABELS.offlineNow,
    color: STATS_COLORS.offline,
    icon: IconPlugConnectedX,
    testId: 'stat-offline',
  },
  {
    key: 'num_registered_users',
    label: STATS_LABELS.registeredUsers,
    color: STATS_COLORS.users,
    icon: IconUsers,
    testId: 'stat-registered-users',
  },
  {
    key: 'num_registered_nodes',
    label: STATS_LABELS.registeredNodes,
    color: STATS_COLORS.nodes,
    icon: IconDevices,
    testId: 'stat-registered-nodes',
  },
  {
    key: 'num_claimed_nodes',
    label: STATS_LABELS.claimedNodes,
    color: STATS_COLORS.claimed,
    icon: IconUserCheck,
    testId: 'stat-claimed-nodes',
  },
];

/** The fleet now: five figures an operator reads first. */
export function SummaryCards({
  summary,
  stale,
}: {
  summary: StatsSummary | undefined;
  stale: boolean;
}) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing={{ base: 'sm', md: 'md' }}>
      {CARDS.map((card) => (
        <Paper
          key={card.key}
          withBorder
          p="md"
          data-testid={card.testId}
          style={{ opacity: stale ? 0.6 : 1, transition: 'opacity 150ms' }}
        >
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <Text size="sm" c="dimmed" fw={500} lh={1.3}>
              {card.label}
            </Text>
            <ThemeIcon variant="light" color={card.color} size={30} radius="md" aria-hidden="true">
              <card.icon size={18} stroke={1.8} />
            </ThemeIcon>
          </Group>
          {summary ? (
            <Text fz={28} fw={700} lh={1.2} mt={6} data-testid="stat-value">
              {count.format(summary[card.key])}
            </Text>
          ) : (
            <Skeleton h={28} w="55%" mt={8} mb={2} />
          )}
        </Paper>
      ))}
    </SimpleGrid>
  );
}
