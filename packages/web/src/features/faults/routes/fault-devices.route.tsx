import { useParams } from 'react-router';
import { HomeNotFoundRoute } from '../../../app/routes/home-not-found.route';
import { FaultDevicesScreen } from '../components/fault-devices-screen';
import { faultTypeFromParam } from '../model/fault-types';

/**
 * /home/FaultList/{type}/{code}: the fault device list of one code (access §2 Fault screens; the
 * spec does not name its route). An unknown type is a page that does not exist.
 */
export function FaultDevicesRoute() {
  const params = useParams();
  const type = faultTypeFromParam(params.type);
  const code = params.code?.trim() ?? '';
  if (type === undefined || code === '') return <HomeNotFoundRoute />;
  return <FaultDevicesScreen key={`${type}|${code}`} type={type} code={code} />;
}
