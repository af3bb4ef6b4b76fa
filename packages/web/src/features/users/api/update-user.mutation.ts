import { API_PATHS, SuccessBodySchema, type UpdateUserBody } from '@fleetdeck/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { personalData, saveCustomData } from './create-user.mutation';
import { userKeys } from './users.keys';

/** PUT /v1/admin/user2?user_name=, then the personal custom data again. */
export async function updateUser(request: {
  userName: string;
  body: Required<Omit<UpdateUserBody, 'roles'>> & Pick<UpdateUserBody, 'roles'>;
}) {
  const answer = await apiJson(
    `${API_PATHS.adminUser2}?user_name=${encodeURIComponent(request.userName)}`,
    SuccessBodySchema.loose(),
    { method: 'PUT', body: request.body },
  );
  await saveCustomData(request.userName, personalData(request.body));
  return answer;
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
