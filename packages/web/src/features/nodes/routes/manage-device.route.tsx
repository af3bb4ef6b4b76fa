import { DEFAULT_PAGE_SIZE, MESSAGES, PAGE_SIZES } from '@fleetdeck/contract';
import { useSearchParams } from 'react-router';
import { PAGE_PARAMS } from '../../../lib/list-position';
import { useUrlCursorPaging } from '../../../lib/use-url-paging';
import { useAddToGroup } from '../../groups/components/add-to-group-launcher';
import { NodeListPanel } from '../components/node-list-panel';
import { NodeScreen } from '../components/node-screen';
import { SearchInput } from '../components/search-input';
import { StatusFilterBadge } from '../components/status-filter-badge';
import { SEARCH_DEBOUNCE_MS } from '../components/use-search-filter';
import { useUrlSearch } from '../components/use-url-search';
import { NODE_LABELS } from '../labels';
import { manageDeviceStatusFromParam } from '../model/filters';

/**
 * /home/managedevice (access §2): heading Devices, a product-id search, the hint, and
 * 'Add to Node Group'. Rows follow the status parameter: true online, otherwise offline. The
 * search (`?search=`) and the page live in the query string, so Back from a device returns to them.
 */
export function ManageDeviceRoute() {
  const [params] = useSearchParams();
  const search = useUrlSearch('search', SEARCH_DEBOUNCE_MS, PAGE_PARAMS);
  const paging = useUrlCursorPaging(PAGE_SIZES.devices, DEFAULT_PAGE_SIZE);
  const addToGroup = useAddToGroup();
  const status = manageDeviceStatusFromParam(params.get('status'));

  return (
    <NodeScreen title={NODE_LABELS.devicesHeading}>
      <NodeListPanel
        filters={{ node_status: status, search: search.applied }}
        emptyMessage={MESSAGES.nodesNotFound}
        groupButtonLabel={NODE_LABELS.addToNodeGroup}
        onAddToGroup={addToGroup.open}
        hint={NODE_LABELS.manageDeviceHint}
        paging={paging}
        controls={
          <>
            <SearchInput
              name="product-id"
              label={NODE_LABELS.searchProductId}
              placeholder={NODE_LABELS.searchProductIdPlaceholder}
              value={search.text}
              onChange={search.change}
              onEnter={search.applyNow}
            />
            <StatusFilterBadge status={status} />
          </>
        }
      />
      {addToGroup.modal}
    </NodeScreen>
  );
}
