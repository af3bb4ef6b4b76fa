import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@fleetdeck/contract';
import { useRef, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useStableHandler } from '../../../lib/use-stable-handler';
import { useAddToGroup } from '../../groups/components/add-to-group-launcher';
import type { AdminNodesFilters } from '../api/admin-nodes.query';
import { NODE_LABELS } from '../labels';
import {
  emptyFleetMessage,
  statusFromParam,
  typeFromParam,
  type TypeOption,
} from '../model/filters';
import { PAGE_PARAMS, withoutCursors } from '../../../lib/list-position';
import { useUrlCursorPaging } from '../../../lib/use-url-paging';
import { normaliseSearch } from '../model/search';
import { NodeListPanel, type NodeListHandle } from './node-list-panel';
import { NodeScreen } from './node-screen';
import { SearchInput } from './search-input';
import { StatusFilterBadge } from './status-filter-badge';
import { TypeSelect } from './type-select';
import { SEARCH_DEBOUNCE_MS } from './use-search-filter';
import { useUrlSearch } from './use-url-search';

/** The query string with one filter set (or removed when empty), back on page 1. */
function withParam(params: URLSearchParams, name: string, value: string | undefined) {
  const next = withoutCursors(params);
  if (value) next.set(name, value);
  else next.delete(name);
  return next;
}

/**
 * Devices list, Graphs and Device reports (fleet-management §2, access §2): the `status` and
 * `type` query parameters, a type dropdown that writes `type`, a device-id search, the node list
 * with 'Add to Device Group', and any extra actions the screen adds (Download All CSV). The search
 * and the list's page (size and cursors) live in the query string too, replaced rather than
 * pushed: Next adds no history entry, and Back from a device returns to the page it was on.
 */
export function FleetListScreen({
  title,
  typeOptions,
  actions,
}: {
  title: string;
  /** The dropdown's options; when none of them is "all", the first applies by default. */
  typeOptions: readonly TypeOption[];
  actions?: (filters: AdminNodesFilters) => ReactNode;
}) {
  const [params, setParams] = useSearchParams();
  const list = useRef<NodeListHandle>(null);
  const search = useUrlSearch('search', SEARCH_DEBOUNCE_MS, PAGE_PARAMS);
  const addToGroup = useAddToGroup();
  const hasAll = typeOptions.some((option) => option.value === '');
  const filtersOf = (query: URLSearchParams) => ({
    node_status: statusFromParam(query.get('status')),
    type: typeFromParam(query.get('type')) ?? (hasAll ? undefined : typeOptions[0]?.value),
    search: search.applied,
  });
  const current = filtersOf(params);
  const { node_status: status, type } = current;
  const filters: AdminNodesFilters = current;
  const paging = useUrlCursorPaging(PAGE_SIZES.devices, DEFAULT_PAGE_SIZE);

  const setParam = (name: 'status' | 'type', value: string | undefined) => {
    // The first page of the new filters is asked for before the render (B8).
    list.current?.prefetchFirstPage(filtersOf(withParam(params, name, value)));
    setParams(
      (current) => withParam(current, name, value),
      // flushSync: the list asks for the new filter's page right away instead of after a
      // transition's render in slices (the type filter started its request 76–164 ms after the
      // key, B8).
      { replace: true, flushSync: true },
    );
  };

  const clearStatus = useStableHandler(() => setParam('status', undefined));

  // Enter in the search box: the search's first page is asked for before the render (B8).
  const searchNow = useStableHandler(() => {
    list.current?.prefetchFirstPage({ ...filters, search: normaliseSearch(search.text) });
    search.applyNow();
  });

  return (
    <NodeScreen title={title}>
      <NodeListPanel
        ref={list}
        filters={filters}
        emptyMessage={emptyFleetMessage(filters)}
        groupButtonLabel={NODE_LABELS.addToDeviceGroup}
        onAddToGroup={addToGroup.open}
        paging={paging}
        actions={actions?.(filters)}
        controls={
          <>
            <TypeSelect
              options={typeOptions}
              value={type ?? ''}
              onChange={(value) => setParam('type', value || undefined)}
            />
            <SearchInput
              name="device-id"
              label={NODE_LABELS.searchDeviceId}
              placeholder={NODE_LABELS.searchDeviceIdPlaceholder}
              value={search.text}
              onChange={search.change}
              onEnter={searchNow}
            />
            {status !== undefined && <StatusFilterBadge status={status} onClear={clearStatus} />}
          </>
        }
      />
      {addToGroup.modal}
    </NodeScreen>
  );
}
