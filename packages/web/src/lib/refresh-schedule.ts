import { SESSION_REFRESH_BUFFER_SECONDS } from '@fleetdeck/contract';

/** setTimeout overflows above this (about 24.8 days) and would fire at once. */
export const MAX_TIMER_DELAY_MS = 2_147_483_647;
/** After a refresh that failed for a reason other than a lost session, try again this soon. */
export const REFRESH_RETRY_DELAY_MS = 30_000;
/** Before a request, refresh first if the access token has less than this left. */
export const PRE_REQUEST_MARGIN_MS = 5_000;
/** A timer that fires this early still counts as due (clock granularity). */
const DUE_TOLERANCE_MS = 1_000;

/** A refresh is never scheduled sooner than this, so a short-lived token cannot loop tightly. */
export const MIN_REFRESH_DELAY_MS = 5_000;

/**
 * Milliseconds from `nowMs` until the silent refresh should run: `bufferSeconds` before expiry
 * (access §2, 120 s). Once inside the buffer (a tab woken late, a token refreshed elsewhere) it
 * refreshes half-way through the remaining life instead, so it never turns into a tight loop.
 */
export function refreshDelayMs(
  expiresAtSeconds: number,
  nowMs: number,
  bufferSeconds: number = SESSION_REFRESH_BUFFER_SECONDS,
): number {
  const remainingMs = expiresAtSeconds * 1000 - nowMs;
  if (remainingMs <= 0) return 0;
  const beforeBufferMs = remainingMs - bufferSeconds * 1000;
  const delay = beforeBufferMs >= MIN_REFRESH_DELAY_MS ? beforeBufferMs : remainingMs / 2;
  return Math.min(Math.floor(delay), MAX_TIMER_DELAY_MS);
}

/** Whether the token is inside its refresh window (or already expired). */
export function isRefreshDue(
  expiresAtSeconds: number,
  nowMs: number,
  bufferSeconds: number = SESSION_REFRESH_BUFFER_SECONDS,
): boolean {
  return nowMs + DUE_TOLERANCE_MS >= expiresAtSeconds * 1000 - bufferSeconds * 1000;
}

/** Whether a request should wait for a refresh first: the token is expired or nearly so. */
export function mustRefreshBeforeRequest(expiresAtSeconds: number, nowMs: number): boolean {
  return nowMs + PRE_REQUEST_MARGIN_MS >= expiresAtSeconds * 1000;
}

/** When to retry after a failed refresh, or null when the token has expired (nothing to save). */
export function retryDelayMs(expiresAtSeconds: number, nowMs: number): number | null {
  const remainingMs = expiresAtSeconds * 1000 - nowMs;
  if (remainingMs <= 0) return null;
  return Math.min(REFRESH_RETRY_DELAY_MS, Math.floor(remainingMs / 2));
}

export type RefreshDecision = 'refresh' | 'signed-out' | 'already-refreshed' | 'not-due';

/**
 * Decides, inside the cross-tab lock, whether this tab should refresh. `seen` is the expiry this
 * tab knew when it decided to refresh; `current` is what storage holds now. If another tab has
 * written a new expiry meanwhile it already rotated the refresh token, so this tab must not.
 */
export function decideRefresh(input: {
  seen: number | null;
  current: number | null;
  nowMs: number;
  bufferSeconds?: number;
}): RefreshDecision {
  const { seen, current, nowMs } = input;
  if (current === null) return 'signed-out';
  if (current !== seen) return 'already-refreshed';
  if (!isRefreshDue(current, nowMs, input.bufferSeconds)) return 'not-due';
  return 'refresh';
}
