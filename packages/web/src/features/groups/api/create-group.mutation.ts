import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import type { CreateGroupRequest } from '../model/group-form';
import { groupKeys } from './groups.keys';
import { NODE_GROUP_PATH } from './node-group-path';

/** POST /v1/admin/node_group → `{status, description, group_id}`. */
export async function createGroup(body: CreateGroupRequest) {
  const { CreateGroupResponseSchema } = await loadSchemas();
  return apiJson(NODE_GROUP_PATH, CreateGroupResponseSchema, { method: 'POST', body });
}

export function useCreateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.lists() }),
  });
}
