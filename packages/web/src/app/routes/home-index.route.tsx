import { canSeeDashboard } from '@fleetdeck/contract';
import { Navigate } from 'react-router';
import { useSessionUser } from '../../features/auth/components/session-user';
import { DEVICES_PATH } from '../../lib/paths';
import { HomeNotFound } from './home-not-found';

/**
 * /home. The statistics dashboard is for admins and the service and manufacturing roles; the
 * others go to the devices list (access §2, §6). The dashboard itself is not in this version.
 */
export function HomeIndexRoute() {
  const user = useSessionUser();
  if (!canSeeDashboard(user.user_role)) return <Navigate to={DEVICES_PATH} replace />;
  return <HomeNotFound />;
}
