import { OTA_PATHS } from '@fleetdeck/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import type { CreateJobRequest } from '../model/start-ota-form';
import { otaJobKeys } from '../../ota/api/ota-jobs.keys';
import { otaUrl } from '../../ota/api/ota-url';

/**
 * POST /v1/admin/otajob?force_push=true|false `{ota_job_name, ota_image_id, groups | nodes}`
 * → `{ota_job_id, total_count}`. The job lists (features/ota) refetch when next shown.
 */
export async function createJob({ forcePush, body }: CreateJobRequest) {
  const { CreateJobResponseSchema } = await loadSchemas();
  return apiJson(
    otaUrl(OTA_PATHS.job, { force_push: String(forcePush) }),
    CreateJobResponseSchema,
    {
      method: 'POST',
      body,
    },
  );
}

export function useCreateJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createJob,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: otaJobKeys.lists() }),
  });
}
