import { OTA_PATHS } from '@fleetdeck/contract';
import type { ImageList } from '@fleetdeck/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-error';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { firmwareKeys } from './firmware.keys';
import { otaUrl } from '../../ota/api/ota-url';

/** One page request of GET /v1/admin/otaimage. */
export interface ImageListRequest {
  start_id?: string | undefined;
  num_records: number;
  /** Case-insensitive part of the name, type or model. */
  contains?: string | undefined;
  archived: boolean;
  fault_image: boolean;
}

const EMPTY_LIST: ImageList = { ota_images: [], total: 0 };

/** The URL of one page; paging first, an empty search left out. */
export function imageListPath(request: ImageListRequest): string {
  return otaUrl(OTA_PATHS.image, {
    start_id: request.start_id,
    num_records: request.num_records,
    contains: request.contains,
    archived: String(request.archived),
    fault_image: String(request.fault_image),
  });
}

/** GET /v1/admin/otaimage: one cursor page of images; a 404 is read as an empty list. */
export async function fetchImageList(
  request: ImageListRequest,
  signal?: AbortSignal,
): Promise<ImageList> {
  const { ImageListSchema } = await loadSchemas();
  try {
    return await apiJson(imageListPath(request), ImageListSchema, signal ? { signal } : {});
  } catch (error) {
    if (isApiError(error) && error.status === 404) return EMPTY_LIST;
    throw error;
  }
}

export const imageListQueryOptions = (request: ImageListRequest) =>
  queryOptions({
    queryKey: firmwareKeys.list(request),
    queryFn: ({ signal }) => fetchImageList(request, signal),
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });

export function useImageList(request: ImageListRequest) {
  return useQuery(imageListQueryOptions(request));
}
