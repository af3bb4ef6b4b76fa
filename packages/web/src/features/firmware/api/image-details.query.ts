import { OTA_PATHS } from '@fleetdeck/contract';
import type { OtaImage } from '@fleetdeck/contract';
import { SERVER_MESSAGES } from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { firmwareKeys } from './firmware.keys';
import { otaUrl } from '../../ota/api/ota-url';

/** GET /v1/admin/otaimage?ota_image_id=…: one image, archived or not; none is a 404. */
export async function fetchImage(otaImageId: string, signal?: AbortSignal): Promise<OtaImage> {
  const { ImageListSchema } = await loadSchemas();
  const list = await apiJson(
    otaUrl(OTA_PATHS.image, { ota_image_id: otaImageId }),
    ImageListSchema,
    signal ? { signal } : {},
  );
  const image = list.ota_images.find((candidate) => candidate.ota_image_id === otaImageId);
  if (image === undefined) throw new ApiError(404, SERVER_MESSAGES.imageNotFound, null);
  return image;
}

export const imageDetailsQueryOptions = (otaImageId: string) =>
  queryOptions({
    queryKey: firmwareKeys.detail(otaImageId),
    queryFn: ({ signal }) => fetchImage(otaImageId, signal),
    refetchOnWindowFocus: false,
  });

export function useImageDetails(otaImageId: string) {
  return useQuery(imageDetailsQueryOptions(otaImageId));
}
