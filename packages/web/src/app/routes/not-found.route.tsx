import { PublicNotFound } from '../../components/public-not-found';

/** Every path outside /home without a screen: typos and old links. */
export function NotFoundRoute() {
  return <PublicNotFound />;
}
