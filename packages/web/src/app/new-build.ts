/**
 * A tab opened before a new release still runs the old build. Its next screen asks for chunks
 * the server no longer has (their names carry the old build's hashes) and the import fails. One
 * reload fetches the new build and opens the same address; a second failure within a short
 * window is a real fault, and the error screen stays (no reload loop).
 *
 * The failure reaches `RouteError`, the routes' error boundary, whether a route's module or a
 * lazy part of a page (the statistics charts) was missing; by then the address bar shows the
 * screen that was asked for. An import nobody waits for (a preload) reloads nothing.
 */

/** When this tab last reloaded for a missing chunk (epoch ms), in sessionStorage: per tab. */
export const NEW_BUILD_RELOAD_KEY = 'fleetdeck.new-build-reload-at';
/** A failure this soon after such a reload is not a release: show the error instead. */
export const NEW_BUILD_RELOAD_WINDOW_MS = 30_000;

/** How Chromium, Firefox and Safari word a dynamic import (or Vite's CSS preload) that failed. */
const MISSING_CHUNK =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

/** Whether an error is a chunk of the page's build that could not be loaded. */
export function isMissingChunkError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && MISSING_CHUNK.test(message);
}

let reloading = false;

/** Whether this page has started a reload for a new build (it is about to go away). */
export function isReloadingForNewBuild(): boolean {
  return reloading;
}

function tabStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** When this tab last reloaded for a new build (epoch ms), 0 for never; null without storage. */
function lastReloadAt(storage: Storage): number | null {
  try {
    const value = Number(storage.getItem(NEW_BUILD_RELOAD_KEY) ?? '0');
    return Number.isFinite(value) ? value : 0;
  } catch {
    return null;
  }
}

/**
 * Whether a missing chunk may reload the page now: not when this tab did so within the window,
 * and never when it cannot remember that it did (storage off), so a broken deployment cannot
 * loop.
 */
export function mayReloadForNewBuild(now: number = Date.now()): boolean {
  const storage = tabStorage();
  const last = storage === null ? null : lastReloadAt(storage);
  if (last === null) return false;
  return !(last <= now && now - last < NEW_BUILD_RELOAD_WINDOW_MS);
}

/** Reloads the page for a new build when `mayReloadForNewBuild` allows it; says whether it does. */
export function reloadForNewBuild(
  now: number = Date.now(),
  reload: () => void = () => window.location.reload(),
): boolean {
  if (!mayReloadForNewBuild(now)) return false;
  try {
    tabStorage()?.setItem(NEW_BUILD_RELOAD_KEY, String(now));
  } catch {
    return false;
  }
  reloading = true;
  reload();
  return true;
}
