import { useParams } from 'react-router';
import { JobDetailsScreen } from '../components/job-details-screen';

/** /home/job-details/{ota_job_id} (fleet-management §2). */
export function JobDetailsRoute() {
  const { otaJobId = '' } = useParams();
  // A new job id is a new screen: paging and modals start afresh.
  return <JobDetailsScreen key={otaJobId} mode="fleet" otaJobId={otaJobId} />;
}
