import { DEFAULT_PAGE_SIZE, MESSAGES, PAGE_SIZES, formatMessage } from '@fleetdeck/contract';
import {
  Anchor,
  Badge,
  Box,
  Divider,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { FetchingBar } from '../../../components/fetching-bar';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { NodeScreen } from '../../nodes/components/node-screen';
import { NodeTablePager } from '../../nodes/components/node-table-pager';
import { withoutCursors } from '../../../lib/list-position';
import { useUrlPageNumber } from '../../../lib/use-url-paging';
import { useFaultCatalogue } from '../api/fault-catalogue.query';
import { useFaultDistribution } from '../api/fault-distribution.query';
import { FAULT_LABELS } from '../labels';
import { pageOf } from '../model/fault-catalogue';
import { faultDevicesPath } from '../model/fault-paths';
import {
  DEFAULT_FAULT_TYPE,
  FAULT_TYPES,
  faultTypeFromParam,
  type FaultTypeKey,
} from '../model/fault-types';
import { FaultTypeSelect } from './fault-type-select';
import { RefreshButton } from '../../../components/refresh-button';
import { TableScrollRegion } from '../../../components/table-scroll-region';

const COLUMN_COUNT = 4;

/**
 * The Faults List (access §2 Fault screens), the sidebar's 'Active Fault List': one appliance
 * type's fault catalogue (error code, display code, description), paged 10/20/25 in the browser,
 * with how many devices report each code now. Each code opens its fault device list. The type is
 * kept in the URL (`?type=ref`), with the page size and page (`?size=20&page=2`), so Back from a
 * code returns to the same page of the same list.
 */
export function FaultListScreen() {
  const [params, setParams] = useSearchParams();
  const type = faultTypeFromParam(params.get('type')) ?? DEFAULT_FAULT_TYPE;
  const paging = useUrlPageNumber(PAGE_SIZES.faultList, DEFAULT_PAGE_SIZE);
  const { pageSize } = paging;
  const catalogue = useFaultCatalogue(type);
  const distribution = useFaultDistribution(type);
  const definitions = catalogue.data ?? [];
  const pager = paging.pagerProps(catalogue.isError ? 0 : catalogue.data?.length);
  const rows = pageOf(definitions, pager.page, pageSize);

  // Another type's catalogue starts at its first page.
  const chooseType = (next: FaultTypeKey) =>
    setParams((current) => {
      const updated = withoutCursors(current);
      updated.set('type', next);
      return updated;
    });

  const refresh = () => {
    void catalogue.refetch();
    void distribution.refetch();
  };

  const fetching = catalogue.isFetching || distribution.isFetching;

  return (
    <NodeScreen title={FAULT_LABELS.faultListHeading} subtitle={FAULT_LABELS.faultListSubtitle}>
      <Paper withBorder radius="lg" data-testid="fault-list">
        <Stack gap={0}>
          <Box p="md">
            <Group justify="space-between" align="flex-end" gap="sm" wrap="nowrap">
              <Box style={{ flex: '0 1 220px', minWidth: 0 }}>
                <FaultTypeSelect value={type} onChange={chooseType} short={false} fullWidth />
              </Box>
              <RefreshButton
                label={FAULT_LABELS.refresh}
                onClick={refresh}
                loading={fetching && !catalogue.isPending}
              />
            </Group>
          </Box>
          <FetchingBar active={fetching} label={FAULT_LABELS.refresh} />
          <Divider />
          {catalogue.isError ? (
            <QueryErrorAlert
              m="md"
              error={catalogue.error}
              retryLabel={FAULT_LABELS.tryAgain}
              onRetry={() => void catalogue.refetch()}
            />
          ) : (
            <TableScrollRegion label={FAULT_LABELS.faultListHeading} minWidth={480}>
              <Table
                highlightOnHover
                verticalSpacing="xs"
                horizontalSpacing="md"
                aria-busy={catalogue.isPending}
                data-testid="fault-list-table"
                aria-label={formatMessage(FAULT_LABELS.faultListCaption, {
                  type: FAULT_TYPES[type].nodeType,
                })}
              >
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={100}>{FAULT_LABELS.columnErrorCode}</Table.Th>
                    <Table.Th w={100}>{FAULT_LABELS.columnDisplayCode}</Table.Th>
                    <Table.Th>{FAULT_LABELS.columnDescription}</Table.Th>
                    <Table.Th w={90} ta="right">
                      {FAULT_LABELS.columnDevicesNow}
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {catalogue.isPending &&
                    Array.from({ length: pageSize }, (_, row) => (
                      <Table.Tr key={row} aria-hidden="true">
                        {Array.from({ length: COLUMN_COUNT }, (_, cell) => (
                          <Table.Td key={cell}>
                            <Skeleton height={12} radius="sm" />
                          </Table.Td>
                        ))}
                      </Table.Tr>
                    ))}
                  {catalogue.isSuccess && definitions.length === 0 && (
                    <Table.Tr>
                      <Table.Td colSpan={COLUMN_COUNT}>
                        <Text ta="center" c="dimmed" py="xl" data-testid="fault-list-empty">
                          {MESSAGES.noDataFound}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  )}
                  {rows.map((definition) => {
                    const count = distribution.data?.get(definition.err_code);
                    return (
                      <Table.Tr key={definition.err_code} data-code={definition.err_code}>
                        <Table.Td>
                          <Anchor
                            component={Link}
                            to={faultDevicesPath(type, definition.err_code)}
                            fw={600}
                            aria-label={formatMessage(FAULT_LABELS.devicesLink, {
                              code: definition.err_code,
                              display: definition.disp_code,
                            })}
                          >
                            {definition.err_code}
                          </Anchor>
                        </Table.Td>
                        <Table.Td>
                          <Badge variant="light" color="gray" radius="sm" ff="monospace">
                            {definition.disp_code}
                          </Badge>
                        </Table.Td>
                        <Table.Td>{definition.description}</Table.Td>
                        <Table.Td ta="right">
                          {distribution.isPending ? (
                            <Skeleton height={12} width={32} ml="auto" radius="sm" />
                          ) : count !== undefined && count > 0 ? (
                            <Anchor
                              component={Link}
                              to={faultDevicesPath(type, definition.err_code)}
                              tabIndex={-1}
                            >
                              <Badge color="red" variant="light">
                                {count}
                              </Badge>
                            </Anchor>
                          ) : (
                            <Text span c="dimmed" size="sm">
                              {distribution.isError ? '–' : 0}
                            </Text>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </TableScrollRegion>
          )}
          <Divider />
          <Box p="md">
            <NodeTablePager {...pager} />
          </Box>
        </Stack>
      </Paper>
    </NodeScreen>
  );
}
