import { OTA_PATHS, type JobList } from '@fleetdeck/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-error';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { otaJobKeys } from './ota-jobs.keys';
import { otaUrl } from './ota-url';

export interface JobListRequest {
  archived: boolean;
  /** Only jobs of fault images (true) or only the others (false). */
  fault_image: boolean;
  /** Part of the job name; undefined lists every job. */
  ota_job_name?: string | undefined;
  start_id?: string | undefined;
  num_records: number;
}

/** A 404 from the list means there is no job at all ('No OTA Jobs found.'). */
export function isNoJobsError(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}

/** GET /v1/admin/otajob: one cursor page of jobs. */
export async function fetchJobList(
  request: JobListRequest,
  signal?: AbortSignal,
): Promise<JobList> {
  const { JobListSchema } = await loadSchemas();
  return apiJson(
    otaUrl(OTA_PATHS.job, {
      start_id: request.start_id,
      num_records: request.num_records,
      ota_job_name: request.ota_job_name,
      archived: String(request.archived),
      fault_image: String(request.fault_image),
    }),
    JobListSchema,
    signal ? { signal } : {},
  );
}

export const jobListQueryOptions = (request: JobListRequest) =>
  queryOptions({
    queryKey: otaJobKeys.list(request),
    queryFn: ({ signal }) => fetchJobList(request, signal),
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });

export function useJobList(request: JobListRequest) {
  return useQuery(jobListQueryOptions(request));
}
