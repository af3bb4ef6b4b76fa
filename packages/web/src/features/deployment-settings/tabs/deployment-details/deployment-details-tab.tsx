import { formatMessage, type DeploymentDetails } from '@fleetdeck/contract';
import {
  ActionIcon,
  Badge,
  CopyButton,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { QueryErrorAlert } from '../../../../components/query-error-alert';
import { TableScrollRegion } from '../../../../components/table-scroll-region';
import { useDeploymentDetails } from '../../api/deployment-details.query';
import { DEPLOYMENT_LABELS as L } from '../../labels';
import type { DeploymentTabProps } from '../../tab-registry';

/** The spec's fields in its order (access §3 Deployment details). */
const FIELDS: { key: keyof DeploymentDetails; label: string }[] = [
  { key: 'account_id', label: L.fieldAccountId },
  { key: 'region', label: L.fieldRegion },
  { key: 'build_info', label: L.fieldBuildInfo },
  { key: 'base_url', label: L.fieldBaseUrl },
  { key: 'mqtt_endpoint', label: L.fieldMqttEndpoint },
  { key: 'user_pool_id', label: L.fieldUserPoolId },
  { key: 'app_client_id', label: L.fieldAppClientId },
];

/** Deployment Details (access §2): read-only facts of the running configuration. */
export function DeploymentDetailsTab({ emailMobileUserpool }: DeploymentTabProps) {
  const details = useDeploymentDetails(emailMobileUserpool);
  if (details.isPending) return <Skeleton height={260} />;
  if (details.isError)
    return (
      <QueryErrorAlert
        error={details.error}
        retryLabel={L.retry}
        onRetry={() => void details.refetch()}
      />
    );
  const data = details.data;
  return (
    <Stack gap="sm">
      <Group gap="xs">
        {data.active_pool ? (
          <Badge color="teal" variant="light">
            {L.poolSignsIn}
          </Badge>
        ) : (
          <Badge color="gray" variant="light">
            {L.poolNotSigningIn}
          </Badge>
        )}
      </Group>
      {/* The values wrap, so the table fits a phone; a very narrow window scrolls it. */}
      <TableScrollRegion label={L.deploymentDetailsTable} minWidth={300}>
        <Table
          variant="vertical"
          layout="fixed"
          withTableBorder
          aria-label={L.deploymentDetailsTable}
        >
          <Table.Tbody>
            {FIELDS.map(({ key, label }) => {
              const value = String(data[key] ?? '');
              return (
                <Table.Tr key={key}>
                  <Table.Th w={{ base: 120, sm: 180 }}>{label}</Table.Th>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap" justify="space-between">
                      <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                        {value}
                      </Text>
                      <CopyButton value={value} timeout={1500}>
                        {({ copied, copy }) => (
                          <Tooltip label={copied ? L.copied : L.copy} withArrow>
                            <ActionIcon
                              variant="subtle"
                              color={copied ? 'teal' : 'gray'}
                              onClick={copy}
                              aria-label={formatMessage(L.copyNamed, { name: label })}
                            >
                              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                            </ActionIcon>
                          </Tooltip>
                        )}
                      </CopyButton>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </TableScrollRegion>
      <Text size="xs" c="dimmed">
        {L.detailsSource}
      </Text>
    </Stack>
  );
}
