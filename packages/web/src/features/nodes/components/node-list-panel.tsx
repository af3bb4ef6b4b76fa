import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@fleetdeck/contract';
import { Box, Button, Divider, Group, Paper, Stack, Text } from '@mantine/core';
import { IconFolderPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { memo, useEffect, useImperativeHandle, useState, type ReactNode, type Ref } from 'react';
import {
  adminNodesQueryOptions,
  useAdminNodes,
  useOwnNodesOnly,
  type AdminNodesFilters,
  type AdminNodesRequest,
} from '../api/admin-nodes.query';
import { nodeKeys } from '../api/nodes.keys';
import { NODE_LABELS } from '../labels';
import {
  FIRST_PAGE,
  canGoNext,
  canGoPrev,
  currentCursor,
  goNext,
  goPrev,
  pageCount,
  pageNumber,
  toPageSize,
} from '../../../lib/paging';
import { isGonePage } from '../../../lib/list-position';
import { useFirstPageWhenGone, type UrlCursorPaging } from '../../../lib/use-url-paging';
import { NodeTable } from './node-table';
import { NodeTablePager } from './node-table-pager';
import { FetchingBar } from '../../../components/fetching-bar';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { useStableHandler } from '../../../lib/use-stable-handler';
import { useDiagnosticsLinks } from '../../diagnostics/use-diagnostics-links';
import { RefreshButton } from '../../../components/refresh-button';

/** What a screen may ask of its list besides rendering it. */
export interface NodeListHandle {
  /**
   * Starts loading the first page for these filters at once, in the input's own event handler,
   * so the request is on its way while the screen renders the change (B8: a device-type key used
   * to send its request only after that render, 12–30 ms later). The list then finds the request
   * in flight (or its answer in the cache) under the same query key.
   */
  prefetchFirstPage(filters: AdminNodesFilters): void;
}

export interface NodeListPanelProps {
  filters: AdminNodesFilters;
  /** Receives the list's handle (see NodeListHandle). */
  ref?: Ref<NodeListHandle>;
  emptyMessage: string;
  /** Filter controls, left of the list's own buttons. */
  controls?: ReactNode;
  /** More buttons beside the group button (Download All CSV). */
  actions?: ReactNode;
  /** A line of guidance under the controls. */
  hint?: ReactNode;
  /** The group button's text; without one the rows have no checkboxes. */
  groupButtonLabel?: string;
  /**
   * Receives the chosen nodes when the group button is pressed. The device-groups feature
   * supplies it together with its modal; without it the button only reflects the selection,
   * which stays as it is. `clearSelection` empties the selection (after a successful add).
   */
  onAddToGroup?: (nodeIds: readonly string[], clearSelection: () => void) => void;
  /** False until the screen has something to ask for (Product serial before a search). */
  enabled?: boolean;
  /** Shown instead of the table while not enabled. */
  idle?: ReactNode;
  /**
   * Where the list is, kept by the screen in the query string (useUrlCursorPaging), so that Back
   * from a device returns to the same page. The screen starts again at page 1 when its filters
   * change.
   */
  paging: Pick<UrlCursorPaging, 'position' | 'moveTo' | 'toFirstPage'>;
}

/** The state that belongs to one set of filters: it starts over when the filters change. */
interface Scoped<T> {
  key: string;
  value: T;
}

/** The list's buttons: refresh, the screen's own actions and the group button. */
const ListActions = memo(function ListActions({
  enabled,
  refreshing,
  onRefresh,
  actions,
  groupButtonLabel,
  nothingSelected,
  onAddToGroup,
}: {
  enabled: boolean;
  refreshing: boolean;
  onRefresh: () => void;
  actions: ReactNode;
  groupButtonLabel: string | undefined;
  nothingSelected: boolean;
  onAddToGroup: () => void;
}) {
  return (
    <Group gap="sm" wrap="wrap" align="flex-end">
      <RefreshButton
        label={NODE_LABELS.refresh}
        onClick={onRefresh}
        loading={refreshing}
        disabled={!enabled}
      />
      {actions}
      {groupButtonLabel !== undefined && (
        <Button
          leftSection={<IconFolderPlus size={16} aria-hidden="true" />}
          disabled={nothingSelected}
          onClick={onAddToGroup}
        >
          {groupButtonLabel}
        </Button>
      )}
    </Group>
  );
});

/** The request of one page: the screen's filters, the page size and the page's cursor. */
function listRequest(
  filters: AdminNodesFilters,
  pageSize: number,
  cursor: string | undefined,
  own: boolean,
): AdminNodesRequest {
  return { ...filters, num_records: pageSize, start_id: cursor, ...(own ? { own } : {}) };
}

/**
 * A node list with cursor paging (spec §4), page sizes 5/10/15/25 (default 10), refresh,
 * selection, loading, error and empty states. The screen owns the filters and the position (in
 * its query string); a change of filters or page size starts again at page 1, and so does a page
 * after the first that turns out to be gone. The next page is fetched ahead so that Next is
 * instant.
 */
export function NodeListPanel({
  filters,
  ref,
  emptyMessage,
  controls,
  actions,
  hint,
  groupButtonLabel,
  onAddToGroup,
  enabled = true,
  idle,
  paging,
}: NodeListPanelProps) {
  const queryClient = useQueryClient();
  const { pageSize, stack } = paging.position;
  const diagnosticsLinks = useDiagnosticsLinks();
  const filterKey = JSON.stringify(filters);
  const pagingKey = `${filterKey}|${pageSize}`;
  const [selection, setSelection] = useState<Scoped<ReadonlySet<string>>>({
    key: filterKey,
    value: new Set(),
  });
  const selected = selection.key === filterKey ? selection.value : new Set<string>();

  const own = useOwnNodesOnly();
  const request = listRequest(filters, pageSize, currentCursor(stack), own);
  const query = useAdminNodes(request, { enabled });
  const page = query.data;
  const stale = query.isPlaceholderData;
  const nextId = stale ? undefined : page?.next_id;
  const selectable = groupButtonLabel !== undefined;
  useFirstPageWhenGone(
    { page: pageNumber(stack), toFirstPage: paging.toFirstPage },
    enabled && isGonePage({ rows: page?.node_info, error: query.error, placeholder: stale }),
  );

  // Fetch the next page ahead, so that Next shows it without a wait (B8: ≤ 150 ms after a click).
  useEffect(() => {
    if (!enabled || nextId === undefined) return;
    void queryClient.prefetchQuery(adminNodesQueryOptions({ ...request, start_id: nextId }));
    // `request` is rebuilt each render; its content is what pagingKey and the cursor describe.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, nextId, pagingKey, queryClient]);

  useImperativeHandle(
    ref,
    () => ({
      prefetchFirstPage(next: AdminNodesFilters) {
        if (!enabled) return;
        void queryClient.prefetchQuery(
          adminNodesQueryOptions(listRequest(next, pageSize, undefined, own)),
        );
      },
    }),
    [enabled, pageSize, own, queryClient],
  );

  // Stable handlers: a change of filters re-renders the rows, the pager and the buttons only
  // where their own props change (B8).
  const toggle = useStableHandler((nodeId: string, checked: boolean) => {
    setSelection((current) => {
      const ids = new Set(current.key === filterKey ? current.value : []);
      if (checked) ids.add(nodeId);
      else ids.delete(nodeId);
      return { key: filterKey, value: ids };
    });
  });

  const toggleAll = useStableHandler((checked: boolean) => {
    const ids = new Set(selected);
    for (const node of page?.node_info ?? []) {
      if (checked) ids.add(node.node_id);
      else ids.delete(node.node_id);
    }
    setSelection({ key: filterKey, value: ids });
  });

  const refresh = useStableHandler(() => {
    // Other cached pages may be out of date too; they reload when next shown.
    void queryClient.invalidateQueries({ queryKey: nodeKeys.lists(), refetchType: 'none' });
    void query.refetch();
  });

  const addToGroup = useStableHandler(() =>
    onAddToGroup?.([...selected], () => setSelection({ key: filterKey, value: new Set() })),
  );
  const { moveTo } = paging;
  const prev = useStableHandler(() => moveTo({ pageSize, stack: goPrev(stack) }));
  const next = useStableHandler(() => {
    if (canGoNext(nextId)) moveTo({ pageSize, stack: goNext(stack, nextId) });
  });
  const changePageSize = useStableHandler((size: number) => {
    const next = toPageSize(size, PAGE_SIZES.devices, DEFAULT_PAGE_SIZE);
    // As for a filter: the new size's first page is asked for before the render.
    if (enabled) {
      void queryClient.prefetchQuery(
        adminNodesQueryOptions(listRequest(filters, next, undefined, own)),
      );
    }
    moveTo({ pageSize: next, stack: FIRST_PAGE });
  });

  const showTable = enabled || idle === undefined;
  const rows = query.isError ? undefined : page?.node_info;

  return (
    <Paper withBorder radius="lg" data-testid="node-list">
      <Stack gap={0}>
        <Box p="md">
          <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
            <Group align="flex-end" gap="sm" wrap="wrap" style={{ flex: '1 1 auto' }}>
              {controls}
            </Group>
            <ListActions
              enabled={enabled}
              refreshing={enabled && query.isFetching && !query.isPending}
              onRefresh={refresh}
              actions={actions}
              groupButtonLabel={groupButtonLabel}
              nothingSelected={selected.size === 0}
              onAddToGroup={addToGroup}
            />
          </Group>
          {hint !== undefined && (
            <Text size="sm" c="dimmed" mt="sm">
              {hint}
            </Text>
          )}
        </Box>
        <FetchingBar active={enabled && query.isFetching} label={NODE_LABELS.refresh} />
        <Divider />
        {!showTable && (
          <Text c="dimmed" ta="center" py="xl" px="md">
            {idle}
          </Text>
        )}
        {showTable && query.isError && (
          <QueryErrorAlert
            m="md"
            error={query.error}
            retryLabel={NODE_LABELS.tryAgain}
            onRetry={() => void query.refetch()}
          />
        )}
        {showTable && !query.isError && (
          <NodeTable
            nodes={rows}
            skeletonRows={pageSize}
            emptyMessage={emptyMessage}
            selectable={selectable}
            selected={selected}
            onToggle={toggle}
            onToggleAll={toggleAll}
            diagnosticsLinks={diagnosticsLinks}
            stale={stale}
          />
        )}
        {showTable && (
          <>
            <Divider />
            <Box p="md">
              <NodeTablePager
                page={pageNumber(stack)}
                pages={
                  query.isPending && !query.isError
                    ? undefined
                    : pageCount(query.isError ? undefined : page?.total, pageSize)
                }
                canPrev={canGoPrev(stack)}
                canNext={canGoNext(nextId)}
                onPrev={prev}
                onNext={next}
                pageSize={pageSize}
                selectedCount={selectable ? selected.size : 0}
                onPageSize={changePageSize}
              />
            </Box>
          </>
        )}
      </Stack>
    </Paper>
  );
}
