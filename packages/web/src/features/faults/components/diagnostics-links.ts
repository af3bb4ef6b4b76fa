import { MARKER_COOKIES } from '@fleetdeck/contract';
import { readCookie } from '../../../lib/cookies';

/**
 * Whether device ids link to the diagnostics report (access §2, §6): with the diagnostics option
 * on or the Diag cookie 'true'. The app has no diagnostics option yet, so, as on the devices list
 * (features/nodes), the cookie decides.
 */
export function diagnosticsLinksOn(): boolean {
  return readCookie(MARKER_COOKIES.diagnostics) === 'true';
}
