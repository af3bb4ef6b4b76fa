import { OTA_PATHS } from '@fleetdeck/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { firmwareKeys } from './firmware.keys';
import { otaUrl } from '../../ota/api/ota-url';

export interface ArchiveImageRequest {
  ota_image_id: string;
  archive: boolean;
}

/** PUT /v1/admin/otaimage?ota_image_id=…&archive=true|false → `{status, description}`. */
export async function archiveImage({ ota_image_id, archive }: ArchiveImageRequest) {
  const { SuccessBodySchema } = await loadSchemas();
  return apiJson(
    otaUrl(OTA_PATHS.image, { ota_image_id, archive: String(archive) }),
    SuccessBodySchema,
    {
      method: 'PUT',
    },
  );
}

export function useArchiveImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: archiveImage,
    onSuccess: (_body, request) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: firmwareKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: firmwareKeys.detail(request.ota_image_id) }),
      ]),
  });
}
