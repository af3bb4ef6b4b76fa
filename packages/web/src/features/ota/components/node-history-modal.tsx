import { formatMessage } from '@fleetdeck/contract';
import { Modal, Skeleton, Table, Text } from '@mantine/core';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { useNodeHistory } from '../api/node-history.query';
import { OTA_LABELS } from '../labels';
import { formatListDate } from '../model/job-dates';
import type { JobModeConfig } from '../model/job-mode';
import { ExecutionStatusBadge } from './job-status-badge';
import { TableScrollRegion, tableScrollRegion } from '../../../components/table-scroll-region';

/**
 * One node's status history in a job (fleet-management §2 Job details), in the server's order:
 * newest first, reports of the same second latest-stored first. The rows are never re-sorted
 * here: the times are shown to the minute, so no sort on them could restore that order.
 */
export function NodeHistoryModal({
  otaJobId,
  nodeId,
  mode,
  onClose,
}: {
  otaJobId: string;
  nodeId: string | null;
  mode: JobModeConfig;
  onClose: () => void;
}) {
  const query = useNodeHistory(otaJobId, nodeId);
  const entries = query.data;
  return (
    <Modal
      opened={nodeId !== null}
      onClose={onClose}
      title={formatMessage(OTA_LABELS.historyTitle, { node: nodeId ?? '' })}
      centered
      size="xl"
    >
      {query.isError ? (
        <QueryErrorAlert
          error={query.error}
          retryLabel={OTA_LABELS.tryAgain}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <TableScrollRegion
          label={formatMessage(OTA_LABELS.historyTitle, { node: nodeId ?? '' })}
          minWidth={520}
        >
          <Table verticalSpacing="xs" data-testid="node-history" aria-busy={query.isPending}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{OTA_LABELS.columnStatus}</Table.Th>
                <Table.Th>{OTA_LABELS.columnTimestamp}</Table.Th>
                <Table.Th>{OTA_LABELS.columnAdditionalInfo}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries === undefined &&
                [0, 1, 2].map((row) => (
                  <Table.Tr key={row}>
                    {[0, 1, 2].map((cell) => (
                      <Table.Td key={cell}>
                        <Skeleton h={14} />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              {entries?.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={3}>
                    <Text c="dimmed" ta="center" py="md" className={tableScrollRegion.emptyMessage}>
                      {OTA_LABELS.historyEmpty}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {entries?.map((entry, index) => (
                <Table.Tr key={`${entry.timestamp}-${entry.status}-${index}`}>
                  <Table.Td>
                    <ExecutionStatusBadge status={entry.status} mode={mode} />
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {formatListDate(entry.timestamp, { utc: mode.utc }) ?? OTA_LABELS.none}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ wordBreak: 'break-word' }}>
                      {entry.additional_info || OTA_LABELS.none}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScrollRegion>
      )}
    </Modal>
  );
}
