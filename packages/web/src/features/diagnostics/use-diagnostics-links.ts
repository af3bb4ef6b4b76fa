import { MARKER_COOKIES } from '@fleetdeck/contract';
import { readCookie } from '../../lib/cookies';
import { useDeploymentInfo } from '../auth/api/deployment-info.query';
import { diagnosticsLinksOn } from './model/diagnostics-links';

/**
 * Whether device ids on the device and fault lists link to the diagnostics report: the
 * deployment's diagnostics option (`GET /v1/deployment_info`) or the Diag cookie.
 */
export function useDiagnosticsLinks(): boolean {
  const option = useDeploymentInfo().data?.diagnostics_links;
  return diagnosticsLinksOn(option, readCookie(MARKER_COOKIES.diagnostics));
}
