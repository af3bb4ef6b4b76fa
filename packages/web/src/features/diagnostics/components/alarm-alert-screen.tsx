import {
  ActionIcon,
  Anchor,
  Center,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { useActiveNodes } from '../api/active-nodes.query';
import { DIAGNOSTICS_LABELS } from '../labels';
import { formatLogTime, formatZone } from '../model/diag-dates';
import { browserTzOffsetSeconds, toEpochSeconds } from '../model/interval';
import { diagnosticsTabPath } from '../model/paths';
import { MetricChart } from './metric-chart';

const CHARTS = 4;
const METRICS_PER_CHART = 3;
const HOURS = 1;
const HEIGHT = 220;

/**
 * /home/alarmalert/ (access §2): the Multigraph page. Four charts of real fleet data: the
 * metrics of the nodes whose diagnostics arrived most recently, over the last hour.
 */
export function AlarmAlertScreen() {
  useDocumentTitle(`${DIAGNOSTICS_LABELS.multigraphHeading} · Fleetdeck`);
  const active = useActiveNodes(CHARTS, METRICS_PER_CHART);
  const [tz] = useState(() => browserTzOffsetSeconds());
  const [now, setNow] = useState(() => toEpochSeconds(Date.now()));

  let body;
  if (active.isError)
    body = (
      <QueryErrorAlert
        error={active.error}
        retryLabel={DIAGNOSTICS_LABELS.tryAgain}
        onRetry={() => void active.refetch()}
      />
    );
  else if (active.isPending)
    body = (
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        {Array.from({ length: CHARTS }, (_, i) => (
          <Skeleton key={i} h={HEIGHT + 60} radius="md" />
        ))}
      </SimpleGrid>
    );
  else if (active.data.length === 0)
    body = (
      <Center h={120}>
        <Text c="dimmed" size="sm">
          {DIAGNOSTICS_LABELS.alarmNoNodes}
        </Text>
      </Center>
    );
  else
    body = (
      <SimpleGrid cols={{ base: 1, lg: 2 }} data-testid="multigraph-charts">
        {active.data.map(({ info, metrics }) => (
          <Paper key={info.node_id} withBorder p="md" data-testid="multigraph-card">
            <Stack gap="xs">
              <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                <Stack gap={0} miw={0}>
                  <Title order={2} size="h5" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                    {info.node_id}
                  </Title>
                  <Text size="xs" c="dimmed">
                    {info.project} {info.app_version} · {formatLogTime(info.last_seen, tz)}
                  </Text>
                </Stack>
                <Anchor
                  component={Link}
                  to={diagnosticsTabPath('report', info.node_id)}
                  size="sm"
                  style={{ whiteSpace: 'nowrap' }}
                >
                  {DIAGNOSTICS_LABELS.openReport}
                </Anchor>
              </Group>
              <MetricChart
                nodeId={info.node_id}
                metricIds={metrics.map((m) => m.id)}
                hours={HOURS}
                now={now}
                tzOffset={tz}
                height={HEIGHT}
                label={info.node_id}
              />
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
    );

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} size="h2">
            {DIAGNOSTICS_LABELS.multigraphHeading}
          </Title>
          <Text c="dimmed" size="sm">
            {DIAGNOSTICS_LABELS.alarmHint}{' '}
            {DIAGNOSTICS_LABELS.timesIn.replace('{zone}', formatZone(tz))}
          </Text>
        </Stack>
        <Tooltip label={DIAGNOSTICS_LABELS.refresh}>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={DIAGNOSTICS_LABELS.refresh}
            onClick={() => {
              setNow(toEpochSeconds(Date.now()));
              void active.refetch();
            }}
          >
            <IconRefresh size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
      {body}
    </Stack>
  );
}
