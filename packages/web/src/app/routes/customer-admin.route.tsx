import { Navigate, useOutlet } from 'react-router';
import { useSessionUser } from '../../features/auth/components/session-user';
import { CHANGE_PASSWORD_REDIRECT_PATH } from '../../lib/paths';
import { canOpenCustomerAdminRoutes } from '../layout/access-rules';
import { HomeNotFound } from './home-not-found';

/**
 * /home/deployment-settings/ and /home/alarmalert/: only customer admins get in (access §6),
 * everyone else goes to change-password. A path with a screen renders it as the child route
 * (alarmalert: the Multigraph page); one without shows "page not found".
 */
export function CustomerAdminRoute() {
  const user = useSessionUser();
  const outlet = useOutlet();
  if (!canOpenCustomerAdminRoutes(user))
    return <Navigate to={CHANGE_PASSWORD_REDIRECT_PATH} replace />;
  return outlet ?? <HomeNotFound />;
}
