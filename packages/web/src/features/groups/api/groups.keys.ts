/** Query keys of the device-groups feature, from one factory so invalidation never misses one. */
export const groupKeys = {
  all: ['groups'] as const,
  /** Every page of the Device Groups list (and the add-to-group modal's full list). */
  lists: () => [...groupKeys.all, 'list'] as const,
  list: (request: { start_id?: string | undefined; num_records: number }) =>
    [...groupKeys.lists(), request] as const,
  allGroups: () => [...groupKeys.lists(), 'every'] as const,
  details: () => [...groupKeys.all, 'details'] as const,
  detailsOf: (groupId: string) => [...groupKeys.details(), groupId] as const,
  detail: (request: { group_id: string; start_id?: string | undefined; num_records: number }) =>
    [...groupKeys.detailsOf(request.group_id), request] as const,
  matchCount: (params: string) => [...groupKeys.all, 'match-count', params] as const,
};
