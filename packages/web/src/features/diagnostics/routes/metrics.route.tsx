import { useParams } from 'react-router';
import { GraphsScreen } from '../components/graphs-screen';

/** /home/diagnostics/metrics/{nodeId}: the Graphs tab. */
export function MetricsRoute() {
  const { nodeId = '' } = useParams();
  return <GraphsScreen key={nodeId} nodeId={nodeId} />;
}
