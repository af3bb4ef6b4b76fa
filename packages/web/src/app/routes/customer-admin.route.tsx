import { Navigate } from 'react-router';
import { useSessionUser } from '../../features/auth/components/session-user';
import { CHANGE_PASSWORD_REDIRECT_PATH } from '../../lib/paths';
import { canOpenCustomerAdminRoutes } from '../layout/access-rules';
import { HomeNotFound } from './home-not-found';

/**
 * /home/deployment-settings/ and /home/alarmalert/: only customer admins get in (access §6),
 * everyone else goes to change-password. The screens themselves are not in this version.
 */
export function CustomerAdminRoute() {
  const user = useSessionUser();
  if (!canOpenCustomerAdminRoutes(user))
    return <Navigate to={CHANGE_PASSWORD_REDIRECT_PATH} replace />;
  return <HomeNotFound />;
}
