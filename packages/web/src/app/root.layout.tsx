import { Outlet, ScrollRestoration } from 'react-router';

/** The root route: the outlet for every page, plus scroll restoration between pages. */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
