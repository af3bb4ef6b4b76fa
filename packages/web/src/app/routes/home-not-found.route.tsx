import { HomeNotFound } from './home-not-found';

/** Any /home path without a screen in this version. */
export function HomeNotFoundRoute() {
  return <HomeNotFound />;
}
