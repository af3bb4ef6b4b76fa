import { API_PREFIX, type DeploymentInfo } from '@fleetdeck/contract';

/**
 * Where a social sign-in starts: the server's OAuth 2.0 / OIDC authorisation endpoint, which
 * redirects to the provider and back to /socialauth. The contract does not name this path yet
 * (see the hand-over notes); it follows the hosted-UI shape RainMaker clients already know.
 */
export function socialSignInHref(provider: DeploymentInfo['social_providers'][number]): string {
  return `${API_PREFIX}/oauth2/authorize?identity_provider=${encodeURIComponent(provider)}`;
}
