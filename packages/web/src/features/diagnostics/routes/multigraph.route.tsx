import { useParams } from 'react-router';
import { MultigraphScreen } from '../components/multigraph-screen';

/** /home/diagnostics/multigraph1/{node_id}: several metrics of one node on one chart. */
export function MultigraphRoute() {
  const { nodeId = '' } = useParams();
  return <MultigraphScreen key={nodeId} nodeId={nodeId} />;
}
