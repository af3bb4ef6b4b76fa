import { API_PATHS, type UserSettingsUpdate } from '@fleetdeck/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { authKeys } from './auth.keys';

/** PUT /v1/user2: exactly one of name, phone_number, verification_code or mfa. */
export async function updateUserSettings(body: UserSettingsUpdate) {
  const { SuccessBodySchema } = await loadSchemas();
  return apiJson(API_PATHS.user2, SuccessBodySchema, { method: 'PUT', body });
}

export function useUpdateUserSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUserSettings,
    onSettled: () => queryClient.invalidateQueries({ queryKey: authKeys.currentUser() }),
  });
}
