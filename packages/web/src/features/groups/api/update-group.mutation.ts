import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { groupKeys } from './groups.keys';
import { nodeGroupUrl } from './node-group-path';

export interface UpdateGroupRequest {
  group_id: string;
  operation: 'add' | 'remove';
  nodes: readonly string[];
}

/** PUT /v1/admin/node_group?group_id=… `{operation, nodes}` → `{status, description}`. */
export async function updateGroup({ group_id, operation, nodes }: UpdateGroupRequest) {
  const { SuccessBodySchema } = await loadSchemas();
  return apiJson(nodeGroupUrl({ group_id }), SuccessBodySchema, {
    method: 'PUT',
    body: { operation, nodes },
  });
}

export function useUpdateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateGroup,
    onSuccess: (_body, request) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: groupKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: groupKeys.detailsOf(request.group_id) }),
      ]),
  });
}
