import { SESSION_REFRESH_BUFFER_SECONDS, SESSION_TIMEOUT_SECONDS } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import {
  MAX_TIMER_DELAY_MS,
  REFRESH_RETRY_DELAY_MS,
  decideRefresh,
  isRefreshDue,
  mustRefreshBeforeRequest,
  refreshDelayMs,
  retryDelayMs,
} from './refresh-schedule';

const NOW_MS = 1_750_000_000_000;
const NOW_S = NOW_MS / 1000;

describe('refreshDelayMs', () => {
  it('refreshes 120 s before a one-hour token expires', () => {
    const expiresAt = NOW_S + SESSION_TIMEOUT_SECONDS;
    expect(refreshDelayMs(expiresAt, NOW_MS)).toBe(
      (SESSION_TIMEOUT_SECONDS - SESSION_REFRESH_BUFFER_SECONDS) * 1000,
    );
    expect(refreshDelayMs(expiresAt, NOW_MS)).toBe(3_480_000);
  });

  it('refreshes at once when the token has expired', () => {
    expect(refreshDelayMs(NOW_S - 5, NOW_MS)).toBe(0);
    expect(refreshDelayMs(NOW_S, NOW_MS)).toBe(0);
  });

  it('refreshes half-way through the remaining life inside the buffer, never in a tight loop', () => {
    expect(refreshDelayMs(NOW_S + 100, NOW_MS)).toBe(50_000);
    expect(refreshDelayMs(NOW_S + 60, NOW_MS)).toBe(30_000);
  });

  it('keeps the 120 s buffer for short tokens that still have time before it', () => {
    expect(refreshDelayMs(NOW_S + 135, NOW_MS)).toBe(15_000);
    expect(refreshDelayMs(NOW_S + 126, NOW_MS)).toBe(6_000);
    expect(refreshDelayMs(NOW_S + 124, NOW_MS)).toBe(62_000);
  });

  it('never asks for a delay setTimeout cannot hold', () => {
    expect(refreshDelayMs(NOW_S + 365 * 24 * 3600, NOW_MS)).toBe(MAX_TIMER_DELAY_MS);
  });
});

describe('isRefreshDue and mustRefreshBeforeRequest', () => {
  it('is due inside the last 120 s', () => {
    expect(isRefreshDue(NOW_S + 3600, NOW_MS)).toBe(false);
    expect(isRefreshDue(NOW_S + 121 + 2, NOW_MS)).toBe(false);
    expect(isRefreshDue(NOW_S + 120, NOW_MS)).toBe(true);
    expect(isRefreshDue(NOW_S - 1, NOW_MS)).toBe(true);
  });

  it('holds requests back only for a spent or nearly spent token', () => {
    expect(mustRefreshBeforeRequest(NOW_S + 60, NOW_MS)).toBe(false);
    expect(mustRefreshBeforeRequest(NOW_S + 3, NOW_MS)).toBe(true);
    expect(mustRefreshBeforeRequest(NOW_S - 10, NOW_MS)).toBe(true);
  });
});

describe('retryDelayMs', () => {
  it('retries within 30 s while the token lives, and gives up once it has expired', () => {
    expect(retryDelayMs(NOW_S + 600, NOW_MS)).toBe(REFRESH_RETRY_DELAY_MS);
    expect(retryDelayMs(NOW_S + 20, NOW_MS)).toBe(10_000);
    expect(retryDelayMs(NOW_S, NOW_MS)).toBeNull();
  });
});

describe('decideRefresh', () => {
  const due = NOW_S + 60;

  it('refreshes when nothing changed since this tab looked and the token is due', () => {
    expect(decideRefresh({ seen: due, current: due, nowMs: NOW_MS })).toBe('refresh');
  });

  it('skips when another tab already stored a newer expiry', () => {
    expect(decideRefresh({ seen: due, current: due + 3600, nowMs: NOW_MS })).toBe(
      'already-refreshed',
    );
  });

  it('skips when another tab signed out meanwhile', () => {
    expect(decideRefresh({ seen: due, current: null, nowMs: NOW_MS })).toBe('signed-out');
  });

  it('skips a token that is not yet due', () => {
    const later = NOW_S + 3600;
    expect(decideRefresh({ seen: later, current: later, nowMs: NOW_MS })).toBe('not-due');
  });
});
