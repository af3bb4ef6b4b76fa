import { API_PATHS, type CurrentUser } from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, checkContract } from '../../../lib/api-client';
import { isApiError, isSessionFailure } from '../../../lib/api-error';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { syncSessionExpiry } from '../../../lib/session';
import { authKeys } from './auth.keys';

/**
 * GET /v1/user, the session probe: the signed-in user, or null when there is no session.
 * (If this browser believed it had a session, the API client has already run the expiry handling.)
 */
export async function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser | null> {
  // The request leaves at once; the schemas it is checked with load beside it (on a cold page
  // load their chunk would otherwise hold the probe back until it arrives, B7).
  const schemas = loadSchemas();
  try {
    const [payload, { CurrentUserSchema }] = await Promise.all([
      apiRequest(API_PATHS.user, { session: 'probe', ...(signal ? { signal } : {}) }),
      schemas,
    ]);
    const user = checkContract(API_PATHS.user, CurrentUserSchema, payload);
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
