import { Outlet, ScrollRestoration } from 'react-router';
import { OfflineBanner } from '../components/offline-banner';

/**
 * The root route: the outlet for every page, scroll restoration between pages, and the notice
 * shown while the browser is offline.
 */
export function RootLayout() {
  return (
    <>
      <OfflineBanner />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
