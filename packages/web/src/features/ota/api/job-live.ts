import type { JobList } from '@fleetdeck/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { subscribeOtaJobEvents } from '../../nodes/api/node-events.stream';
import { listShowsAnyJob } from '../model/job-cache';
import type { JobListRequest } from './job-list.query';
import { otaJobKeys } from './ota-jobs.keys';

/**
 * Job details live while a rollout runs: every `ota.job` event for this job (at most one a second,
 * see OTA_JOB_FLUSH_INTERVAL_MS) refetches the job, its summary and its node page. A refetch still
 * under way is not cancelled, so a slow server is not starved by a busy rollout.
 */
export function useLiveJob(otaJobId: string): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      subscribeOtaJobEvents((notice) => {
        if (notice.kind === 'jobs' && !notice.events.has(otaJobId)) return;
        void queryClient.invalidateQueries(
          { queryKey: otaJobKeys.job(otaJobId) },
          { cancelRefetch: false },
        );
        void queryClient.invalidateQueries({ queryKey: otaJobKeys.lists(), refetchType: 'none' });
      }),
    [otaJobId, queryClient],
  );
}

/**
 * A job list live: the page on screen is fetched again when a job on it changes (a job that is
 * not on the page changes nothing the page shows), and after the stream was broken.
 */
export function useLiveJobList(request: JobListRequest): void {
  const queryClient = useQueryClient();
  const { archived, fault_image, ota_job_name, start_id, num_records } = request;
  useEffect(() => {
    const queryKey = otaJobKeys.list({
      archived,
      fault_image,
      ota_job_name,
      start_id,
      num_records,
    });
    return subscribeOtaJobEvents((notice) => {
      const page = queryClient.getQueryData<JobList>(queryKey);
      if (notice.kind === 'jobs' && !listShowsAnyJob(page, notice.events.keys())) return;
      void queryClient.invalidateQueries({ queryKey }, { cancelRefetch: false });
    });
  }, [queryClient, archived, fault_image, ota_job_name, start_id, num_records]);
}
