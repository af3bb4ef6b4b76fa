import { MESSAGES } from '@fleetdeck/contract';
import { useState } from 'react';
import { NodeListPanel } from '../components/node-list-panel';
import { NodeScreen } from '../components/node-screen';
import { SearchInput } from '../components/search-input';
import { TypeSelect } from '../components/type-select';
import { useSearchFilter } from '../components/use-search-filter';
import { NODE_LABELS } from '../labels';
import { GEO_TYPE_OPTIONS, typeFromParam } from '../model/filters';

const DEFAULT_TYPE = GEO_TYPE_OPTIONS[0]?.value ?? '';

/**
 * /home/Georegion (access §2): a device-type select, a location search (the city of the node's
 * location tag, matched exactly without regard to case), refresh, the table and its pages.
 */
export function GeoRegionRoute() {
  const [type, setType] = useState(DEFAULT_TYPE);
  const location = useSearchFilter();

  return (
    <NodeScreen title={NODE_LABELS.geoRegionHeading}>
      <NodeListPanel
        filters={{ type: typeFromParam(type), city: location.applied }}
        emptyMessage={MESSAGES.locationNotFound}
        controls={
          <>
            <TypeSelect options={GEO_TYPE_OPTIONS} value={type} onChange={setType} />
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
