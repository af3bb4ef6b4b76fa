import { PublicNotFound } from '../../components/public-not-found';

/**
 * Every path outside /home without a screen: /forgot-password, /set-new-password,
 * /verification, /mfa-verification, /socialauth, /privacy-policy, /terms-of-service, typos.
 */
export function NotFoundRoute() {
  return <PublicNotFound />;
}
