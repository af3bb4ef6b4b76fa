import { JobListScreen } from '../components/job-list-screen';

/** /home/ota-archived-jobs (fleet-management §2): archived OTA jobs, with when they were cancelled. */
export function OtaArchivedJobsRoute() {
  return <JobListScreen mode="fleet" archived={true} />;
}
