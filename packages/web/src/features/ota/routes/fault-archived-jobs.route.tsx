import { JobListScreen } from '../components/job-list-screen';

/** /home/fault-ota-archived-jobs (access §2 Fault screens): archived fault jobs. */
export function FaultArchivedJobsRoute() {
  return <JobListScreen mode="fault" archived={true} />;
}
