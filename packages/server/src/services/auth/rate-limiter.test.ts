import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from './rate-limiter.js';

describe('SlidingWindowLimiter', () => {
  it('blocks a key at the limit and frees it when the window slides past', () => {
    let now = 1_000_000;
    const limiter = new SlidingWindowLimiter(3, 60_000, () => now);
    for (let i = 0; i < 3; i++) {
      expect(limiter.isBlocked('a')).toBe(false);
      limiter.record('a');
      now += 1000;
    }
    expect(limiter.isBlocked('a')).toBe(true);
    expect(limiter.isBlocked('b')).toBe(false);
    expect(limiter.retryAfterSeconds('a')).toBe(57);
    now += 57_001;
    expect(limiter.isBlocked('a')).toBe(false);
  });

  it('forgets a key on reset', () => {
    const limiter = new SlidingWindowLimiter(1, 60_000);
    limiter.record('a');
    expect(limiter.isBlocked('a')).toBe(true);
    limiter.reset('a');
    expect(limiter.isBlocked('a')).toBe(false);
  });
});

describe('SlidingWindowLimiter reservations', () => {
  it('records up to the limit in one step and refuses the rest', () => {
    const limiter = new SlidingWindowLimiter(3, 60_000, () => 1_000_000);
    const taken = Array.from({ length: 5 }, () => limiter.tryRecord('a'));
    expect(taken.filter((at) => at !== undefined)).toHaveLength(3);
    expect(taken.slice(3)).toEqual([undefined, undefined]);
    expect(limiter.isBlocked('a')).toBe(true);
  });

  it('gives a place back on release, once', () => {
    let now = 1_000_000;
    const limiter = new SlidingWindowLimiter(2, 60_000, () => now);
    const first = limiter.tryRecord('a');
    now += 1000;
    limiter.tryRecord('a');
    expect(limiter.isBlocked('a')).toBe(true);
    limiter.release('a', first ?? 0);
    limiter.release('a', first ?? 0);
    expect(limiter.isBlocked('a')).toBe(false);
    expect(limiter.retryAfterSeconds('a')).toBe(60);
    limiter.release('b', 1);
    expect(limiter.isBlocked('b')).toBe(false);
  });
});
