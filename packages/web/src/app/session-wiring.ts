import { MESSAGES, TOAST_AUTO_CLOSE_MS, type CurrentUser } from '@fleetdeck/contract';
import { notifications } from '@mantine/notifications';
import type { QueryClient } from '@tanstack/react-query';
import { authKeys } from '../features/auth/api/auth.keys';
import { postLogout } from '../features/auth/api/logout.mutation';
import { saveDraftsForLater } from '../lib/form-drafts';
import { startSessionKeeper } from '../lib/session';
import { LOGIN_PATH, isSignedInPath } from '../lib/paths';

/** The part of the data router this module needs (keeps it testable without a DOM). */
interface RouterLike {
  state: { location: { pathname: string; search: string; hash: string } };
  navigate: (to: string, options: { replace: boolean; state?: unknown }) => Promise<void>;
}

const SESSION_EXPIRED_TOAST_ID = 'session-expired';

/**
 * Leaves for /login. With `comeBack`, the signed-in page the operator was on goes along, so the
 * next sign-in returns there (and to the drafts saved for it) instead of to /home.
 */
async function leaveToLogin(
  router: RouterLike,
  queryClient: QueryClient,
  comeBack = false,
): Promise<void> {
  const { pathname, search, hash } = router.state.location;
  const from = comeBack && isSignedInPath(pathname) ? `${pathname}${search}${hash}` : undefined;
  await queryClient.cancelQueries();
  await router.navigate(LOGIN_PATH, { replace: true, ...(from ? { state: { from } } : {}) });
  // Cleared after leaving, so the signed-in screens do not refetch on the way out.
  queryClient.clear();
}

/**
 * Connects the session keeper to the app: on expiry, one toast, a best-effort logout, cleared
 * state and /login (access §8), with the open forms saved for the same user's return (QUALITY
 * R11); when another tab signs out, this one follows quietly.
 */
export function installSessionHandling(router: RouterLike, queryClient: QueryClient): void {
  startSessionKeeper({
    onExpired: () => {
      const user = queryClient.getQueryData<CurrentUser | null>(authKeys.currentUser());
      if (user) saveDraftsForLater(user.user_id);
      notifications.show({
        id: SESSION_EXPIRED_TOAST_ID,
        color: 'red',
        message: MESSAGES.sessionExpired,
        autoClose: TOAST_AUTO_CLOSE_MS,
      });
      void postLogout().catch(() => undefined);
      void leaveToLogin(router, queryClient, true);
    },
    onSignedOutElsewhere: () => {
      if (!isSignedInPath(router.state.location.pathname)) {
        queryClient.clear();
        return;
      }
      void leaveToLogin(router, queryClient);
    },
  });
}
