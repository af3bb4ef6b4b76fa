import { formatMessage, type FaultHistoryNode } from '@fleetdeck/contract';
import { Anchor, Badge, Box, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { diagnosticsReportPath } from '../../../lib/paths';
import { FAULT_LABELS } from '../labels';
import { formatFaultDate } from '../model/fault-dates';
import { faultDevicesPath } from '../model/fault-paths';
import { faultTypeOfNode } from '../model/fault-types';
import { TableScrollRegion } from '../../../components/table-scroll-region';

/** Changes shown before 'Show all'. */
const FIRST_CHANGES = 5;

/** One node of Fault History: who it is, its current fault, and its fault changes, newest first. */
export function FaultHistoryNodeCard({
  node,
  diagnosticsLinks,
}: {
  node: FaultHistoryNode;
  diagnosticsLinks: boolean;
}) {
  const [expanded, setExpanded] = useState(false);
  const changes = expanded ? node.faults : node.faults.slice(0, FIRST_CHANGES);
  const faultType = faultTypeOfNode(node.type);
  const headingId = `fault-history-${node.node_id}`;
  const details = [node.type, node.model, node.fw_version && `fw ${node.fw_version}`, node.city]
    .filter((part) => part !== '')
    .join(' · ');

  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="article"
      aria-labelledby={headingId}
      data-node-id={node.node_id}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text id={headingId} ff="monospace" fw={600} style={{ wordBreak: 'break-all' }}>
              {diagnosticsLinks ? (
                <Anchor component={Link} to={diagnosticsReportPath(node.node_id)} ff="monospace">
                  {node.node_id}
                </Anchor>
              ) : (
                node.node_id
              )}
            </Text>
            <Text size="sm" c="dimmed">
              {details}
            </Text>
          </Stack>
          {node.current !== null ? (
            <Group gap={6} wrap="nowrap">
              <Text size="xs" c="dimmed">
                {FAULT_LABELS.faultHistoryCurrent}
              </Text>
              {faultType !== undefined ? (
                <Anchor component={Link} to={faultDevicesPath(faultType, node.current.err_code)}>
                  <Badge color="red" variant="filled" radius="sm" ff="monospace">
                    {node.current.disp_code || node.current.err_code}
                  </Badge>
                </Anchor>
              ) : (
                <Badge color="red" variant="filled" radius="sm" ff="monospace">
                  {node.current.disp_code || node.current.err_code}
                </Badge>
              )}
            </Group>
          ) : (
            <Badge color="teal" variant="light" radius="sm">
              {FAULT_LABELS.faultHistoryNoFaultNow}
            </Badge>
          )}
        </Group>
        {node.faults.length === 0 ? (
          <Text size="sm" c="dimmed">
            {FAULT_LABELS.faultHistoryNoChanges}
          </Text>
        ) : (
          <>
            <Box visibleFrom="sm">
              <TableScrollRegion
                label={formatMessage(FAULT_LABELS.historyTableOf, { node: node.node_id })}
                minWidth={560}
              >
                <Table
                  verticalSpacing={4}
                  horizontalSpacing="sm"
                  fz="sm"
                  striped
                  styles={{ th: { whiteSpace: 'nowrap' } }}
                >
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th
                        w={150}
                      >{`${FAULT_LABELS.columnDate} (${FAULT_LABELS.utc})`}</Table.Th>
                      <Table.Th w={100}>{FAULT_LABELS.columnErrorCode}</Table.Th>
                      <Table.Th w={110}>{FAULT_LABELS.columnDisplayCode}</Table.Th>
                      <Table.Th>{FAULT_LABELS.columnDescription}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {changes.map((change, index) => (
                      <Table.Tr key={`${change.timestamp}-${index}`}>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>
                          {formatFaultDate(change.timestamp) ?? '–'}
                        </Table.Td>
                        {change.cleared ? (
                          <Table.Td colSpan={3}>
                            <Badge color="teal" variant="light" radius="sm">
                              {FAULT_LABELS.faultHistoryCleared}
                            </Badge>
                          </Table.Td>
                        ) : (
                          <>
                            <Table.Td>{change.err_code}</Table.Td>
                            <Table.Td>
                              <Badge color="red" variant="light" radius="sm" ff="monospace">
                                {change.disp_code || '–'}
                              </Badge>
                            </Table.Td>
                            <Table.Td>{change.description || FAULT_LABELS.unknownCode}</Table.Td>
                          </>
                        )}
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </TableScrollRegion>
            </Box>
            {/* On a phone each change is one line of text instead of a table to scroll. */}
            <Stack gap={6} hiddenFrom="sm" component="ol" m={0} p={0} style={{ listStyle: 'none' }}>
              {changes.map((change, index) => (
                <li key={`${change.timestamp}-${index}`}>
                  <Group gap={6} wrap="nowrap" align="baseline">
                    <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      {formatFaultDate(change.timestamp) ?? '–'}
                    </Text>
                    {change.cleared ? (
                      <Badge color="teal" variant="light" radius="sm" size="sm">
                        {FAULT_LABELS.faultHistoryCleared}
                      </Badge>
                    ) : (
                      <Badge color="red" variant="light" radius="sm" size="sm" ff="monospace">
                        {change.disp_code || change.err_code}
                      </Badge>
                    )}
                  </Group>
                  {!change.cleared && (
                    <Text size="sm">
                      {change.description || FAULT_LABELS.unknownCode}{' '}
                      <Text span size="xs" c="dimmed">
                        ({FAULT_LABELS.columnErrorCode} {change.err_code})
                      </Text>
                    </Text>
                  )}
                </li>
              ))}
            </Stack>
          </>
        )}
        {node.faults.length > FIRST_CHANGES && (
          <Button
            variant="subtle"
            size="compact-sm"
            style={{ alignSelf: 'flex-start' }}
            onClick={() => setExpanded((current) => !current)}
            aria-expanded={expanded}
          >
            {expanded
              ? FAULT_LABELS.faultHistoryShowFewer
              : formatMessage(FAULT_LABELS.faultHistoryShowAll, { count: node.faults.length })}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
