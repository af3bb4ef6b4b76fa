import { OTA_PATHS, type JobStatusList } from '@fleetdeck/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-error';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { otaJobKeys } from './ota-jobs.keys';
import { otaUrl } from './ota-url';

export interface JobNodesRequest {
  ota_job_id: string;
  start_id?: string | undefined;
  num_records: number;
}

/** The node list's 404 means the job has no node ('No node associated with this job'). */
export function isNoJobNodesError(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}

/** GET /v1/admin/otajob/status?ota_job_id=…: one cursor page of the job's nodes and states. */
export async function fetchJobNodes(
  request: JobNodesRequest,
  signal?: AbortSignal,
): Promise<JobStatusList> {
  const { JobStatusListSchema } = await loadSchemas();
  return apiJson(
    otaUrl(OTA_PATHS.jobStatus, {
      ota_job_id: request.ota_job_id,
      start_id: request.start_id,
      num_records: request.num_records,
    }),
    JobStatusListSchema,
    signal ? { signal } : {},
  );
}

export const jobNodesQueryOptions = (request: JobNodesRequest) =>
  queryOptions({
    queryKey: otaJobKeys.nodes(request),
    queryFn: ({ signal }) => fetchJobNodes(request, signal),
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });

export function useJobNodes(request: JobNodesRequest) {
  return useQuery(jobNodesQueryOptions(request));
}
