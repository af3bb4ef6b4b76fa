import { JobListScreen } from '../components/job-list-screen';

/** /home/ota-jobs/ (fleet-management §2): the active OTA jobs. */
export function OtaJobsRoute() {
  return <JobListScreen mode="fleet" archived={false} />;
}
