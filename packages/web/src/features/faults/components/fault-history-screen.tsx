import { MESSAGES, PAGE_SIZES } from '@fleetdeck/contract';
import { Box, Divider, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { FetchingBar } from '../../../components/fetching-bar';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { NodeScreen } from '../../nodes/components/node-screen';
import { NodeTablePager } from '../../nodes/components/node-table-pager';
import { SearchInput } from '../../nodes/components/search-input';
import { useDiagnosticsLinks } from '../../diagnostics/use-diagnostics-links';
import { PAGE_PARAMS, isGonePage, isIdCursor } from '../../../lib/list-position';
import { useFirstPageWhenGone, useUrlCursorPaging } from '../../../lib/use-url-paging';
import {
  faultHistoryQueryOptions,
  useFaultHistory,
  type FaultHistoryRequest,
} from '../api/fault-history.query';
import { faultKeys } from '../api/faults.keys';
import { FAULT_LABELS } from '../labels';
import { FaultHistoryNodeCard } from './fault-history-node';
import { SEARCH_DEBOUNCE_MS } from '../../nodes/components/use-search-filter';
import { useUrlSearch } from '../../nodes/components/use-url-search';
import { RefreshButton } from '../../../components/refresh-button';

/** The first page size of Fault History: each node brings its changes, so pages stay short. */
const DEFAULT_HISTORY_PAGE_SIZE = PAGE_SIZES.faultHistory[0];

/**
 * Fault History (access §2 Fault screens): a product-id (device id) search, at most 64
 * characters, empty ignored, kept in the URL (`?search=`) so the fault device list can link to
 * one device; a cursor-paged list (5/10/15/25) of nodes with their fault changes; 'Nodes not
 * found.' when nothing matches. The page lives in the query string too, so Back from a device
 * returns to it.
 */
export function FaultHistoryScreen() {
  const queryClient = useQueryClient();
  const search = useUrlSearch('search', SEARCH_DEBOUNCE_MS, PAGE_PARAMS);
  const scope = search.applied ?? '';
  const paging = useUrlCursorPaging(PAGE_SIZES.faultHistory, DEFAULT_HISTORY_PAGE_SIZE, isIdCursor);
  const request: FaultHistoryRequest = {
    search: search.applied,
    start_id: paging.cursor,
    num_records: paging.pageSize,
  };
  const query = useFaultHistory(request);
  const stale = query.isPlaceholderData;
  const nextId = stale ? undefined : query.data?.next_id;
  useFirstPageWhenGone(
    paging,
    isGonePage({ rows: query.data?.nodes, error: query.error, placeholder: stale }),
  );
  const diagnosticsLinks = useDiagnosticsLinks();

  useEffect(() => {
    if (nextId === undefined) return;
    void queryClient.prefetchQuery(faultHistoryQueryOptions({ ...request, start_id: nextId }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nextId, scope, paging.pageSize, paging.cursor, queryClient]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: faultKeys.histories(), refetchType: 'none' });
    void query.refetch();
  };

  return (
    <NodeScreen
      title={FAULT_LABELS.faultHistoryHeading}
      subtitle={FAULT_LABELS.faultHistorySubtitle}
    >
      <Paper withBorder radius="lg" data-testid="fault-history">
        <Stack gap={0}>
          <Box p="md">
            <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
              <SearchInput
                label={FAULT_LABELS.searchProductId}
                placeholder={FAULT_LABELS.searchProductIdPlaceholder}
                name="product_id"
                value={search.text}
                onChange={search.change}
                onEnter={search.applyNow}
                width={320}
              />
              <RefreshButton
                label={FAULT_LABELS.refresh}
                onClick={refresh}
                loading={query.isFetching && !query.isPending}
              />
            </Group>
          </Box>
          <FetchingBar active={query.isFetching} label={FAULT_LABELS.refresh} />
          <Divider />
          <Box
            p="md"
            aria-busy={query.isPending || stale}
            style={{ opacity: stale ? 0.6 : 1, transition: 'opacity 120ms' }}
          >
            {query.isError ? (
              <QueryErrorAlert
                error={query.error}
                retryLabel={FAULT_LABELS.tryAgain}
                onRetry={() => void query.refetch()}
              />
            ) : query.isPending ? (
              <Stack gap="md" aria-hidden="true">
                {Array.from({ length: Math.min(paging.pageSize, 5) }, (_, index) => (
                  <Skeleton key={index} height={120} radius="md" />
                ))}
              </Stack>
            ) : query.data.nodes.length === 0 ? (
              <Text ta="center" c="dimmed" py="xl" data-testid="fault-history-empty">
                {MESSAGES.nodesNotFound}
              </Text>
            ) : (
              <Stack gap="md" data-testid="fault-history-nodes">
                {query.data.nodes.map((node) => (
                  <FaultHistoryNodeCard
                    key={node.node_id}
                    node={node}
                    diagnosticsLinks={diagnosticsLinks}
                  />
                ))}
              </Stack>
            )}
          </Box>
          <Divider />
          <Box p="md">
            <NodeTablePager
              {...paging.pagerProps(
                query.isError ? undefined : query.data?.total,
                nextId,
                query.isPending,
              )}
            />
          </Box>
        </Stack>
      </Paper>
    </NodeScreen>
  );
}
