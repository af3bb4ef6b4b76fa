import { API_PATHS, type DeploymentMode, type PasswordChangeBody } from '@fleetdeck/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { markSignedIn } from '../../../lib/session';
import { authKeys } from './auth.keys';

/**
 * PUT /v1/password (or /v1/password2 in customer mode). The answer is the success body plus the
 * expiry of the fresh session the change starts (not in the contract yet; see hand-over notes).
 */
export async function changePassword(body: PasswordChangeBody, mode: DeploymentMode) {
  const { LoginResponseSchema, SuccessBodySchema } = await loadSchemas();
  const responseSchema = SuccessBodySchema.extend({
    expires_at: LoginResponseSchema.shape.expires_at.optional(),
  });
  const path = mode === 'customer' ? API_PATHS.password2 : API_PATHS.password;
  return apiJson(path, responseSchema, { method: 'PUT', body });
}

export function useChangePassword(mode: DeploymentMode) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PasswordChangeBody) => changePassword(body, mode),
    onSuccess: async (result) => {
      // The server started a new session (and revoked the others): follow its expiry.
      if (result.expires_at !== undefined) markSignedIn(result.expires_at);
      await queryClient.invalidateQueries({ queryKey: authKeys.currentUser() });
    },
  });
}
