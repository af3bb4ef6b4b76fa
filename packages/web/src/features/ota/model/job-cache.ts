import type { JobList, OtaJob } from '@fleetdeck/contract';

/**
 * Cache edits after a cancel or an archive, so the list changes at once without a reload
 * (fleet-management §4). The list arrives under two names (`otaJobs`, `ota_jobs`) holding the
 * same jobs; both are kept in step. Pure, so the rules are unit-tested.
 */

/** The job marked cancelled at `cancelledAt` (epoch seconds), unless the server said otherwise. */
export function cancelledJob(job: OtaJob, cancelledAt: number): OtaJob {
  return {
    ...job,
    status: 'cancelled',
    canceled_timestamp: job.canceled_timestamp ?? cancelledAt,
  };
}

function mapJobs(list: JobList, change: (job: OtaJob) => OtaJob | null): JobList {
  const apply = (jobs: readonly OtaJob[]) =>
    jobs.flatMap((job) => {
      const next = change(job);
      return next === null ? [] : [next];
    });
  const otaJobs = apply(list.otaJobs);
  const removed = list.otaJobs.length - otaJobs.length;
  return {
    ...list,
    otaJobs,
    ota_jobs: apply(list.ota_jobs),
    total: Math.max(0, list.total - removed),
  };
}

/** The page with one job shown as cancelled; the same page object when the job is not on it. */
export function withJobCancelled(list: JobList, otaJobId: string, cancelledAt: number): JobList {
  if (!list.otaJobs.some((job) => job.ota_job_id === otaJobId)) return list;
  return mapJobs(list, (job) =>
    job.ota_job_id === otaJobId ? cancelledJob(job, cancelledAt) : job,
  );
}

/** The page without one job (it was archived), its total one lower. */
export function withoutJob(list: JobList, otaJobId: string): JobList {
  if (!list.otaJobs.some((job) => job.ota_job_id === otaJobId)) return list;
  return mapJobs(list, (job) => (job.ota_job_id === otaJobId ? null : job));
}

/** Whether any of these job ids is on the page (live events refetch only pages they touch). */
export function listShowsAnyJob(list: JobList | undefined, otaJobIds: Iterable<string>): boolean {
  if (list === undefined) return false;
  const shown = new Set(list.otaJobs.map((job) => job.ota_job_id));
  for (const id of otaJobIds) if (shown.has(id)) return true;
  return false;
}
