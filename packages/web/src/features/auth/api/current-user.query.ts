import { API_PATHS, type CurrentUser } from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { isApiError, isSessionFailure } from '../../../lib/api-error';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { syncSessionExpiry } from '../../../lib/session';
import { authKeys } from './auth.keys';

/**
 * GET /v1/user, the session probe: the signed-in user, or null when there is no session.
 * (If this browser believed it had a session, the API client has already run the expiry handling.)
 */
export async function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser | null> {
  const { CurrentUserSchema } = await loadSchemas();
  try {
    const user = await apiJson(API_PATHS.user, CurrentUserSchema, {
      session: 'probe',
      ...(signal ? { signal } : {}),
    });
    syncSessionExpiry(user.session_expires_at);
    return user;
  } catch (error) {
    if (isApiError(error) && isSessionFailure(error)) return null;
    throw error;
  }
}

export const currentUserQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.currentUser(),
    queryFn: ({ signal }) => fetchCurrentUser(signal),
    staleTime: 60_000,
  });

export function useCurrentUser(options: { enabled?: boolean } = {}) {
  return useQuery({ ...currentUserQueryOptions(), enabled: options.enabled ?? true });
}
