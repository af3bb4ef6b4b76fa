import { CsvDownloadButton } from '../components/csv-download-button';
import { FleetListScreen } from '../components/fleet-list-screen';
import { NODE_LABELS } from '../labels';
import { TYPE_OPTIONS_WITH_ALL } from '../model/filters';

/**
 * /home/device-reports/ (access §2): the Devices list with Download All CSV, which writes every
 * node that matches the filters on screen.
 */
export function DeviceReportsRoute() {
  return (
    <FleetListScreen
      title={NODE_LABELS.deviceReportsHeading}
      typeOptions={TYPE_OPTIONS_WITH_ALL}
      actions={(filters) => <CsvDownloadButton filters={filters} />}
    />
  );
}
