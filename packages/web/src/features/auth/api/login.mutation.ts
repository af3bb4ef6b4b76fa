import {
  API_PATHS,
  canSeeDashboard,
  type CurrentUser,
  type LoginForm,
  type MfaChallengeKind,
} from '@fleetdeck/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { markSignedIn, markSignedOut } from '../../../lib/session';
import { authKeys } from './auth.keys';
import { deploymentInfoQueryOptions, isCustomerMode } from './deployment-info.query';
import { endSessionQuietly } from './logout.mutation';
import { rememberMfaStep } from '../pending-sign-in';

export type SignInOutcome =
  | { kind: 'signed-in'; user: CurrentUser }
  | { kind: 'unauthorised' }
  /** The password was right; the second factor is next (/mfa-verification). */
  | { kind: 'mfa'; challenge: MfaChallengeKind };

/**
 * Where a freshly signed-in user may go (access §4 Login): in customer mode a user without any
 * dashboard role is refused; everyone else enters the dashboard.
 */
export function postLoginOutcome(user: CurrentUser): SignInOutcome['kind'] {
  return user.deployment_mode === 'customer' && !canSeeDashboard(user.user_role)
    ? 'unauthorised'
    : 'signed-in';
}

/**
 * POST /v1/login (or /v1/login2 in customer mode), then GET /v1/user. The user is fetched as a
 * public call: if the cookies did not stick, that is a sign-in failure, not an expired session.
 */
export async function signIn(queryClient: QueryClient, form: LoginForm): Promise<SignInOutcome> {
  const { LoginAnswerSchema } = await loadSchemas();
  const info = await queryClient.fetchQuery(deploymentInfoQueryOptions()).catch(() => undefined);
  const path = isCustomerMode(info) ? API_PATHS.login2 : API_PATHS.login;
  const answer = await apiJson(path, LoginAnswerSchema, {
    method: 'POST',
    body: form,
    session: 'public',
  });
  if ('session' in answer) {
    rememberMfaStep({
      userName: form.user_name,
      session: answer.session,
      challenge: answer.challenge,
      phoneHint: answer.phone_hint,
    });
    return { kind: 'mfa', challenge: answer.challenge };
  }
  return finishSignIn(queryClient, answer.expires_at);
}

/**
 * After the server set the session cookies (password or MFA step): GET /v1/user, then the
 * customer-mode check of access §4.
 */
export async function finishSignIn(
  queryClient: QueryClient,
  expiresAt: number,
): Promise<SignInOutcome> {
  const { CurrentUserSchema } = await loadSchemas();
  markSignedIn(expiresAt);

  const user = await apiJson(API_PATHS.user, CurrentUserSchema, { session: 'public' }).catch(
    (error: unknown) => {
      // Signed in, yet no user: forget the half-made session rather than later calling it expired.
      markSignedOut();
      throw error;
    },
  );
  if (postLoginOutcome(user) === 'unauthorised') {
    // Leave no session behind that the dashboard would then refuse.
    await endSessionQuietly(queryClient);
    return { kind: 'unauthorised' };
  }
  queryClient.setQueryData(authKeys.currentUser(), user);
  return { kind: 'signed-in', user };
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (form: LoginForm) => signIn(queryClient, form) });
}
