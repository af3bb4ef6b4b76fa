import { isSignedInPath } from '../../lib/paths';

/**
 * Where to go after signing in: back to the signed-in page the guard turned away (passed in the
 * navigation state), else /home. Only paths inside the app's signed-in area are honoured.
 */
export function returnPathAfterLogin(state: unknown, fallback: string): string {
  if (typeof state !== 'object' || state === null || !('from' in state)) return fallback;
  const from = state.from;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//')) return fallback;
  const pathname = from.split(/[?#]/, 1)[0] ?? '';
  return isSignedInPath(pathname) ? from : fallback;
}
