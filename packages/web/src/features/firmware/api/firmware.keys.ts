import type { ImageListRequest } from './image-list.query';

/** Query keys of the firmware feature, from one factory so invalidation never misses one. */
export const firmwareKeys = {
  all: ['firmware'] as const,
  /** Every page of every image list (firmware, fault, archived). */
  lists: () => [...firmwareKeys.all, 'list'] as const,
  list: (request: ImageListRequest) => [...firmwareKeys.lists(), request] as const,
  details: () => [...firmwareKeys.all, 'details'] as const,
  detail: (otaImageId: string) => [...firmwareKeys.details(), otaImageId] as const,
};
