import { SERVER_MESSAGES, type NodeGroup } from '@fleetdeck/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { groupKeys } from './groups.keys';
import { nodeGroupUrl } from './node-group-path';

export interface GroupDetailsRequest {
  group_id: string;
  /** The node cursor of this page. */
  start_id?: string | undefined;
  num_records: number;
}

/** GET /v1/admin/node_group?group_id=…&node_details=true: the group and one page of its nodes. */
export async function fetchGroupDetails(
  request: GroupDetailsRequest,
  signal?: AbortSignal,
): Promise<NodeGroup> {
  const { GroupListSchema } = await loadSchemas();
  const list = await apiJson(
    nodeGroupUrl({
      group_id: request.group_id,
      start_id: request.start_id,
      num_records: request.num_records,
      node_details: 'true',
    }),
    GroupListSchema,
    signal ? { signal } : {},
  );
  const group = list.groups[0];
  if (group === undefined) throw new ApiError(404, SERVER_MESSAGES.groupNotFound, null);
  return group;
}

export const groupDetailsQueryOptions = (request: GroupDetailsRequest) =>
  queryOptions({
    queryKey: groupKeys.detail(request),
    queryFn: ({ signal }) => fetchGroupDetails(request, signal),
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });

export function useGroupDetails(request: GroupDetailsRequest) {
  return useQuery(groupDetailsQueryOptions(request));
}
