import { Navigate, Outlet } from 'react-router';
import { useSessionUser } from '../../features/auth/components/session-user';
import { CHANGE_PASSWORD_REDIRECT_PATH } from '../../lib/paths';
import { accountMenuEntries } from '../layout/access-rules';

/**
 * /home/userregistration/ and the user details pages: only users who may manage users (the ones
 * whose Account Settings menu offers User Registration) get in. Everyone else goes where the other
 * forbidden pages send them, before any request could earn them the API's 403.
 */
export function UserAdminRoute() {
  const user = useSessionUser();
  if (!accountMenuEntries(user).userRegistration)
    return <Navigate to={CHANGE_PASSWORD_REDIRECT_PATH} replace />;
  return <Outlet />;
}
