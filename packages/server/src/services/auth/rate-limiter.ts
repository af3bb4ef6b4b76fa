/**
 * Counts events per key in a sliding window, in memory (the single-process default; a shared
 * store replaces it when several instances run). Used to cap failed sign-ins per account and IP.
 */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `key` already reached the limit inside the window. */
  isBlocked(key: string): boolean {
    return this.recent(key).length >= this.limit;
  }

  /** Records one event for `key`. */
  record(key: string): void {
    const list = this.recent(key);
    list.push(this.now());
    this.hits.set(key, list);
    if (this.hits.size > 100_000) this.sweep();
  }

  /**
   * Records one event for `key` unless the window is full already: the check and the record are
   * one step, so callers that wait between checking and recording (a password hash) cannot all
   * pass together. Returns the event's time (for `release`), or undefined when `key` is blocked.
   */
  tryRecord(key: string): number | undefined {
    if (this.isBlocked(key)) return undefined;
    const at = this.now();
    this.hits.set(key, [...this.recent(key), at]);
    if (this.hits.size > 100_000) this.sweep();
    return at;
  }

  /** Takes back one event recorded at `at` (an attempt that turned out not to count). */
  release(key: string, at: number): void {
    const list = this.hits.get(key);
    const index = list?.indexOf(at) ?? -1;
    if (!list || index < 0) return;
    list.splice(index, 1);
    if (list.length === 0) this.hits.delete(key);
  }

  /** Forgets `key` (e.g. after a successful sign-in). */
  reset(key: string): void {
    this.hits.delete(key);
  }

  /** Seconds until `key` may try again. */
  retryAfterSeconds(key: string): number {
    const oldest = this.recent(key)[0];
    return oldest === undefined
      ? 0
      : Math.max(1, Math.ceil((oldest + this.windowMs - this.now()) / 1000));
  }

  private recent(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const list = (this.hits.get(key) ?? []).filter((time) => time > cutoff);
    if (list.length === 0) this.hits.delete(key);
    return list;
  }

  private sweep(): void {
    for (const key of [...this.hits.keys()]) this.recent(key);
  }
}
