import { API_PATHS, MESSAGES } from '@fleetdeck/contract';
import { apiRequest, configureApiClient, type SessionRecovery } from './api-client';
import { ApiError } from './api-error';
import { isApiError, isSessionFailure } from './api-error';
import {
  decideRefresh,
  mustRefreshBeforeRequest,
  refreshDelayMs,
  retryDelayMs,
} from './refresh-schedule';
import {
  SESSION_EXPIRY_STORAGE_KEY,
  clearStoredExpiry,
  readStoredExpiry,
  writeStoredExpiry,
} from './session-storage';

/**
 * The browser side of the session: remembers when the access token expires, refreshes it
 * silently before that, keeps tabs from refreshing the same token twice, and ends the session
 * exactly once when the server says it is gone.
 */

/** Web Locks name shared by every tab of the origin. */
export const REFRESH_LOCK_NAME = 'fleetdeck-session-refresh';

export interface SessionCallbacks {
  /** The session ended under the user (a 401): toast, logout, clear state, go to /login. */
  onExpired: () => void;
  /** Another tab signed out: leave the signed-in screens quietly. */
  onSignedOutElsewhere: () => void;
}

let callbacks: SessionCallbacks = {
  onExpired: () => undefined,
  onSignedOutElsewhere: () => undefined,
};
let timer: ReturnType<typeof setTimeout> | undefined;
let inFlight: Promise<void> | null = null;
/**
 * Set once the session has ended in this tab (expired or signed out) and cleared by the next
 * sign-in, so the many calls that fail together trigger the expiry handling only once.
 */
let ended = false;
let started = false;

function clearTimer(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
}

function setTimer(delayMs: number): void {
  clearTimer();
  timer = setTimeout(() => void refreshSession(), delayMs);
}

/** Re-arms the silent refresh from what storage holds now. */
function schedule(): void {
  const expiresAt = readStoredExpiry();
  if (expiresAt === null) {
    clearTimer();
    return;
  }
  setTimer(refreshDelayMs(expiresAt, Date.now()));
}

async function withRefreshLock(task: () => Promise<void>): Promise<void> {
  if (typeof navigator !== 'undefined' && 'locks' in navigator && navigator.locks) {
    // The lock is held until the task's promise settles, so only one tab refreshes at a time.
    await navigator.locks.request(REFRESH_LOCK_NAME, task);
    return;
  }
  // No Web Locks (non-secure context): tabs may overlap, the in-tab single flight still holds.
  return task();
}

/**
 * The `expires_at` of a refresh answer (LoginResponseSchema in the contract). Checked by hand
 * because this module is in the first bundle every page loads, and zod is not.
 */
function expiresAtOf(body: unknown): number {
  if (typeof body === 'object' && body !== null && 'expires_at' in body) {
    const { expires_at: expiresAt } = body;
    if (typeof expiresAt === 'number' && Number.isSafeInteger(expiresAt) && expiresAt > 0) {
      return expiresAt;
    }
  }
  throw new ApiError(502, MESSAGES.somethingWentWrong, null);
}

async function refreshUnderLock(seen: number | null, force: boolean): Promise<void> {
  const decision = decideRefresh({ seen, current: readStoredExpiry(), nowMs: Date.now() });
  switch (decision) {
    case 'signed-out':
    case 'already-refreshed':
      return;
    case 'not-due':
      // The server refused the token although it should still live (a clock off, a tab woken
      // late): refresh anyway.
      if (!force) return;
      break;
    case 'refresh':
      break;
  }
  try {
    const body = await apiRequest(API_PATHS.sessionRefresh, { method: 'POST', session: 'public' });
    if (!ended) writeStoredExpiry(expiresAtOf(body));
  } catch (error) {
    if (isApiError(error) && isSessionFailure(error)) {
      expireSession();
      return;
    }
    // A network blip or a 5xx: keep the session and try again while the token still lives.
    const expiresAt = readStoredExpiry();
    const retryIn = expiresAt === null ? null : retryDelayMs(expiresAt, Date.now());
    if (retryIn !== null) setTimer(retryIn);
    throw error;
  }
}

/**
 * Refreshes the access token unless another tab already did. Callers in this tab share one
 * attempt; across tabs the Web Lock serialises them and the re-read inside it skips the rest.
 */
export function refreshSession(force = false): Promise<void> {
  if (inFlight) return inFlight;
  const seen = readStoredExpiry();
  inFlight = withRefreshLock(() => refreshUnderLock(seen, force))
    .then(
      () => schedule(),
      () => undefined,
    )
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

/**
 * What a call must wait for before it goes out: a running refresh, or a refresh started now if
 * the token is spent. Undefined when nothing is due, so the call can be sent in the same task
 * (a list's request leaves inside the input's event handler, before the render; B8).
 */
export function sessionWaitBeforeRequest(): Promise<void> | undefined {
  if (inFlight) return inFlight;
  const expiresAt = readStoredExpiry();
  if (expiresAt !== null && !ended && mustRefreshBeforeRequest(expiresAt, Date.now())) {
    return refreshSession();
  }
  return undefined;
}

/** Awaited before a connection that needs a session (the event stream). */
export async function ensureFreshSession(): Promise<void> {
  await sessionWaitBeforeRequest();
}

/**
 * A call sent with the token of expiry `stamp` was refused with a 401. If a refresh has
 * happened since (here or in another tab) the call can simply go again; otherwise refresh now,
 * even if the token is not due, and report whether that brought the session back.
 */
export async function recoverSession(stamp: number | null): Promise<SessionRecovery> {
  if (ended) return 'lost';
  const current = readStoredExpiry();
  if (current === null) return 'lost';
  if (current !== stamp) return 'retry';
  if (inFlight) await inFlight;
  if (!ended && readStoredExpiry() === stamp) await refreshSession(true);
  const after = readStoredExpiry();
  if (ended || after === null) return 'lost';
  return after !== stamp ? 'retry' : 'unknown';
}

/** Whether this browser believes it holds a session. */
export function hasStoredSession(): boolean {
  return readStoredExpiry() !== null;
}

/** After a login, a refresh done elsewhere, or a password change: remember the new expiry. */
export function markSignedIn(expiresAt: number): void {
  ended = false;
  writeStoredExpiry(expiresAt);
  schedule();
}

/**
 * Adopts the server's view of the expiry (GET /v1/user) when it is newer than ours, e.g. after
 * storage was cleared. Ignored once the session ended here, so a late answer cannot revive it.
 */
export function syncSessionExpiry(expiresAt: number): void {
  if (ended) return;
  const stored = readStoredExpiry();
  if (stored === null || expiresAt > stored) {
    writeStoredExpiry(expiresAt);
    schedule();
  }
}

/** The user signed out (or was refused): forget the session without any "expired" handling. */
export function markSignedOut(): void {
  ended = true;
  clearTimer();
  clearStoredExpiry();
}

/** The server says the session is gone. Runs the expiry handling once per session. */
export function expireSession(): void {
  if (ended) return;
  markSignedOut();
  callbacks.onExpired();
}

function onStorage(event: StorageEvent): void {
  // `key` is null when another tab cleared the whole storage.
  if (event.key !== SESSION_EXPIRY_STORAGE_KEY && event.key !== null) return;
  if (readStoredExpiry() === null) {
    if (ended) return;
    ended = true;
    clearTimer();
    callbacks.onSignedOutElsewhere();
    return;
  }
  // Another tab signed in or refreshed: the cookies are shared, so just follow its schedule.
  ended = false;
  schedule();
}

/** Starts the session keeper once, at app start-up. */
export function startSessionKeeper(next: SessionCallbacks): void {
  callbacks = next;
  configureApiClient({
    beforeRequest: sessionWaitBeforeRequest,
    hasSession: hasStoredSession,
    sessionStamp: readStoredExpiry,
    recoverSession,
    onSessionLost: expireSession,
  });
  if (started) return;
  started = true;
  window.addEventListener('storage', onStorage);
  schedule();
}
