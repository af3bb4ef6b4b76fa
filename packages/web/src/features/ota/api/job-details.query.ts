import { OTA_PATHS, SERVER_MESSAGES, type OtaJob } from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { otaJobKeys } from './ota-jobs.keys';
import { otaUrl } from './ota-url';

/** GET /v1/admin/otajob?ota_job_id=…: the one job (404 'OTA job does not exist'). */
export async function fetchJobDetails(otaJobId: string, signal?: AbortSignal): Promise<OtaJob> {
  const { JobListSchema } = await loadSchemas();
  const list = await apiJson(
    otaUrl(OTA_PATHS.job, { ota_job_id: otaJobId }),
    JobListSchema,
    signal ? { signal } : {},
  );
  const job = list.otaJobs[0];
  if (job === undefined) throw new ApiError(404, SERVER_MESSAGES.jobNotFound, null);
  return job;
}

export const jobDetailsQueryOptions = (otaJobId: string) =>
  queryOptions({
    queryKey: otaJobKeys.details(otaJobId),
    queryFn: ({ signal }) => fetchJobDetails(otaJobId, signal),
    refetchOnWindowFocus: false,
  });

export function useJobDetails(otaJobId: string) {
  return useQuery(jobDetailsQueryOptions(otaJobId));
}
