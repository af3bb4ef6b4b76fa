import { FaultListScreen } from '../components/fault-list-screen';

/** /home/FaultList (access §2 Fault screens; the sidebar's 'Active Fault List'). */
export function FaultListRoute() {
  return <FaultListScreen />;
}
