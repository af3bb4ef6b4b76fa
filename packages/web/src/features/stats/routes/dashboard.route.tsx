import { useSessionUser } from '../../auth/components/session-user';
import { StatsDashboard } from '../components/stats-dashboard';

/**
 * /home for the roles that see the dashboard (the caller, home-index.route.tsx, sends the others
 * to /home/nodes). The fault-code cards need `faults.read`.
 */
export function DashboardRoute() {
  const user = useSessionUser();
  return <StatsDashboard showFaults={user.permissions.includes('faults.read')} />;
}
