import { describe, expect, it } from 'vitest';
import { AuthContextCache } from './auth-context-cache.js';
import type { AuthContext } from './auth.service.js';

const context = (sessionId: string, userId: string, expiresAt = 10_000): AuthContext => ({
  sessionId,
  expiresAt,
  user: {
    userId,
    userName: `${userId}@x.io`,
    name: '',
    superAdmin: false,
    roles: [],
    permissions: [],
    emailUser: true,
    mfa: false,
  },
});

describe('AuthContextCache', () => {
  it('serves a context until its TTL or the token expiry, whichever is first', () => {
    let now = 1_000_000;
    const cache = new AuthContextCache(5000, () => now);
    cache.set('t1', context('s1', 'u1', 2_000), cache.currentGeneration());
    expect(cache.get('t1')?.sessionId).toBe('s1');
    now += 4999;
    expect(cache.get('t1')).toBeDefined();
    now += 2;
    expect(cache.get('t1')).toBeUndefined();
    cache.set('t2', context('s2', 'u2', 1_000_001), cache.currentGeneration());
    now = 1_000_001_000;
    expect(cache.get('t2')).toBeUndefined();
  });

  it('forgets a revoked session or every session of a user at once', () => {
    const cache = new AuthContextCache(5000, () => 0);
    cache.set('a', context('s1', 'u1'), cache.currentGeneration());
    cache.set('b', context('s2', 'u1'), cache.currentGeneration());
    cache.set('c', context('s3', 'u2'), cache.currentGeneration());
    cache.forgetSession('s1');
    expect([cache.get('a'), cache.get('b')?.sessionId]).toEqual([undefined, 's2']);
    cache.forgetUser('u1');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')?.sessionId).toBe('s3');
  });

  it('does not cache a lookup that raced with a revocation', () => {
    const cache = new AuthContextCache(5000, () => 0);
    const before = cache.currentGeneration();
    cache.forgetSession('s1');
    cache.set('a', context('s1', 'u1'), before);
    expect(cache.get('a')).toBeUndefined();
  });

  it('caches nothing with a TTL of 0', () => {
    const cache = new AuthContextCache(0, () => 0);
    cache.set('a', context('s1', 'u1'), cache.currentGeneration());
    expect(cache.get('a')).toBeUndefined();
  });
});
