import { Navigate, useSearchParams } from 'react-router';
import { readLastNode } from '../model/last-node';
import { diagnosticsTabPath } from '../model/paths';

/** Query names a link to /home/diagnostics may carry the device id in. */
const NODE_PARAMS = ['node_id', 'nodeId', 'id'] as const;

/**
 * /home/diagnostics redirects to the report tab of the device in the query, or of the last one
 * viewed; with neither, the layout's device-id search is all there is to do.
 */
export function DiagnosticsIndexRoute() {
  const [params] = useSearchParams();
  const fromQuery = NODE_PARAMS.map((name) => params.get(name)?.trim()).find(Boolean);
  const nodeId = fromQuery ?? readLastNode();
  if (!nodeId) return null;
  return <Navigate to={diagnosticsTabPath('report', nodeId)} replace />;
}
