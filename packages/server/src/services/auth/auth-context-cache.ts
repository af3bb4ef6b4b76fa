import type { AuthContext } from './auth.service.js';

/**
 * Remembers resolved access tokens for a few seconds, so a dashboard's burst of calls costs one
 * signature check and one session lookup instead of one per call. Every revocation made by this
 * process (logout, password change, refresh-token reuse) removes the affected entries at once;
 * a revocation made by another instance is seen at once when the instances share Redis (its
 * notice, ADR 38), otherwise within the TTL (docs/adr/0002).
 */
export class AuthContextCache {
  private readonly entries = new Map<string, { context: AuthContext; until: number }>();
  /** Grows with every revocation, so a lookup that raced with one is not cached. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly clock: () => number,
    private readonly maxEntries = 20_000,
  ) {}

  /** The cached context of a token, if still fresh. */
  get(token: string): AuthContext | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.until <= this.clock()) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.context;
  }

  /** The current generation; pass it back to `set` with what was looked up after reading it. */
  currentGeneration(): number {
    return this.generation;
  }

  /** Caches a context until the TTL ends or the token expires, unless a revocation came between. */
  set(token: string, context: AuthContext, lookedUpAt: number): void {
    if (this.ttlMs <= 0 || lookedUpAt !== this.generation) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(token, {
      context,
      until: Math.min(this.clock() + this.ttlMs, context.expiresAt * 1000),
    });
  }

  /** Forgets every token of a session. */
  forgetSession(sessionId: string): void {
    this.generation++;
    for (const [token, entry] of this.entries)
      if (entry.context.sessionId === sessionId) this.entries.delete(token);
  }

  /** Forgets every token of a user. */
  forgetUser(userId: string): void {
    this.generation++;
    for (const [token, entry] of this.entries)
      if (entry.context.user.userId === userId) this.entries.delete(token);
  }
}
