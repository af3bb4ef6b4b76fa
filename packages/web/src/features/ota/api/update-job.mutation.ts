import { OTA_PATHS, type JobList, type OtaJob } from '@fleetdeck/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { cancelledJob, withJobCancelled, withoutJob } from '../model/job-cache';
import type { JobListRequest } from './job-list.query';
import { otaJobKeys } from './ota-jobs.keys';

/** PUT /v1/admin/otajob `{ota_job_id}`: cancels the job → `{status, description}`. */
export async function cancelJob(otaJobId: string) {
  const { SuccessBodySchema } = await loadSchemas();
  return apiJson(OTA_PATHS.job, SuccessBodySchema, {
    method: 'PUT',
    body: { ota_job_id: otaJobId },
  });
}

/** PUT /v1/admin/otajob `{ota_job_id, archive: "true"}`: archives a cancelled job. */
export async function archiveJob(otaJobId: string) {
  const { SuccessBodySchema } = await loadSchemas();
  return apiJson(OTA_PATHS.job, SuccessBodySchema, {
    method: 'PUT',
    body: { ota_job_id: otaJobId, archive: 'true' },
  });
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function isActiveList(queryKey: readonly unknown[]): boolean {
  const request = queryKey[otaJobKeys.lists().length] as JobListRequest | undefined;
  return request?.archived === false;
}

/** The cancelled job shows as cancelled in every cached page and on its details at once. */
function applyCancelled(queryClient: QueryClient, otaJobId: string) {
  const at = nowSeconds();
  queryClient.setQueriesData<JobList>({ queryKey: otaJobKeys.lists() }, (list) =>
    list === undefined ? list : withJobCancelled(list, otaJobId, at),
  );
  queryClient.setQueryData<OtaJob>(otaJobKeys.details(otaJobId), (job) =>
    job === undefined ? job : cancelledJob(job, at),
  );
}

/** The archived job leaves every cached page of the active lists. */
function applyArchived(queryClient: QueryClient, otaJobId: string) {
  queryClient.setQueriesData<JobList>(
    { queryKey: otaJobKeys.lists(), predicate: (query) => isActiveList(query.queryKey) },
    (list) => (list === undefined ? list : withoutJob(list, otaJobId)),
  );
  queryClient.setQueryData<OtaJob>(otaJobKeys.details(otaJobId), (job) =>
    job === undefined ? job : { ...job, archived: true },
  );
}

/**
 * Cancel Job: on success the lists show the job as cancelled without a reload (fleet-management
 * §4); they are only marked stale, so the server's view replaces the local one on the next visit.
 * The job's own details, summary and nodes are fetched again (their executions were cancelled).
 */
export function useCancelJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelJob,
    onSuccess: (_body, otaJobId) => {
      applyCancelled(queryClient, otaJobId);
      void queryClient.invalidateQueries({ queryKey: otaJobKeys.lists(), refetchType: 'none' });
      void queryClient.invalidateQueries({ queryKey: otaJobKeys.job(otaJobId) });
    },
  });
}

/** Archive: the job leaves the active lists at once; the archived lists load it next time. */
export function useArchiveJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: archiveJob,
    onSuccess: (_body, otaJobId) => {
      applyArchived(queryClient, otaJobId);
      void queryClient.invalidateQueries({ queryKey: otaJobKeys.lists(), refetchType: 'none' });
    },
  });
}
