import type { FaultNode } from '@fleetdeck/contract';
import { ActionIcon, Anchor, Badge, Group, Skeleton, Table, Text, Tooltip } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { formatMessage } from '@fleetdeck/contract';
import { Link } from 'react-router';
import { diagnosticsReportPath } from '../../../lib/paths';
import { FAULT_LABELS } from '../labels';
import { formatFaultDate } from '../model/fault-dates';
import { faultHistoryPath } from '../model/fault-paths';
import { TableScrollRegion, tableScrollRegion } from '../../../components/table-scroll-region';

const COLUMNS = [
  FAULT_LABELS.columnNodeId,
  FAULT_LABELS.columnErrorCode,
  FAULT_LABELS.columnDisplayCode,
  FAULT_LABELS.columnDescription,
  `${FAULT_LABELS.columnDate} (${FAULT_LABELS.utc})`,
] as const;

/**
 * The fault device list's table (access §2): node device id (a diagnostics link when those are
 * on) with a link to the device's Fault History beside it, error code, display code,
 * description and date in UTC. One page (at most 25 rows).
 */
export function FaultDeviceTable({
  nodes,
  skeletonRows,
  emptyMessage,
  diagnosticsLinks,
  stale,
}: {
  nodes: readonly FaultNode[] | undefined;
  skeletonRows: number;
  emptyMessage: string;
  diagnosticsLinks: boolean;
  stale: boolean;
}) {
  return (
    <TableScrollRegion label={FAULT_LABELS.devicesTable} minWidth={600}>
      <Table
        highlightOnHover
        verticalSpacing="xs"
        horizontalSpacing="xs"
        aria-busy={nodes === undefined || stale}
        style={{ opacity: stale ? 0.6 : 1, transition: 'opacity 120ms' }}
        data-testid="fault-device-table"
      >
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((column) => (
              <Table.Th key={column} fz="sm">
                {column}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {nodes === undefined &&
            Array.from({ length: skeletonRows }, (_, row) => (
              <Table.Tr key={row} aria-hidden="true">
                {COLUMNS.map((column) => (
                  <Table.Td key={column}>
                    <Skeleton height={12} radius="sm" />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          {nodes !== undefined && nodes.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={COLUMNS.length}>
                <Text
                  ta="center"
                  c="dimmed"
                  py="xl"
                  className={tableScrollRegion.emptyMessage}
                  data-testid="fault-device-table-empty"
                >
                  {emptyMessage}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {nodes?.map((node) => (
            <Table.Tr key={node.node_id} data-node-id={node.node_id}>
              <Table.Td ff="monospace" fz="xs">
                <Group gap={2} wrap="nowrap">
                  {diagnosticsLinks ? (
                    <Anchor
                      component={Link}
                      to={diagnosticsReportPath(node.node_id)}
                      fz="xs"
                      ff="monospace"
                    >
                      {node.node_id}
                    </Anchor>
                  ) : (
                    node.node_id
                  )}
                  <Tooltip
                    label={formatMessage(FAULT_LABELS.historyLink, { node: node.node_id })}
                    withArrow
                  >
                    <ActionIcon
                      component={Link}
                      to={faultHistoryPath(node.node_id)}
                      variant="subtle"
                      size="sm"
                      aria-label={formatMessage(FAULT_LABELS.historyLink, { node: node.node_id })}
                    >
                      <IconHistory size={14} aria-hidden="true" />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Table.Td>
              <Table.Td fz="sm">{node.err_code}</Table.Td>
              <Table.Td>
                {node.disp_code !== '' ? (
                  <Badge variant="light" color="red" radius="sm" ff="monospace">
                    {node.disp_code}
                  </Badge>
                ) : (
                  <Text span c="dimmed" fz="sm">
                    –
                  </Text>
                )}
              </Table.Td>
              <Table.Td fz="sm">
                {node.description !== '' ? (
                  node.description
                ) : (
                  <Text span c="dimmed" fz="sm">
                    {FAULT_LABELS.unknownCode}
                  </Text>
                )}
              </Table.Td>
              <Table.Td fz="sm" style={{ whiteSpace: 'nowrap' }}>
                {formatFaultDate(node.timestamp) ?? '–'}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScrollRegion>
  );
}
