import { randomUUID } from 'node:crypto';

/** A place taken in a window: the ticket that gives it back, and how many places are left. */
export interface WindowPlace {
  ticket: string;
  left: number;
}

/**
 * Caps events per key in a sliding window (failed sign-ins per account and IP, MFA tries, sign-up
 * and reset requests per address). In memory for one process; in Redis when several instances
 * share the limits (REDIS_URL, ADR 38). Taking a place checks and records in one step, so callers
 * that wait between the two (a password hash) cannot all pass together.
 */
export interface WindowLimiter {
  /** Takes one place for `key`; undefined when the window is already full. */
  take(key: string): Promise<WindowPlace | undefined>;
  /** Whether `key` has reached the limit inside the window. */
  isFull(key: string): Promise<boolean>;
  /** Gives back one place taken with `ticket` (an attempt that turned out not to count). */
  giveBack(key: string, ticket: string): Promise<void>;
  /** Forgets `key` (e.g. after a successful sign-in). */
  reset(key: string): Promise<void>;
}

/** Makes the limiter of one kind of event: `name` keeps kinds apart in a shared store. */
export type LimiterFactory = (
  name: string,
  limit: number,
  windowMs: number,
  clock: () => number,
) => WindowLimiter;

interface Hit {
  at: number;
  ticket: string;
}

/** The single-process limiter: each key's recent events in a Map. */
export class SlidingWindowLimiter implements WindowLimiter {
  private readonly hits = new Map<string, Hit[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: string): Promise<WindowPlace | undefined> {
    const list = this.recent(key);
    if (list.length >= this.limit) return Promise.resolve(undefined);
    const ticket = randomUUID();
    list.push({ at: this.now(), ticket });
    this.hits.set(key, list);
    if (this.hits.size > 100_000) this.sweep();
    return Promise.resolve({ ticket, left: this.limit - list.length });
  }

  isFull(key: string): Promise<boolean> {
    return Promise.resolve(this.recent(key).length >= this.limit);
  }

  giveBack(key: string, ticket: string): Promise<void> {
    const list = this.hits.get(key);
    const index = list?.findIndex((hit) => hit.ticket === ticket) ?? -1;
    if (list && index >= 0) {
      list.splice(index, 1);
      if (list.length === 0) this.hits.delete(key);
    }
    return Promise.resolve();
  }

  reset(key: string): Promise<void> {
    this.hits.delete(key);
    return Promise.resolve();
  }

  private recent(key: string): Hit[] {
    const cutoff = this.now() - this.windowMs;
    const list = (this.hits.get(key) ?? []).filter((hit) => hit.at > cutoff);
    if (list.length === 0) this.hits.delete(key);
    return list;
  }

  private sweep(): void {
    for (const key of [...this.hits.keys()]) this.recent(key);
  }
}

/** The default factory: limits in this process. */
export const memoryLimiters: LimiterFactory = (_name, limit, windowMs, clock) =>
  new SlidingWindowLimiter(limit, windowMs, clock);
