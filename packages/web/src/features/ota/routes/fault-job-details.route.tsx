import { useParams } from 'react-router';
import { JobDetailsScreen } from '../components/job-details-screen';

/** /home/fault-job-details/{ota_job_id} (access §2 Fault screens). */
export function FaultJobDetailsRoute() {
  const { otaJobId = '' } = useParams();
  // A new job id is a new screen: paging and modals start afresh.
  return <JobDetailsScreen key={otaJobId} mode="fault" otaJobId={otaJobId} />;
}
