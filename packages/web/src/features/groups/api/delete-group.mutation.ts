import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { groupKeys } from './groups.keys';
import { nodeGroupUrl } from './node-group-path';

/** DELETE /v1/admin/node_group?group_id=… → `{status, description}`. */
export async function deleteGroup(groupId: string) {
  const { SuccessBodySchema } = await loadSchemas();
  return apiJson(nodeGroupUrl({ group_id: groupId }), SuccessBodySchema, { method: 'DELETE' });
}

export function useDeleteGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteGroup,
    // The details page stays on screen for the result and 'Ok'; it drops its own cache after.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.lists() }),
  });
}
