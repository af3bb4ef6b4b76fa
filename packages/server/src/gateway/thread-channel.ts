/**
 * Calls between the main thread and the broker's worker thread (ADR 23), one `postMessage` per
 * batch of calls rather than per call: under a device flood the broker thread hands tens of
 * thousands of messages a second to the ingest, and each `postMessage` costs several µs.
 *
 * A call is an array `[method, id, ...args]`. `id` 0 is a notification (no answer); otherwise the
 * other side answers with `[REPLY, id, ok, value]`. Calls arrive and run in the order they were
 * made, so a reply to a request made after some notifications is sent only after those ran.
 */
export type ThreadCall = [method: string, id: number, ...args: unknown[]];

/** The method name of an answer. */
const REPLY = '$reply';
/** Calls held before a batch is posted without waiting for the next turn of the event loop. */
const BATCH_LIMIT = 1024;

/** An error as it crosses threads: its message and its `code` (e.g. EADDRINUSE). */
interface ThreadError {
  message: string;
  code?: string;
}

function toThreadError(error: unknown): ThreadError {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return typeof code === 'string' ? { message: error.message, code } : { message: error.message };
  }
  return { message: String(error) };
}

function fromThreadError(error: ThreadError): Error {
  const result = new Error(error.message) as NodeJS.ErrnoException;
  if (error.code !== undefined) result.code = error.code;
  return result;
}

/** Runs one call; a returned promise's outcome is the answer to a request. */
export type ThreadCallHandler = (method: string, args: unknown[]) => unknown;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** One side of the channel: batches outgoing calls, runs incoming ones, matches answers. */
export class ThreadChannel {
  private outbox: ThreadCall[] = [];
  private scheduled = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedWith: Error | undefined;
  /** The request posted as the last call of the next batch, shared by all who asked for it. */
  private endOfBatch: { method: string; pending: Pending; promise: Promise<unknown> } | undefined;

  constructor(
    private readonly post: (calls: ThreadCall[]) => void,
    private readonly handler: ThreadCallHandler,
  ) {}

  /** Sends a call that expects no answer. */
  notify(method: string, ...args: unknown[]): void {
    this.enqueue([method, 0, ...args]);
  }

  /** Sends a call and resolves with the other side's answer (rejects with its error). */
  request(method: string, ...args: unknown[]): Promise<unknown> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.enqueue([method, id, ...args]);
    });
  }

  /**
   * Sends `method` as the last call of the batch now being filled; everyone who asks before that
   * batch is posted shares the one request. Its answer therefore comes after every call made
   * before it ran (e.g. "everything handed over so far is committed").
   */
  requestAtEndOfBatch(method: string): Promise<unknown> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (this.endOfBatch) {
      if (this.endOfBatch.method !== method)
        throw new Error(`${this.endOfBatch.method} is pending`);
      return this.endOfBatch.promise;
    }
    let pending: Pending = { resolve: () => undefined, reject: () => undefined };
    const promise = new Promise<unknown>((resolve, reject) => {
      pending = { resolve, reject };
    });
    this.endOfBatch = { method, pending, promise };
    this.schedule();
    return promise;
  }

  /** Posts what is queued now (the batch would otherwise go on the next turn). */
  flush(): void {
    this.scheduled = false;
    if (this.closedWith) return;
    if (this.endOfBatch) {
      const id = this.nextId++;
      this.pending.set(id, this.endOfBatch.pending);
      this.outbox.push([this.endOfBatch.method, id]);
      this.endOfBatch = undefined;
    }
    if (this.outbox.length === 0) return;
    const calls = this.outbox;
    this.outbox = [];
    this.post(calls);
  }

  /** Runs a batch the other side posted. A handler's exception answers its request; never throws. */
  receive(calls: readonly ThreadCall[]): void {
    for (const call of calls) {
      const [method, id, ...args] = call;
      if (method === REPLY) {
        this.settle(id, args[0] === true, args[1]);
        continue;
      }
      let result: unknown;
      try {
        result = this.handler(method, args);
      } catch (error) {
        if (id !== 0) this.enqueue([REPLY, id, false, toThreadError(error)]);
        continue;
      }
      if (id === 0) continue;
      if (result instanceof Promise) {
        result.then(
          (value: unknown) => this.enqueue([REPLY, id, true, value]),
          (error: unknown) => this.enqueue([REPLY, id, false, toThreadError(error)]),
        );
      } else {
        this.enqueue([REPLY, id, true, result]);
      }
    }
  }

  /** Fails every open request with `error` and sends nothing more (the other side is gone). */
  close(error: Error): void {
    this.closedWith ??= error;
    this.outbox = [];
    for (const pending of this.pending.values()) pending.reject(this.closedWith);
    this.pending.clear();
    this.endOfBatch?.pending.reject(this.closedWith);
    this.endOfBatch = undefined;
  }

  private settle(id: number, ok: boolean, value: unknown): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    if (ok) pending.resolve(value);
    else pending.reject(fromThreadError(value as ThreadError));
  }

  private enqueue(call: ThreadCall): void {
    if (this.closedWith) return;
    this.outbox.push(call);
    if (this.outbox.length >= BATCH_LIMIT) this.flush();
    else this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }
}
