import { API_PATHS } from '@fleetdeck/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { deploymentInfoQueryOptions, isCustomerMode } from './deployment-info.query';

async function userPath(queryClient: QueryClient): Promise<string> {
  const info = await queryClient.fetchQuery(deploymentInfoQueryOptions()).catch(() => undefined);
  return isCustomerMode(info) ? API_PATHS.user2 : API_PATHS.user;
}

/** POST /v1/user {user_name, password}: creates the account; a code goes to the address. */
export async function signUp(
  queryClient: QueryClient,
  body: { user_name: string; password: string },
) {
  const { SuccessBodySchema } = await loadSchemas();
  return apiJson(await userPath(queryClient), SuccessBodySchema, {
    method: 'POST',
    body,
    session: 'public',
  });
}

/** POST /v1/user {user_name, verification_code}: verifies the address. */
export async function confirmSignUp(
  queryClient: QueryClient,
  body: { user_name: string; verification_code: string },
) {
  const { SuccessBodySchema } = await loadSchemas();
  return apiJson(await userPath(queryClient), SuccessBodySchema, {
    method: 'POST',
    body,
    session: 'public',
  });
}

export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { user_name: string; password: string }) => signUp(queryClient, body),
  });
}

export function useConfirmSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { user_name: string; verification_code: string }) =>
      confirmSignUp(queryClient, body),
  });
}
