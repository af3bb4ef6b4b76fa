import { API_PATHS } from '@fleetdeck/contract';
import { useMutation } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';

const url = (params: Record<string, string>) => `${API_PATHS.user2}?${new URLSearchParams(params)}`;

/** DELETE /v1/user2?request=true: mails a 6-digit code to the signed-in user's own address. */
export async function requestAccountDeletion() {
  const { SuccessBodySchema } = await loadSchemas();
  return apiJson(url({ request: 'true' }), SuccessBodySchema, { method: 'DELETE' });
}

/** DELETE /v1/user2?verification_code=: deletes the signed-in user's account; its sessions end. */
export async function deleteAccount(code: string) {
  const { SuccessBodySchema } = await loadSchemas();
  return apiJson(url({ verification_code: code }), SuccessBodySchema, { method: 'DELETE' });
}

export function useRequestAccountDeletion() {
  return useMutation({ mutationFn: requestAccountDeletion });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
