import { DEFAULT_PAGE_SIZE, MESSAGES, PAGE_SIZES } from '@fleetdeck/contract';
import { useSearchParams } from 'react-router';
import { PAGE_PARAMS, withoutCursors } from '../../../lib/list-position';
import { useUrlCursorPaging } from '../../../lib/use-url-paging';
import { NodeListPanel } from '../components/node-list-panel';
import { NodeScreen } from '../components/node-screen';
import { SearchInput } from '../components/search-input';
import { TypeSelect } from '../components/type-select';
import { SEARCH_DEBOUNCE_MS } from '../components/use-search-filter';
import { useUrlSearch } from '../components/use-url-search';
import { NODE_LABELS } from '../labels';
import { GEO_TYPE_OPTIONS, typeFromParam } from '../model/filters';

const DEFAULT_TYPE = GEO_TYPE_OPTIONS[0]?.value ?? '';

/**
 * /home/Georegion (access §2): a device-type select, a location search (the city of the node's
 * location tag, matched exactly without regard to case), refresh, the table and its pages. The
 * type (`?type=`), the location (`?location=`) and the page live in the query string, so Back
 * from a device returns to them.
 */
export function GeoRegionRoute() {
  const [params, setParams] = useSearchParams();
  const type =
    GEO_TYPE_OPTIONS.find((option) => option.value === params.get('type'))?.value ?? DEFAULT_TYPE;
  const location = useUrlSearch('location', SEARCH_DEBOUNCE_MS, PAGE_PARAMS);
  const paging = useUrlCursorPaging(PAGE_SIZES.devices, DEFAULT_PAGE_SIZE);

  const chooseType = (value: string) =>
    setParams(
      (current) => {
        const next = withoutCursors(current);
        if (value === DEFAULT_TYPE) next.delete('type');
        else next.set('type', value);
        return next;
      },
      { replace: true },
    );

  return (
    <NodeScreen title={NODE_LABELS.geoRegionHeading}>
      <NodeListPanel
        filters={{ type: typeFromParam(type), city: location.applied }}
        emptyMessage={MESSAGES.locationNotFound}
        paging={paging}
        controls={
          <>
            <TypeSelect options={GEO_TYPE_OPTIONS} value={type} onChange={chooseType} />
            <SearchInput
              name="location"
              label={NODE_LABELS.searchLocation}
              placeholder={NODE_LABELS.searchLocationPlaceholder}
              value={location.text}
              onChange={location.change}
              onEnter={location.applyNow}
            />
          </>
        }
      />
    </NodeScreen>
  );
}
