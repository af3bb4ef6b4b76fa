import { NODE_LABELS } from '../labels';
import { FleetListScreen } from '../components/fleet-list-screen';
import { GRAPH_TYPE_OPTIONS } from '../model/filters';

/** /home/metricss: Graphs, the same node table with its own type options (fleet-management §2). */
export function GraphsRoute() {
  return <FleetListScreen title={NODE_LABELS.graphsHeading} typeOptions={GRAPH_TYPE_OPTIONS} />;
}
