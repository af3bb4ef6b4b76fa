import { OTA_PATHS } from '@fleetdeck/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { firmwareKeys } from './firmware.keys';
import { otaUrl } from '../../ota/api/ota-url';

/**
 * DELETE /v1/admin/otaimage?ota_image_id=… → `{status, description}`; a 400 with the reason
 * when an active job uses the image.
 */
export async function deleteImage(otaImageId: string) {
  const { SuccessBodySchema } = await loadSchemas();
  return apiJson(otaUrl(OTA_PATHS.image, { ota_image_id: otaImageId }), SuccessBodySchema, {
    method: 'DELETE',
  });
}

export function useDeleteImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteImage,
    // A details page stays on screen for the result and 'Ok'; it drops its own cache after.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: firmwareKeys.lists() }),
  });
}
