import { useParams } from 'react-router';
import { VariablesScreen } from '../components/variables-screen';

/** /home/diagnostics/paramvalues/{nodeId}: the Variables tab. */
export function ParamValuesRoute() {
  const { nodeId = '' } = useParams();
  return <VariablesScreen key={nodeId} nodeId={nodeId} />;
}
