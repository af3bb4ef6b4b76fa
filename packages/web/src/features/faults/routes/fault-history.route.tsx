import { FaultHistoryScreen } from '../components/fault-history-screen';

/** /home/Faulthistory (access §2 Fault screens). */
export function FaultHistoryRoute() {
  return <FaultHistoryScreen />;
}
