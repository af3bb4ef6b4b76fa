import { API_PATHS } from '@fleetdeck/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { authKeys } from './auth.keys';

/** POST /v1/user2/totp: a new secret, its otpauth URI and QR code (not active until confirmed). */
export async function beginTotp() {
  const { TotpBeginResponseSchema } = await loadSchemas();
  return apiJson(API_PATHS.userTotp, TotpBeginResponseSchema, { method: 'POST' });
}

/** PUT /v1/user2/totp {code}: turns the app on; answers the recovery codes, shown once. */
export async function confirmTotp(code: string) {
  const { TotpConfirmResponseSchema } = await loadSchemas();
  return apiJson(API_PATHS.userTotp, TotpConfirmResponseSchema, {
    method: 'PUT',
    body: { code },
  });
}

/** DELETE /v1/user2/totp {code}: removes the app and its recovery codes. */
export async function disableTotp(code: string) {
  const { SuccessBodySchema } = await loadSchemas();
  return apiJson(API_PATHS.userTotp, SuccessBodySchema, { method: 'DELETE', body: { code } });
}

export function useBeginTotp() {
  return useMutation({ mutationFn: beginTotp });
}

export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmTotp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.currentUser() }),
  });
}

export function useDisableTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTotp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.currentUser() }),
  });
}
