import type { OtaImage } from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchImageList } from '../../firmware/api/image-list.query';
import { FAULT_TYPES, type FaultTypeKey } from '../model/fault-types';
import { faultKeys } from './faults.keys';

/** Fault images are few; one page of the largest size the API allows holds them all. */
const FAULT_IMAGE_PAGE = 100;

/**
 * The fault images that remedy a code on one appliance type: GET /v1/admin/otaimage with
 * fault_image=true (not archived), kept to those whose `fault_id` is the code (error code or
 * display code, whichever the uploader typed) and whose type is the type's. Newest first.
 */
export async function fetchFaultImages(
  type: FaultTypeKey,
  codes: readonly string[],
  signal?: AbortSignal,
): Promise<OtaImage[]> {
  const list = await fetchImageList(
    { num_records: FAULT_IMAGE_PAGE, archived: false, fault_image: true },
    signal,
  );
  const wanted = new Set(codes.map((code) => code.trim().toLowerCase()));
  return list.ota_images
    .filter(
      (image) =>
        image.fault_id !== undefined &&
        wanted.has(image.fault_id.trim().toLowerCase()) &&
        image.type === FAULT_TYPES[type].nodeType,
    )
    .sort((a, b) => b.upload_timestamp - a.upload_timestamp);
}

export const faultImagesQueryOptions = (type: FaultTypeKey, codes: readonly string[]) =>
  queryOptions({
    queryKey: [...faultKeys.images(type, codes.join('|'))],
    queryFn: ({ signal }) => fetchFaultImages(type, codes, signal),
    refetchOnWindowFocus: false,
  });

export function useFaultImages(type: FaultTypeKey, codes: readonly string[], enabled: boolean) {
  return useQuery({ ...faultImagesQueryOptions(type, codes), enabled });
}
