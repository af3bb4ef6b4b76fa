import { canSeeDashboard } from '@fleetdeck/contract';
import { Navigate } from 'react-router';
import { useSessionUser } from '../../features/auth/components/session-user';
import { DashboardRoute } from '../../features/stats/routes/dashboard.route';
import { DEVICES_PATH } from '../../lib/paths';

/**
 * /home. The statistics dashboard is for admins and the service and manufacturing roles; the
 * others go to the devices list (access §2, §6).
 */
export function HomeIndexRoute() {
  const user = useSessionUser();
  if (!canSeeDashboard(user.user_role)) return <Navigate to={DEVICES_PATH} replace />;
  return <DashboardRoute />;
}
