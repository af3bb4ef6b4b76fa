import { Badge, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconChartLine, IconListDetails, IconVariable } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { DIAGNOSTICS_LABELS } from '../labels';
import { rememberLastNode } from '../model/last-node';
import { diagnosticsTabPath, tabOfPath } from '../model/paths';
import { DeviceIdSearch } from './device-id-search';
import classes from './diagnostics-layout.module.css';

/**
 * The frame of every /home/diagnostics page (access §2): 'Device Id: {id}' with a Beta tag, a
 * device-id search, and the Device Report, Graphs and Variables tabs as links.
 */
export function DiagnosticsLayout() {
  const { nodeId } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const tab = tabOfPath(pathname);
  useDocumentTitle(
    nodeId
      ? `${nodeId} · ${DIAGNOSTICS_LABELS.heading} · Fleetdeck`
      : `${DIAGNOSTICS_LABELS.heading} · Fleetdeck`,
  );

  useEffect(() => {
    if (nodeId) rememberLastNode(nodeId);
  }, [nodeId]);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Group gap="xs" align="center" miw={0}>
          <Title
            order={1}
            size="h2"
            style={{ overflowWrap: 'anywhere' }}
            data-testid="diagnostics-heading"
          >
            {nodeId
              ? DIAGNOSTICS_LABELS.deviceIdHeading.replace('{id}', nodeId)
              : DIAGNOSTICS_LABELS.heading}
          </Title>
          <Badge variant="light" color="violet" size="sm">
            {DIAGNOSTICS_LABELS.beta}
          </Badge>
        </Group>
        <DeviceIdSearch tab={tab ?? 'report'} />
      </Group>
      {nodeId && (
        <Tabs
          value={tab}
          onChange={(value) => {
            if (value === 'report' || value === 'metrics' || value === 'paramvalues')
              void navigate(diagnosticsTabPath(value, nodeId));
          }}
          keepMounted={false}
          classNames={{ tab: classes.tab }}
        >
          <Tabs.List aria-label={DIAGNOSTICS_LABELS.tabsLabel}>
            <Tabs.Tab value="report" leftSection={<IconListDetails size={16} aria-hidden="true" />}>
              {DIAGNOSTICS_LABELS.tabReport}
            </Tabs.Tab>
            <Tabs.Tab value="metrics" leftSection={<IconChartLine size={16} aria-hidden="true" />}>
              {DIAGNOSTICS_LABELS.tabGraphs}
            </Tabs.Tab>
            <Tabs.Tab
              value="paramvalues"
              leftSection={<IconVariable size={16} aria-hidden="true" />}
            >
              {DIAGNOSTICS_LABELS.tabVariables}
            </Tabs.Tab>
          </Tabs.List>
        </Tabs>
      )}
      {!nodeId && (
        <Text c="dimmed" size="sm">
          {DIAGNOSTICS_LABELS.chooseDevice}
        </Text>
      )}
      <Outlet />
    </Stack>
  );
}
