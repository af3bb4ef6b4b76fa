import type { GroupList, NodeGroup } from '@fleetdeck/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-error';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { groupKeys } from './groups.keys';
import { nodeGroupUrl } from './node-group-path';

export interface GroupListRequest {
  start_id?: string | undefined;
  num_records: number;
}

/** A 404 from the list means there is no group at all ('Please create a Node Group'). */
export function isNoGroupsError(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}

/** GET /v1/admin/node_group: one cursor page of groups, ordered by group_id. */
export async function fetchGroupList(
  request: GroupListRequest,
  signal?: AbortSignal,
): Promise<GroupList> {
  const { GroupListSchema } = await loadSchemas();
  return apiJson(
    nodeGroupUrl({ start_id: request.start_id, num_records: request.num_records }),
    GroupListSchema,
    signal ? { signal } : {},
  );
}

export const groupListQueryOptions = (request: GroupListRequest) =>
  queryOptions({
    queryKey: groupKeys.list(request),
    queryFn: ({ signal }) => fetchGroupList(request, signal),
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });

export function useGroupList(request: GroupListRequest) {
  return useQuery(groupListQueryOptions(request));
}

/** Pages fetched at most for the add-to-group choice (100 groups a page). */
const MAX_CHOICE_PAGES = 20;

/** Every group (following next_id), for the add-to-group select; none when the list is 404. */
export async function fetchAllGroups(signal?: AbortSignal): Promise<NodeGroup[]> {
  const groups: NodeGroup[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_CHOICE_PAGES; page += 1) {
    let list: GroupList;
    try {
      list = await fetchGroupList({ start_id: cursor, num_records: 100 }, signal);
    } catch (error) {
      if (isNoGroupsError(error)) return groups;
      throw error;
    }
    groups.push(...list.groups);
    if (!list.next_id || list.next_id === cursor) break;
    cursor = list.next_id;
  }
  return groups;
}

export function useAllGroups(enabled: boolean) {
  return useQuery({
    queryKey: groupKeys.allGroups(),
    queryFn: ({ signal }) => fetchAllGroups(signal),
    enabled,
    staleTime: 0,
  });
}
