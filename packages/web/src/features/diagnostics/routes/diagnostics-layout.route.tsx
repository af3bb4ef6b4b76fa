import { DiagnosticsLayout } from '../components/diagnostics-layout';

/** /home/diagnostics and its tabs (access §2): the header, the search and the tabs. */
export function DiagnosticsLayoutRoute() {
  return <DiagnosticsLayout />;
}
