import { JobListScreen } from '../components/job-list-screen';

/** /home/faultjobs (access §2 Fault screens): the active jobs of fault images. */
export function FaultJobsRoute() {
  return <JobListScreen mode="fault" archived={false} />;
}
