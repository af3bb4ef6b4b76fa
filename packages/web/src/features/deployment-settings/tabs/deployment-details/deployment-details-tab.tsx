import type { DeploymentDetails } from '@fleetdeck/contract';
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
import { useDeploymentDetails } from '../../api/deployment-details.query';
import type { DeploymentTabProps } from '../../tab-registry';

/** The spec's fields in its order (access §3 Deployment details). */
const FIELDS: { key: keyof DeploymentDetails; label: string }[] = [
  { key: 'account_id', label: 'Account id' },
  { key: 'region', label: 'Region' },
  { key: 'build_info', label: 'Build info' },
  { key: 'base_url', label: 'Base URL' },
  { key: 'mqtt_endpoint', label: 'MQTT endpoint' },
  { key: 'user_pool_id', label: 'User pool id' },
  { key: 'app_client_id', label: 'App client id' },
];

/** Deployment Details (access §2): read-only facts of the running configuration. */
export function DeploymentDetailsTab({ emailMobileUserpool }: DeploymentTabProps) {
  const details = useDeploymentDetails(emailMobileUserpool);
  if (details.isPending) return <Skeleton height={260} />;
  if (details.isError)
    return (
      <QueryErrorAlert
        error={details.error}
        retryLabel="Retry"
        onRetry={() => void details.refetch()}
      />
    );
  const data = details.data;
  return (
    <Stack gap="sm">
      <Group gap="xs">
        {data.active_pool ? (
          <Badge color="teal" variant="light">
            Signs people in
          </Badge>
        ) : (
          <Badge color="gray" variant="light">
            Not the pool sign-ins use (USER_POOL)
          </Badge>
        )}
      </Group>
      <Table variant="vertical" layout="fixed" withTableBorder aria-label="Deployment details">
        <Table.Tbody>
          {FIELDS.map(({ key, label }) => {
            const value = String(data[key] ?? '');
            return (
              <Table.Tr key={key}>
                <Table.Th w={180}>{label}</Table.Th>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap" justify="space-between">
                    <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                      {value}
                    </Text>
                    <CopyButton value={value} timeout={1500}>
                      {({ copied, copy }) => (
                        <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
                          <ActionIcon
                            variant="subtle"
                            color={copied ? 'teal' : 'gray'}
                            onClick={copy}
                            aria-label={`Copy ${label}`}
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
      <Text size="xs" c="dimmed">
        Read from the server&apos;s configuration (PUBLIC_URL, MQTT_URL or MQTT_PORT, REGION,
        USER_POOL); change those and restart to change what is shown here.
      </Text>
    </Stack>
  );
}
