/** One open event stream as the registry sees it. */
export interface RegisteredStream {
  /** Ends the stream because a newer one of the same user took its place. */
  evict: () => void;
}

/**
 * The event streams (`GET /v1/events`) open on this instance, per user, in the order they opened.
 * A user keeps at most `perUser` of them: one more closes that user's oldest (ADR 2, amendment
 * "event streams per user"). Every way a stream ends must call the release function `open`
 * returns; it may be called any number of times.
 */
export class EventStreamRegistry {
  private readonly byUser = new Map<string, Set<RegisteredStream>>();

  constructor(private readonly perUser: number) {}

  /**
   * Counts a new stream of the user and evicts the user's oldest ones past the cap (they are
   * released here, before their `evict` runs). Returns the new stream's release function.
   */
  open(userId: string, stream: RegisteredStream): () => void {
    let streams = this.byUser.get(userId);
    if (!streams) {
      streams = new Set();
      this.byUser.set(userId, streams);
    }
    streams.add(stream);
    // A Set iterates in insertion order, so the first entries are the oldest streams.
    const evicted: RegisteredStream[] = [];
    for (const oldest of streams) {
      if (streams.size - evicted.length <= this.perUser) break;
      evicted.push(oldest);
    }
    for (const oldest of evicted) {
      this.release(userId, oldest);
      oldest.evict();
    }
    return () => this.release(userId, stream);
  }

  /** How many streams of the user are open on this instance. */
  openFor(userId: string): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  /** How many streams are open on this instance, all users together. */
  openTotal(): number {
    let total = 0;
    for (const streams of this.byUser.values()) total += streams.size;
    return total;
  }

  private release(userId: string, stream: RegisteredStream): void {
    const streams = this.byUser.get(userId);
    if (!streams?.delete(stream)) return;
    if (streams.size === 0) this.byUser.delete(userId);
  }
}
