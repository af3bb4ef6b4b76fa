import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { withYoungGeneration } from '../worker-heap.js';

/**
 * SQLite's own default: the connection that commits checkpoints once the WAL holds this many
 * pages. The server's connection goes back to it when the background checkpointer is gone.
 */
export const SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

/**
 * While the background checkpointer runs, the server's connection checkpoints only when the WAL
 * has grown this far (64 MiB of 4 KiB pages): a safety net for a checkpointer that falls behind,
 * never reached while it keeps up (ADR 20).
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 16_384;

/** How often the background connection copies committed WAL pages into the database file. */
export const CHECKPOINT_INTERVAL_MS = 100;

/** The longest wait between rounds while nothing is written (the wait doubles up to it). */
export const IDLE_CHECKPOINT_INTERVAL_MS = 2_000;

/** What one `PRAGMA wal_checkpoint(PASSIVE)` reported. */
export interface CheckpointResult {
  /** 1 when another checkpoint was running and this one did nothing. */
  busy: number;
  /** Frames in the WAL. */
  log: number;
  /** Frames of it that are now in the database file. */
  checkpointed: number;
}

export interface WalCheckpointer {
  /** Runs one checkpoint now (tests and shutdown); resolves with what it reported. */
  checkpointNow(): Promise<CheckpointResult>;
  /** Rounds that found new frames in the WAL (and copied them), since the start. */
  readonly rounds: number;
  /** Stops the worker after it closed its connection. */
  stop(): Promise<void>;
}

/**
 * The worker's code, CommonJS run with `eval` so it works from the TypeScript sources (tests)
 * and from the build alike. Its own connection runs PASSIVE checkpoints: they copy what is
 * committed without waiting for, or blocking, the server's connection (SQLite's WAL allows one
 * writer and a checkpointer at the same time).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -1024');
const checkpoint = () => db.pragma('wal_checkpoint(PASSIVE)')[0];
// A round that finds the WAL as the last one left it (no new frames, no restart) copied nothing:
// the wait doubles, up to idleIntervalMs, so an idle server is not woken ten times a second.
let last = { log: -1, checkpointed: -1 };
let delay = workerData.intervalMs;
let timer;
// A checkpoint that fails (a full disk, an I/O error, a lock held too long) is reported once and
// tried again at the idle pace: the checkpointer outlives a disk that fills up for a while.
let troubled = false;
const describe = (error) => ({ code: error && error.code, message: String(error && error.message) });
const round = () => {
  let result;
  try {
    result = checkpoint();
  } catch (error) {
    if (!troubled) parentPort.postMessage({ type: 'trouble', error: describe(error) });
    troubled = true;
    delay = workerData.idleIntervalMs;
    timer = setTimeout(round, delay);
    return;
  }
  if (troubled) {
    troubled = false;
    parentPort.postMessage({ type: 'recovered' });
  }
  const moved = result.log !== last.log || result.checkpointed !== last.checkpointed;
  last = result;
  if (moved && result.busy === 0 && result.checkpointed > 0) {
    parentPort.postMessage({ type: 'round', result });
    delay = workerData.intervalMs;
  } else if (!moved) {
    delay = Math.min(delay * 2, workerData.idleIntervalMs);
  }
  timer = setTimeout(round, delay);
};
timer = setTimeout(round, delay);
parentPort.on('message', (message) => {
  if (message.type === 'now') {
    try {
      parentPort.postMessage({ type: 'now', id: message.id, result: checkpoint() });
    } catch (error) {
      parentPort.postMessage({ type: 'now', id: message.id, error: describe(error) });
    }
  }
  if (message.type === 'stop') {
    clearTimeout(timer);
    db.close();
    parentPort.close();
  }
});
parentPort.postMessage({ type: 'ready' });
`;

/**
 * The checkpointer's young generation: 1 MiB semi-spaces. It allocates a few KiB a second, so
 * the main thread's 32 MiB ones (SERVER_NODE_FLAGS) would be paged in over hours: a slow RSS
 * climb with nothing behind it (QUALITY R7).
 */
export const CHECKPOINTER_SEMI_SPACE_MIB = 1;

/**
 * Starts a worker thread that checkpoints the WAL of the SQLite file `file` in the background, so
 * the copying and the file syncs of a checkpoint leave the event loop (ADR 20). `onFailure` is
 * told when the worker cannot start or dies; the caller then checkpoints on its own connection
 * again. A checkpoint that fails is not the worker's end: `onTrouble` hears of it, the worker
 * tries again every IDLE_CHECKPOINT_INTERVAL_MS, and the server connection's fallback (64 MiB)
 * bounds the WAL meanwhile.
 */
export function startWalCheckpointer(
  file: string,
  onFailure: (error: Error) => void,
  intervalMs = CHECKPOINT_INTERVAL_MS,
  /** Told when checkpoints start failing (with the error) and when they work again (null). */
  onTrouble: (error: Error | null) => void = () => undefined,
): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = withYoungGeneration(
    CHECKPOINTER_SEMI_SPACE_MIB,
    () =>
      new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { file, driver, intervalMs, idleIntervalMs: IDLE_CHECKPOINT_INTERVAL_MS },
      }),
  );
  // A forgotten stop never keeps the process alive.
  worker.unref();
  let rounds = 0;
  let nextId = 0;
  let stopping = false;
  const waiting = new Map<
    number,
    { resolve: (result: CheckpointResult) => void; reject: (error: Error) => void }
  >();
  const failAll = (error: Error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on(
    'message',
    (message: {
      type: string;
      id?: number;
      result?: CheckpointResult;
      error?: { code?: unknown };
    }) => {
      if (message.type === 'round') rounds += 1;
      if (message.type === 'trouble') onTrouble(asError(message.error));
      if (message.type === 'recovered') onTrouble(null);
      if (message.type === 'now' && message.id !== undefined) {
        const pending = waiting.get(message.id);
        waiting.delete(message.id);
        if (message.result) pending?.resolve(message.result);
        else pending?.reject(asError(message.error));
      }
    },
  );
  worker.on('error', (thrown: unknown) => {
    const error = asError(thrown);
    failAll(error);
    if (!stopping) onFailure(error);
  });
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', (code) => {
      const error = new Error(`the WAL checkpointer stopped (exit code ${code})`);
      failAll(error);
      if (!stopping && code === 0) onFailure(error);
      resolve();
    });
  });
  return {
    get rounds() {
      return rounds;
    },
    checkpointNow() {
      return new Promise((resolve, reject) => {
        if (stopping) {
          reject(new Error('the WAL checkpointer is stopped'));
          return;
        }
        const id = (nextId += 1);
        waiting.set(id, { resolve, reject });
        worker.postMessage({ type: 'now', id });
      });
    },
    async stop() {
      if (!stopping) {
        stopping = true;
        // Held from here on: a process whose last work is this stop must wait for the worker's
        // exit, not end with the stop unfinished and whatever follows it never run.
        worker.ref();
        worker.postMessage({ type: 'stop' });
      }
      await exited;
    },
  };
}

/** What a worker threw, as an Error (SQLite's errors reach this thread as plain `{ code }`). */
function asError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  const code = (thrown as { code?: unknown } | null)?.code;
  return new Error(`the WAL checkpointer failed${typeof code === 'string' ? ` (${code})` : ''}`);
}
