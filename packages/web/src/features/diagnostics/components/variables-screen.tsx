import {
  ActionIcon,
  Center,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconFolder, IconRefresh, IconVariable } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { FetchingBar } from '../../../components/fetching-bar';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { diagnosticsKeys } from '../api/diagnostics.keys';
import { isNoDiagnosticsError } from '../api/node-info.query';
import { useParamList } from '../api/param-list.query';
import { useParamMeta } from '../api/param-meta.query';
import { DIAGNOSTICS_LABELS } from '../labels';
import { formatLogTime, formatZone } from '../model/diag-dates';
import { browserTzOffsetSeconds } from '../model/interval';
import { variableRows } from '../model/param-tree';
import { NoDiagnostics } from './no-diagnostics';
import { TableScrollRegion } from '../../../components/table-scroll-region';

const INDENT = 20;

/** Variables (access §2): the folder/param tree with each param's latest value and its time. */
export function VariablesScreen({ nodeId }: { nodeId: string }) {
  const queryClient = useQueryClient();
  const meta = useParamMeta(nodeId);
  const values = useParamList(nodeId);
  const [tz] = useState(() => browserTzOffsetSeconds());
  const rows = useMemo(
    () => variableRows(meta.data?.params ?? [], values.data?.params ?? []),
    [meta.data, values.data],
  );

  const failed = meta.error ?? values.error;
  if (failed && isNoDiagnosticsError(failed)) return <NoDiagnostics />;
  if (failed)
    return (
      <QueryErrorAlert
        error={failed}
        retryLabel={DIAGNOSTICS_LABELS.tryAgain}
        onRetry={() => {
          void meta.refetch();
          void values.refetch();
        }}
      />
    );

  let body;
  if (meta.isPending || values.isPending) body = <Skeleton h={240} radius="md" />;
  else if (rows.length === 0)
    body = (
      <Center h={100} data-testid="variables-empty">
        <Text c="dimmed" size="sm">
          {DIAGNOSTICS_LABELS.variablesEmpty}
        </Text>
      </Center>
    );
  else
    body = (
      <TableScrollRegion label={DIAGNOSTICS_LABELS.tabVariables} minWidth={520}>
        <Table verticalSpacing={6} data-testid="variables" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{DIAGNOSTICS_LABELS.columnVariable}</Table.Th>
              <Table.Th>{DIAGNOSTICS_LABELS.columnValue}</Table.Th>
              <Table.Th w={170}>{DIAGNOSTICS_LABELS.columnUpdated}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr
                key={row.key}
                data-testid={row.kind === 'folder' ? 'variable-folder' : 'variable'}
              >
                <Table.Td>
                  <Group gap={6} wrap="nowrap" pl={row.depth * INDENT}>
                    {row.kind === 'folder' ? (
                      <IconFolder
                        size={16}
                        color="var(--mantine-color-yellow-7)"
                        aria-hidden="true"
                      />
                    ) : (
                      <IconVariable
                        size={16}
                        color="var(--mantine-color-gray-6)"
                        aria-hidden="true"
                      />
                    )}
                    <Text size="sm" fw={row.kind === 'folder' ? 600 : 400}>
                      {row.label}
                    </Text>
                    {row.id && (
                      <Text size="xs" c="dimmed" ff="monospace">
                        {row.id}
                      </Text>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td ff="monospace" fz="sm" style={{ overflowWrap: 'anywhere' }}>
                  {row.kind === 'param' ? (row.value ?? DIAGNOSTICS_LABELS.unknownValue) : ''}
                </Table.Td>
                <Table.Td fz="xs" c="dimmed" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                  {row.ts !== undefined ? formatLogTime(row.ts, tz) : ''}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScrollRegion>
    );

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Text size="sm" c="dimmed">
            {DIAGNOSTICS_LABELS.timesIn.replace('{zone}', formatZone(tz))}
          </Text>
          <Tooltip label={DIAGNOSTICS_LABELS.refresh}>
            <ActionIcon
              variant="default"
              aria-label={DIAGNOSTICS_LABELS.refresh}
              onClick={() =>
                void queryClient.invalidateQueries({ queryKey: diagnosticsKeys.node(nodeId) })
              }
            >
              <IconRefresh size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
        <FetchingBar
          active={meta.isFetching || values.isFetching}
          label={DIAGNOSTICS_LABELS.loading}
        />
        {body}
      </Stack>
    </Paper>
  );
}
