import type { Logger } from '../../logger.js';
import type { PushDelivery, PushSender, SendOutcome } from './push-sender.js';

export interface DispatcherOptions {
  /** Deliveries in flight at once. */
  concurrency: number;
  /** Deliveries waiting at most; past it new ones are dropped (and counted), never buffered. */
  maxQueue: number;
  /** Tries per delivery, the first included. */
  maxAttempts: number;
  /** First retry delay; doubles with each further try. */
  retryBaseMs: number;
}

export const DEFAULT_DISPATCHER_OPTIONS: DispatcherOptions = {
  concurrency: 8,
  maxQueue: 10_000,
  maxAttempts: 4,
  retryBaseMs: 1000,
};

interface Job {
  delivery: PushDelivery;
  endpointArn: string;
  attempt: number;
}

/**
 * A bounded in-memory queue of deliveries with a few workers, retries with exponential backoff
 * and a cap: nothing here ever makes the caller wait (ingest stays fast), and a flood of events
 * drops notifications rather than memory.
 */
export class PushDispatcher {
  readonly counters = { sent: 0, failed: 0, dropped: 0, retried: 0, invalidTokens: 0 };
  private readonly queue: Job[] = [];
  private active = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  private idleWaiters: Array<() => void> = [];
  private stopped = false;

  constructor(
    private readonly sender: PushSender,
    private readonly onInvalidToken: (endpointArn: string) => Promise<void>,
    private readonly logger: Logger,
    private readonly options: DispatcherOptions = DEFAULT_DISPATCHER_OPTIONS,
  ) {}

  /** Queues a delivery; false when the queue is full (the delivery is dropped). */
  enqueue(delivery: PushDelivery, endpointArn: string): boolean {
    if (this.stopped) return false;
    if (this.queue.length >= this.options.maxQueue) {
      this.counters.dropped += 1;
      return false;
    }
    this.queue.push({ delivery, endpointArn, attempt: 1 });
    this.pump();
    return true;
  }

  /** Resolves when nothing is queued, in flight or waiting for a retry. */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops pending retries, stops taking work and closes the senders' connections. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.queue.length = 0;
    this.checkIdle();
    await this.sender.close();
  }

  private isIdle(): boolean {
    return this.queue.length === 0 && this.active === 0 && this.timers.size === 0;
  }

  private checkIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private pump(): void {
    while (this.active < this.options.concurrency && this.queue.length > 0) {
      const job = this.queue.shift();
      if (!job) break;
      this.active += 1;
      void this.run(job).finally(() => {
        this.active -= 1;
        this.pump();
        this.checkIdle();
      });
    }
  }

  private async run(job: Job): Promise<void> {
    let outcome: SendOutcome;
    try {
      outcome = await this.sender.send(job.delivery);
    } catch (error) {
      outcome = { result: 'retry', reason: String(error) };
    }
    switch (outcome.result) {
      case 'sent':
        this.counters.sent += 1;
        return;
      case 'invalid_token':
        this.counters.invalidTokens += 1;
        this.logger.info(
          { endpoint: job.endpointArn, reason: outcome.reason },
          'push endpoint gone',
        );
        await this.onInvalidToken(job.endpointArn).catch((error: unknown) =>
          this.logger.warn({ err: error }, 'could not remove a dead push endpoint'),
        );
        return;
      case 'failed':
        this.counters.failed += 1;
        this.logger.warn({ endpoint: job.endpointArn, reason: outcome.reason }, 'push refused');
        return;
      case 'retry': {
        if (job.attempt >= this.options.maxAttempts || this.stopped) {
          this.counters.failed += 1;
          this.logger.warn({ endpoint: job.endpointArn, reason: outcome.reason }, 'push gave up');
          return;
        }
        this.counters.retried += 1;
        const delay = this.options.retryBaseMs * 2 ** (job.attempt - 1);
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          if (this.stopped) return this.checkIdle();
          this.queue.push({ ...job, attempt: job.attempt + 1 });
          this.pump();
        }, delay);
        timer.unref();
        this.timers.add(timer);
        return;
      }
    }
  }
}
