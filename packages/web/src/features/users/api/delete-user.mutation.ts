import { API_PATHS, SuccessBodySchema } from '@fleetdeck/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { userKeys } from './users.keys';

const url = (params: Record<string, string>) =>
  `${API_PATHS.adminUser2}?${new URLSearchParams(params)}`;

/** DELETE /v1/admin/user2?request=true&user_name=: mails a 6-digit code to the signed-in admin. */
export function requestUserDeletion(userName: string) {
  return apiJson(url({ request: 'true', user_name: userName }), SuccessBodySchema, {
    method: 'DELETE',
  });
}

/** DELETE /v1/admin/user2?user_name=&verification_code=: deletes with the code. */
export function deleteUser(request: { userName: string; code: string }) {
  return apiJson(
    url({ user_name: request.userName, verification_code: request.code }),
    SuccessBodySchema,
    { method: 'DELETE' },
  );
}

export function useRequestUserDeletion() {
  return useMutation({ mutationFn: requestUserDeletion });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.list() }),
  });
}
