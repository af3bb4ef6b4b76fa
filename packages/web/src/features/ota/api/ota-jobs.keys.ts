import type { JobListRequest } from './job-list.query';
import type { JobNodesRequest } from './job-nodes.query';

/** Query keys of the OTA job screens, from one factory so invalidation never misses one. */
export const otaJobKeys = {
  all: ['ota-jobs'] as const,
  /** Every page of every job list (active, archived, fleet and fault). */
  lists: () => [...otaJobKeys.all, 'list'] as const,
  list: (request: JobListRequest) => [...otaJobKeys.lists(), request] as const,
  /** Everything shown about one job: the job, its summary, its node pages, node histories. */
  job: (otaJobId: string) => [...otaJobKeys.all, 'job', otaJobId] as const,
  details: (otaJobId: string) => [...otaJobKeys.job(otaJobId), 'details'] as const,
  summary: (otaJobId: string) => [...otaJobKeys.job(otaJobId), 'summary'] as const,
  nodePages: (otaJobId: string) => [...otaJobKeys.job(otaJobId), 'nodes'] as const,
  nodes: (request: JobNodesRequest) =>
    [...otaJobKeys.nodePages(request.ota_job_id), request] as const,
  nodeHistory: (otaJobId: string, nodeId: string) =>
    [...otaJobKeys.job(otaJobId), 'history', nodeId] as const,
};
