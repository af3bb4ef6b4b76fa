import { API_PATHS } from '@fleetdeck/contract';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { identityKeys, poolUrl } from './identity.keys';

/** GET /v1/admin/identity_provider?email_mobile_userpool= → the pool's providers, secrets masked. */
export async function fetchIdentityProviders(emailMobileUserpool: boolean, signal?: AbortSignal) {
  const { IdentityProviderListSchema } = await loadSchemas();
  return apiJson(
    poolUrl(API_PATHS.identityProvider, emailMobileUserpool),
    IdentityProviderListSchema,
    signal ? { signal } : {},
  );
}

export function useIdentityProviders(emailMobileUserpool: boolean) {
  return useQuery({
    queryKey: identityKeys.providers(emailMobileUserpool),
    queryFn: ({ signal }) => fetchIdentityProviders(emailMobileUserpool, signal),
  });
}
