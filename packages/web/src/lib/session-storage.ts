/**
 * The one piece of session state script may keep: when the access token expires (epoch seconds).
 * The tokens themselves live in HttpOnly cookies. localStorage is shared by every tab of the
 * origin, so writing here also tells the other tabs (through the `storage` event).
 */
export const SESSION_EXPIRY_STORAGE_KEY = 'fleetdeck.session.expires_at';

/** Parses a stored expiry; anything but a positive integer counts as "no session". */
export function parseStoredExpiry(raw: string | null): number | null {
  if (raw === null || !/^\d{1,12}$/.test(raw)) return null;
  const value = Number(raw);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Storage can be disabled by the browser (privacy settings); the app still works per tab.
    return null;
  }
}

/** Whether this browser lets the app keep the session's expiry (storage can be disabled). */
export function canStoreSession(): boolean {
  return storage() !== null;
}

/** The stored access-token expiry, or null when this browser holds no session. */
export function readStoredExpiry(): number | null {
  try {
    return parseStoredExpiry(storage()?.getItem(SESSION_EXPIRY_STORAGE_KEY) ?? null);
  } catch {
    return null;
  }
}

export function writeStoredExpiry(expiresAt: number): void {
  try {
    storage()?.setItem(SESSION_EXPIRY_STORAGE_KEY, String(Math.trunc(expiresAt)));
  } catch {
    // Quota or privacy errors: the in-tab timer still runs from the value we were given.
  }
}

export function clearStoredExpiry(): void {
  try {
    storage()?.removeItem(SESSION_EXPIRY_STORAGE_KEY);
  } catch {
    // Nothing to clear when storage is unavailable.
  }
}
