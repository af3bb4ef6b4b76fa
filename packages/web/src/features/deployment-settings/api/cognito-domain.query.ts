import { API_PATHS } from '@fleetdeck/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { identityKeys, poolUrl } from './identity.keys';

/** GET /v1/admin/cognito_domain?email_mobile_userpool= → `{domain_name}` (null when none). */
export async function fetchCognitoDomain(emailMobileUserpool: boolean, signal?: AbortSignal) {
  const { CognitoDomainSchema } = await loadSchemas();
  return apiJson(
    poolUrl(API_PATHS.cognitoDomain, emailMobileUserpool),
    CognitoDomainSchema,
    signal ? { signal } : {},
  );
}

export function useCognitoDomain(emailMobileUserpool: boolean) {
  return useQuery({
    queryKey: identityKeys.domain(emailMobileUserpool),
    queryFn: ({ signal }) => fetchCognitoDomain(emailMobileUserpool, signal),
  });
}

/** POST `{domain_name}` (save) or DELETE (remove) /v1/admin/cognito_domain. */
export async function changeCognitoDomain(request: {
  emailMobileUserpool: boolean;
  domainName: string | null;
}) {
  const { SuccessBodySchema } = await loadSchemas();
  const url = poolUrl(API_PATHS.cognitoDomain, request.emailMobileUserpool);
  return request.domainName === null
    ? apiJson(url, SuccessBodySchema, { method: 'DELETE' })
    : apiJson(url, SuccessBodySchema, {
        method: 'POST',
        body: { domain_name: request.domainName },
      });
}

export function useChangeCognitoDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeCognitoDomain,
    onSuccess: (_data, request) =>
      queryClient.invalidateQueries({ queryKey: identityKeys.pool(request.emailMobileUserpool) }),
  });
}
