import { OTA_PATHS, type JobSummary } from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { otaJobKeys } from './ota-jobs.keys';
import { otaUrl } from './ota-url';

/** GET /v1/admin/otajob/status/summary?ota_job_id=…: the job's nodes counted by state. */
export async function fetchJobSummary(otaJobId: string, signal?: AbortSignal): Promise<JobSummary> {
  const { JobSummarySchema } = await loadSchemas();
  return apiJson(
    otaUrl(OTA_PATHS.jobSummary, { ota_job_id: otaJobId }),
    JobSummarySchema,
    signal ? { signal } : {},
  );
}

export const jobSummaryQueryOptions = (otaJobId: string) =>
  queryOptions({
    queryKey: otaJobKeys.summary(otaJobId),
    queryFn: ({ signal }) => fetchJobSummary(otaJobId, signal),
    refetchOnWindowFocus: false,
  });

export function useJobSummary(otaJobId: string) {
  return useQuery(jobSummaryQueryOptions(otaJobId));
}
