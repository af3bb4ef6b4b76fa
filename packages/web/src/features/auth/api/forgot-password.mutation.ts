import { API_PATHS } from '@fleetdeck/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { deploymentInfoQueryOptions, isCustomerMode } from './deployment-info.query';

type ForgotBody =
  { user_name: string } | { user_name: string; password: string; verification_code: string };

/**
 * PUT /v1/forgotpassword (…2 in customer mode): `{user_name}` asks for a code,
 * `{user_name, password, verification_code}` sets the new password.
 */
export async function forgotPassword(queryClient: QueryClient, body: ForgotBody) {
  const { SuccessBodySchema } = await loadSchemas();
  const info = await queryClient.fetchQuery(deploymentInfoQueryOptions()).catch(() => undefined);
  const path = isCustomerMode(info) ? API_PATHS.forgotPassword2 : API_PATHS.forgotPassword;
  return apiJson(path, SuccessBodySchema, { method: 'PUT', body, session: 'public' });
}

export function useForgotPassword() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (body: ForgotBody) => forgotPassword(queryClient, body) });
}
