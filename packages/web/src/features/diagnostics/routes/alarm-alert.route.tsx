import { AlarmAlertScreen } from '../components/alarm-alert-screen';

/**
 * /home/alarmalert/: the Multigraph page. Rendered inside the customer-admin gate
 * (app/routes/customer-admin.route.tsx), which sends everyone else to change-password.
 */
export function AlarmAlertRoute() {
  return <AlarmAlertScreen />;
}
