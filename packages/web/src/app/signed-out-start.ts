import type { QueryClient } from '@tanstack/react-query';
import { UNSAFE_createBrowserHistory, matchRoutes, type DataRouter } from 'react-router';
import { currentUserQueryOptions } from '../features/auth/api/current-user.query';
import { loadSchemas } from '../lib/lazy-schemas';
import { LOGIN_PATH, isSignedInPath } from '../lib/paths';
import { hasStoredSession } from '../lib/session';
import { canStoreSession } from '../lib/session-storage';

interface StartLocation {
  pathname: string;
  search: string;
  hash: string;
}

/**
 * Where a page load should really start: the signed-in page itself, or /login with that page as
 * the return path, for a visitor this browser knows holds no session (storage works and keeps no
 * expiry, as after a sign-out or on a first visit). Where storage is unavailable nothing is known
 * and the session guard decides after asking the server, as before.
 */
export function signedOutStart(
  location: StartLocation,
  browser: { canStoreSession: boolean; hasStoredSession: boolean },
): { from: string } | null {
  if (!isSignedInPath(location.pathname)) return null;
  if (!browser.canStoreSession || browser.hasStoredSession) return null;
  return { from: `${location.pathname}${location.search}${location.hash}` };
}

/**
 * Runs before the router is created (ADR 32). React Router loads the lazy modules of every route
 * an URL matches before it renders, so a signed-out visitor to /home/nodes used to download the
 * home layout and the devices screen (~100 files) before the guard sent them to /login, whose
 * files then queued behind those on the browser's six connections (B7). Moving the URL to /login
 * first, with the navigation state the guard would give (`{ from }`, written by React Router's own
 * history), leaves the sign-in page only its own files. Returns the page it turned away from.
 */
export function startSignedOutVisitorAtLogin(): string | null {
  const target = signedOutStart(window.location, {
    canStoreSession: canStoreSession(),
    hasStoredSession: hasStoredSession(),
  });
  if (target === null) return null;
  UNSAFE_createBrowserHistory().replace(LOGIN_PATH, target);
  return target.from;
}

/**
 * Once the sign-in page is up and the browser is idle, loads the modules of the page the visitor
 * was turned away from, so that while they type their credentials its files arrive, and the page
 * shows right after signing in. It calls the routes' own `lazy` functions: the modules they
 * import are then in the browser's module map when React Router calls them after the sign-in.
 */
export function preloadPageAfterSignIn(router: DataRouter, path: string): void {
  const preload = () => {
    for (const match of matchRoutes(router.routes, path) ?? []) {
      const { lazy } = match.route;
      // A failed download is tried again by the router when the page is opened.
      if (typeof lazy === 'function') void Promise.resolve(lazy()).catch(() => undefined);
    }
  };
  const whenIdle = () => {
    if (typeof window.requestIdleCallback === 'function') {
      window.requestIdleCallback(preload, { timeout: 1_000 });
    } else {
      setTimeout(preload, 200);
    }
  };
  if (router.state.initialized) {
    whenIdle();
    return;
  }
  const unsubscribe = router.subscribe((state) => {
    if (!state.initialized) return;
    unsubscribe();
    whenIdle();
  });
}

/** Whether this page load is of a signed-in page by a browser that holds a session. */
function signedInLoad(): boolean {
  return isSignedInPath(window.location.pathname) && hasStoredSession();
}

/**
 * On a signed-in load, asks for the contract schemas' chunk before the router is created: the
 * router asks for the matched routes' ~90 files at once, and the schemas (which the session probe
 * below needs before anything can render) would otherwise wait behind them in the browser's six
 * connections (B7).
 */
export function loadSchemasEarly(): void {
  if (signedInLoad()) void loadSchemas().catch(() => undefined);
}

/**
 * On a page load of a signed-in page by a browser that holds a session: asks the server who the
 * user is (GET /v1/user, and the contract schemas it is checked with) at once, while the page's
 * modules download. The session guard then finds the answer in the query cache instead of asking
 * only after the home layout and the page have loaded (B7: ~0.2–0.4 s later on this machine).
 * Returns the probe (it settles, never rejects), or null when there is none.
 */
export function probeSessionEarly(queryClient: QueryClient): Promise<void> | null {
  if (!signedInLoad()) return null;
  return queryClient.prefetchQuery(currentUserQueryOptions());
}
