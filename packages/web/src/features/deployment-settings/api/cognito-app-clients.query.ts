import { API_PATHS, type IdentityProviderType } from '@fleetdeck/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { identityKeys, poolUrl } from './identity.keys';

/** GET /v1/admin/cognito_appclient?email_mobile_userpool= → the pool's app clients. */
export async function fetchAppClients(emailMobileUserpool: boolean, signal?: AbortSignal) {
  const { AppClientListSchema } = await loadSchemas();
  return apiJson(
    poolUrl(API_PATHS.cognitoAppClient, emailMobileUserpool),
    AppClientListSchema,
    signal ? { signal } : {},
  );
}

export function useAppClients(emailMobileUserpool: boolean) {
  return useQuery({
    queryKey: identityKeys.appClients(emailMobileUserpool),
    queryFn: ({ signal }) => fetchAppClients(emailMobileUserpool, signal),
  });
}

export interface UpdateAppClientRequest {
  emailMobileUserpool: boolean;
  client_id: string;
  callback_urls: string[];
  providers: IdentityProviderType[];
}

/** PUT /v1/admin/cognito_appclient `{client_id, callback_urls, providers}`. */
export async function updateAppClient({ emailMobileUserpool, ...body }: UpdateAppClientRequest) {
  const { SuccessBodySchema } = await loadSchemas();
  return apiJson(poolUrl(API_PATHS.cognitoAppClient, emailMobileUserpool), SuccessBodySchema, {
    method: 'PUT',
    body,
  });
}

export function useUpdateAppClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAppClient,
    onSuccess: (_data, request) =>
      queryClient.invalidateQueries({ queryKey: identityKeys.pool(request.emailMobileUserpool) }),
  });
}
