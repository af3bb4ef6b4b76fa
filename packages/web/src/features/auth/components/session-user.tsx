import type { CurrentUser } from '@fleetdeck/contract';
import { createContext, use } from 'react';

/** The signed-in user, provided by RequireSession to everything under /home. */
export const SessionUserContext = createContext<CurrentUser | null>(null);

/** The signed-in user; only valid below RequireSession. */
export function useSessionUser(): CurrentUser {
  const user = use(SessionUserContext);
  if (user === null) throw new Error('useSessionUser must be used below <RequireSession>');
  return user;
}
