import { API_PATHS } from '@fleetdeck/contract';
import { useMutation, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { isApiError, isSessionFailure } from '../../../lib/api-error';
import { dropSavedDrafts } from '../../../lib/form-drafts';
import { markSignedOut } from '../../../lib/session';

/** POST /v1/logout: revokes the session and clears the cookies. */
export async function postLogout(): Promise<void> {
  await apiRequest(API_PATHS.logout, { method: 'POST', session: 'public' });
}

/** Signs out and treats "there was no session any more" (401) as done. */
async function logoutTolerant(): Promise<void> {
  try {
    await postLogout();
  } catch (error) {
    if (isApiError(error) && isSessionFailure(error)) return;
    throw error;
  }
}

/**
 * Forgets every trace of the session in this tab (timer, stored expiry, cached data, forms
 * saved when an earlier session expired).
 */
export function forgetSession(queryClient: QueryClient): void {
  markSignedOut();
  dropSavedDrafts();
  void queryClient.cancelQueries();
  queryClient.clear();
}

/** Best-effort server logout followed by forgetting the session locally; never throws. */
export async function endSessionQuietly(queryClient: QueryClient): Promise<void> {
  await logoutTolerant().catch(() => undefined);
  forgetSession(queryClient);
}

/**
 * The Logout action. The local session is forgotten only once the server has let go of it, so a
 * failed logout (offline) does not pretend the user is signed out while the cookies still work.
 */
export function useLogout() {
  return useMutation({ mutationFn: logoutTolerant });
}
