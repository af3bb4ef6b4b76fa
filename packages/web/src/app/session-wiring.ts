import { MESSAGES, TOAST_AUTO_CLOSE_MS } from '@fleetdeck/contract';
import { notifications } from '@mantine/notifications';
import type { QueryClient } from '@tanstack/react-query';
import { postLogout } from '../features/auth/api/logout.mutation';
import { startSessionKeeper } from '../lib/session';
import { LOGIN_PATH, isSignedInPath } from '../lib/paths';

/** The part of the data router this module needs (keeps it testable without a DOM). */
interface RouterLike {
  state: { location: { pathname: string } };
  navigate: (to: string, options: { replace: boolean }) => Promise<void>;
}

const SESSION_EXPIRED_TOAST_ID = 'session-expired';

async function leaveToLogin(router: RouterLike, queryClient: QueryClient): Promise<void> {
  await queryClient.cancelQueries();
  await router.navigate(LOGIN_PATH, { replace: true });
  // Cleared after leaving, so the signed-in screens do not refetch on the way out.
  queryClient.clear();
}

/**
 * Connects the session keeper to the app: on expiry, one toast, a best-effort logout, cleared
 * state and /login (access §8); when another tab signs out, this one follows quietly.
 */
export function installSessionHandling(router: RouterLike, queryClient: QueryClient): void {
  startSessionKeeper({
    onExpired: () => {
      notifications.show({
        id: SESSION_EXPIRED_TOAST_ID,
        color: 'red',
        message: MESSAGES.sessionExpired,
        autoClose: TOAST_AUTO_CLOSE_MS,
      });
      void postLogout().catch(() => undefined);
      void leaveToLogin(router, queryClient);
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
