import { LABELS } from '@fleetdeck/contract';
import { FleetListScreen } from '../components/fleet-list-screen';
import { TYPE_OPTIONS_WITH_ALL } from '../model/filters';

/** /home/nodes: the Devices list (fleet-management §2). */
export function DevicesRoute() {
  return <FleetListScreen title={LABELS.navDevices} typeOptions={TYPE_OPTIONS_WITH_ALL} />;
}
