import { API_PATHS, MESSAGES } from '@fleetdeck/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { deploymentInfoQueryOptions, isCustomerMode } from './deployment-info.query';
import { finishSignIn, type SignInOutcome } from './login.mutation';

export interface MfaLoginBody {
  user_name: string;
  verification_code: string;
  session: string;
}

/** POST /v1/login {user_name, verification_code, session}: the second step of an MFA sign-in. */
export async function completeMfaSignIn(
  queryClient: QueryClient,
  body: MfaLoginBody,
): Promise<SignInOutcome> {
  const { LoginAnswerSchema } = await loadSchemas();
  const info = await queryClient.fetchQuery(deploymentInfoQueryOptions()).catch(() => undefined);
  const path = isCustomerMode(info) ? API_PATHS.login2 : API_PATHS.login;
  const answer = await apiJson(path, LoginAnswerSchema, {
    method: 'POST',
    body,
    session: 'public',
  });
  // A second challenge here would be a server fault; the tokens answer carries expires_at.
  if (!('expires_at' in answer)) throw new Error(MESSAGES.somethingWentWrong);
  return finishSignIn(queryClient, answer.expires_at);
}

export function useCompleteMfaSignIn() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (body: MfaLoginBody) => completeMfaSignIn(queryClient, body) });
}
