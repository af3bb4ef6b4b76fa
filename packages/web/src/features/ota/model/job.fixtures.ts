import type { JobList, JobSummary, OtaJob } from '@fleetdeck/contract';

/** Test data only: a summary with every count zero unless given. */
export function summaryOf(counts: Partial<JobSummary>): JobSummary {
  return {
    total: 0,
    started: 0,
    triggered: 0,
    in_progress: 0,
    delayed: 0,
    failed: 0,
    success: 0,
    rejected: 0,
    cancelled: 0,
    ...counts,
  };
}

/** Test data only: an active job of three nodes. */
export function jobOf(fields: Partial<OtaJob> = {}): OtaJob {
  return {
    ota_job_id: 'job-1',
    ota_job_name: 'Spring rollout',
    ota_image_id: 'img-1',
    image_name: 'fw 1.2',
    description: '',
    status: 'active',
    force_push: true,
    triggered_timestamp: 1_700_000_000,
    total_count: 3,
    completed_count: 0,
    groups: [],
    node_groups: [],
    nodes: ['n1', 'n2', 'n3'],
    archived: false,
    summary: summaryOf({ total: 3, triggered: 3 }),
    ...fields,
  };
}

/** Test data only: a page of jobs, listed under both names like the server does. */
export function pageOf(jobs: OtaJob[], total = jobs.length, nextId?: string): JobList {
  return {
    otaJobs: jobs,
    ota_jobs: jobs,
    total,
    ...(nextId === undefined ? {} : { next_id: nextId }),
  };
}
