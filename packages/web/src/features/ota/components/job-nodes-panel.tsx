import { DEFAULT_PAGE_SIZE, MESSAGES, PAGE_SIZES } from '@fleetdeck/contract';
import { Anchor, Box, Divider, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { FetchingBar } from '../../../components/fetching-bar';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { StackedTableContainer, stackedTable } from '../../../components/stacked-table';
import { NodeTablePager } from '../../nodes/components/node-table-pager';
import { isNoJobNodesError, useJobNodes } from '../api/job-nodes.query';
import { OTA_LABELS } from '../labels';
import { formatListDate } from '../model/job-dates';
import type { JobModeConfig } from '../model/job-mode';
import { ExecutionStatusBadge } from './job-status-badge';
import { NodeHistoryModal } from './node-history-modal';
import { isGonePage, isIdCursor } from '../../../lib/list-position';
import { useFirstPageWhenGone, useUrlCursorPaging } from '../../../lib/use-url-paging';

const COLUMNS = [
  OTA_LABELS.columnNodeId,
  OTA_LABELS.columnStatus,
  OTA_LABELS.columnTimestamp,
  OTA_LABELS.columnAdditionalInfo,
];

/**
 * The job's nodes a page at a time (5/10/25, default 10) with their state, when it was reached
 * and what the node said; a node id opens that node's status history. A card per node on a phone.
 * The page lives in the query string, so Back to the job (from its image) returns to it.
 */
export function JobNodesPanel({ otaJobId, mode }: { otaJobId: string; mode: JobModeConfig }) {
  const paging = useUrlCursorPaging(PAGE_SIZES.jobs, DEFAULT_PAGE_SIZE, isIdCursor);
  const [historyOf, setHistoryOf] = useState<string | null>(null);
  const query = useJobNodes({
    ota_job_id: otaJobId,
    start_id: paging.cursor,
    num_records: paging.pageSize,
  });
  const stale = query.isPlaceholderData;
  const empty = query.isError && isNoJobNodesError(query.error);
  const rows = empty ? [] : query.isError ? undefined : query.data?.node_ota_status;
  useFirstPageWhenGone(
    paging,
    isGonePage({ rows: query.data?.node_ota_status, error: query.error, placeholder: stale }),
  );

  return (
    <Paper withBorder radius="lg" data-testid="job-nodes">
      <Stack gap={0}>
        <Text fw={600} p="md">
          {OTA_LABELS.nodesHeading}
        </Text>
        <FetchingBar active={query.isFetching} label={OTA_LABELS.refresh} />
        <Divider />
        {query.isError && !empty ? (
          <QueryErrorAlert
            m="md"
            error={query.error}
            retryLabel={OTA_LABELS.tryAgain}
            onRetry={() => void query.refetch()}
          />
        ) : (
          <StackedTableContainer label={OTA_LABELS.nodesHeading} minWidth={640}>
            <Table
              verticalSpacing="sm"
              highlightOnHover
              className={stackedTable.table}
              data-testid="job-node-table"
              style={{ opacity: stale ? 0.6 : 1, transition: 'opacity 120ms' }}
              aria-busy={rows === undefined || stale}
            >
              <Table.Thead>
                <Table.Tr>
                  {COLUMNS.map((column) => (
                    <Table.Th key={column}>{column}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows === undefined &&
                  Array.from({ length: Math.min(paging.pageSize, 5) }, (_, row) => (
                    <Table.Tr key={row}>
                      {COLUMNS.map((column) => (
                        <Table.Td key={column}>
                          <Skeleton h={14} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                {rows?.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={COLUMNS.length}>
                      <Text c="dimmed" ta="center" py="lg" data-testid="job-nodes-empty">
                        {MESSAGES.noNodeForJob}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                )}
                {rows?.map((row) => (
                  <Table.Tr key={row.node_id} data-node-id={row.node_id}>
                    <Table.Td data-title>
                      <Anchor
                        component="button"
                        type="button"
                        ff="monospace"
                        fz="sm"
                        onClick={() => setHistoryOf(row.node_id)}
                      >
                        {row.node_id}
                      </Anchor>
                    </Table.Td>
                    <Table.Td data-label={OTA_LABELS.columnStatus}>
                      <ExecutionStatusBadge status={row.status} mode={mode} />
                    </Table.Td>
                    <Table.Td
                      data-label={OTA_LABELS.columnTimestamp}
                      style={{ whiteSpace: 'nowrap' }}
                    >
                      {formatListDate(row.timestamp, { utc: mode.utc }) ?? OTA_LABELS.none}
                    </Table.Td>
                    <Table.Td data-label={OTA_LABELS.columnAdditionalInfo}>
                      <Text size="sm" lineClamp={2} style={{ wordBreak: 'break-word' }}>
                        {row.additional_info || OTA_LABELS.none}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </StackedTableContainer>
        )}
        <Divider />
        <Box p="md">
          <NodeTablePager
            {...paging.pagerProps(
              query.isError ? undefined : query.data?.total,
              stale ? undefined : query.data?.next_id,
              query.isPending,
            )}
          />
        </Box>
      </Stack>
      <NodeHistoryModal
        otaJobId={otaJobId}
        nodeId={historyOf}
        mode={mode}
        onClose={() => setHistoryOf(null)}
      />
    </Paper>
  );
}
