import { useParams } from 'react-router';
import { ReportScreen } from '../components/report-screen';

/** /home/diagnostics/report/{nodeId}: the Device Report tab. */
export function ReportRoute() {
  const { nodeId = '' } = useParams();
  // Another device is another report: window, paging and expanded rows start afresh.
  return <ReportScreen key={nodeId} nodeId={nodeId} />;
}
