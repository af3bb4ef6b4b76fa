import { TOAST_AUTO_CLOSE_MS, formatMessage } from '@fleetdeck/contract';
import { Alert, Button, Group, Modal, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Fragment, useState, type ReactNode } from 'react';
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

/** Fills a label's `{name}` placeholders with elements, so a sentence keeps its bold parts. */
function fillElements(template: string, values: Record<string, ReactNode>): ReactNode[] {
  // split() with a capture group puts each placeholder's name at the odd indexes.
  return template
    .split(/\{(\w+)\}/)
    .map((part, index) =>
      index % 2 === 1 ? <Fragment key={index}>{values[part] ?? `{${part}}`}</Fragment> : part,
    );
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
          <Text size="sm">{L.noBackup}</Text>
        </Paper>
        {failure}
        <Group>
          <Button onClick={() => go('backup')} loading={run.isPending}>
            {L.backup}
          </Button>
        </Group>
      </Stack>
    );

  const data = backup.data;
  return (
    <Stack gap="md">
      <Text size="sm">
        {fillElements(L.backupSummary, {
          date: <strong>{formatUtc(data.created_at)}</strong>,
          clients: (
            <strong>
              {formatMessage(
                data.client_count === 1 ? L.backupClientCountOne : L.backupClientCountOther,
                { count: data.client_count },
              )}
            </strong>
          ),
          pool: (
            <Text span ff="monospace">
              {data.user_poolid}
            </Text>
          ),
        })}
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
        <Button onClick={() => setConfirming(true)}>{L.restore}</Button>
        <Button
          variant="default"
          onClick={() => go('backup')}
          loading={run.isPending && run.variables.action === 'backup'}
        >
          {L.replaceBackup}
        </Button>
      </Group>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={L.restoreConfirmTitle}
        centered
      >
        <Stack gap="md">
          <Text size="sm">
            {formatMessage(L.restoreConfirm, { date: formatUtc(data.created_at) })}
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {L.cancel}
            </Button>
            <Button
              onClick={() => go('restore')}
              loading={run.isPending && run.variables.action === 'restore'}
              data-autofocus
            >
              {L.restore}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
