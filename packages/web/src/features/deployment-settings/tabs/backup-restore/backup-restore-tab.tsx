import { TOAST_AUTO_CLOSE_MS } from '@fleetdeck/contract';
import { Alert, Button, Group, Modal, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { QueryErrorAlert } from '../../../../components/query-error-alert';
import { TableScrollRegion } from '../../../../components/table-scroll-region';
import { errorMessage } from '../../../../lib/api-error';
import { useAppClientBackup, useRunAppClientBackup } from '../../api/backup.query';
import { DEPLOYMENT_LABELS as L } from '../../labels';
import type { DeploymentTabProps } from '../../tab-registry';

/** Epoch seconds as DD MMM YY HH:mm in UTC (access §9). */
export function formatUtc(seconds: number): string {
  const date = new Date(seconds * 1000);
  const day = String(date.getUTCDate()).padStart(2, '0');
  const month = date.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' });
  const year = String(date.getUTCFullYear()).slice(-2);
  const time = `${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`;
  return `${day} ${month} ${year} ${time} UTC`;
}

/**
 * Backup & Restore (access §2, §4): with no backup, offer Backup; otherwise list the backup and
 * offer Restore, which puts the pool's app clients back exactly as they were.
 */
export function BackupRestoreTab({ emailMobileUserpool }: DeploymentTabProps) {
  const backup = useAppClientBackup(emailMobileUserpool);
  const run = useRunAppClientBackup();
  const [confirming, setConfirming] = useState(false);

  const go = (action: 'backup' | 'restore') =>
    run.mutate(
      { emailMobileUserpool, action },
      {
        onSuccess: (answer) => {
          setConfirming(false);
          notifications.show({
            color: 'fleet',
            message: answer.description,
            autoClose: TOAST_AUTO_CLOSE_MS,
          });
        },
      },
    );

  if (backup.isPending) return <Skeleton height={120} />;
  if (backup.isError)
    return (
      <QueryErrorAlert
        error={backup.error}
        retryLabel={L.retry}
        onRetry={() => void backup.refetch()}
      />
    );

  const failure = run.error && (
    <Alert color="red" variant="light" role="alert">
      {errorMessage(run.error)}
    </Alert>
  );

  if (backup.data === null)
    return (
      <Stack gap="md">
        <Paper withBorder p="md" bg="var(--mantine-color-gray-0)">
          <Text size="sm">
            There is no backup of this pool&apos;s app-client configuration yet. A backup keeps
            every app client with its callback URLs and identity providers, so they can be put back
            exactly.
          </Text>
        </Paper>
        {failure}
        <Group>
          <Button onClick={() => go('backup')} loading={run.isPending}>
            Backup
          </Button>
        </Group>
      </Stack>
    );

  const data = backup.data;
  return (
    <Stack gap="md">
      <Text size="sm">
        Backup taken <strong>{formatUtc(data.created_at)}</strong> with{' '}
        <strong>
          {data.client_count} app client{data.client_count === 1 ? '' : 's'}
        </strong>{' '}
        of user pool{' '}
        <Text span ff="monospace">
          {data.user_poolid}
        </Text>
        .
      </Text>
      <TableScrollRegion label={L.backedUpClientsTable} minWidth={600}>
        <Table verticalSpacing="sm" aria-label={L.backedUpClientsTable}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{L.columnClientId}</Table.Th>
              <Table.Th>{L.columnClientName}</Table.Th>
              <Table.Th>{L.columnCallbackUrls}</Table.Th>
              <Table.Th>{L.columnIdentityProviders}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.app_clients.map((client) => (
              <Table.Tr key={client.client_id}>
                <Table.Td ff="monospace" style={{ wordBreak: 'break-all' }}>
                  {client.client_id}
                </Table.Td>
                <Table.Td>{client.client_name}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>
                  {client.callback_urls.join(', ')}
                </Table.Td>
                <Table.Td>{client.identity_providers.join(', ') || L.noValue}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScrollRegion>
      {failure}
      <Group gap="sm">
        <Button onClick={() => setConfirming(true)}>Restore</Button>
        <Button
          variant="default"
          onClick={() => go('backup')}
          loading={run.isPending && run.variables.action === 'backup'}
        >
          Replace with a new backup
        </Button>
      </Group>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Restore the app clients?"
        centered
      >
        <Stack gap="md">
          <Text size="sm">
            The pool&apos;s app clients become exactly those of the backup taken{' '}
            {formatUtc(data.created_at)}. Changes made since then are lost.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button
              onClick={() => go('restore')}
              loading={run.isPending && run.variables.action === 'restore'}
              data-autofocus
            >
              Restore
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
