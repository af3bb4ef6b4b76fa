import { API_PATHS, type IdentityProviderBody } from '@fleetdeck/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { identityKeys, poolUrl } from './identity.keys';

export interface SaveIdentityProviderRequest {
  emailMobileUserpool: boolean;
  /** `edit` sends PUT (edit), otherwise POST (configure). */
  mode: 'create' | 'edit';
  body: IdentityProviderBody;
}

/** POST (configure) or PUT (edit) /v1/admin/identity_provider → `{status, description}`. */
export async function saveIdentityProvider(request: SaveIdentityProviderRequest) {
  const { SuccessBodySchema } = await loadSchemas();
  return apiJson(
    poolUrl(API_PATHS.identityProvider, request.emailMobileUserpool),
    SuccessBodySchema,
    { method: request.mode === 'edit' ? 'PUT' : 'POST', body: request.body },
  );
}

/** Deletes a provider: DELETE /v1/admin/identity_provider with `{provider_type}`. */
export async function deleteIdentityProvider(request: {
  emailMobileUserpool: boolean;
  providerType: IdentityProviderBody['provider_type'];
}) {
  const { SuccessBodySchema } = await loadSchemas();
  return apiJson(
    poolUrl(API_PATHS.identityProvider, request.emailMobileUserpool),
    SuccessBodySchema,
    { method: 'DELETE', body: { provider_type: request.providerType } },
  );
}

/** Saving a provider also changes the pool's default app client (it joins it). */
export function useSaveIdentityProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveIdentityProvider,
    onSuccess: (_data, request) =>
      queryClient.invalidateQueries({ queryKey: identityKeys.pool(request.emailMobileUserpool) }),
  });
}

export function useDeleteIdentityProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteIdentityProvider,
    onSuccess: (_data, request) =>
      queryClient.invalidateQueries({ queryKey: identityKeys.pool(request.emailMobileUserpool) }),
  });
}
