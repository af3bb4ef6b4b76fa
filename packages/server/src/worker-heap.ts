import v8 from 'node:v8';
import type { Worker } from 'node:worker_threads';

/** `--min-semi-space-size=…` and `--max-semi-space-size=…`, also spelt with underscores. */
const SEMI_SPACE_FLAG = /^--(min|max)[-_]semi[-_]space[-_]size=/;

/**
 * Creates a worker thread (`create`) whose isolate has a young generation of fixed semi-spaces of
 * `semiSpaceMiB` (ADR 19, QUALITY R7). V8's heap flags are process-wide and win over a Worker's
 * `resourceLimits`, so a worker would otherwise get the main thread's young generation: the WAL
 * checkpointer, which allocates a few KiB a second, would page in two 32 MiB semi-spaces over
 * hours. The flags are
 * set while the worker's isolate is created and given back (the process's own command line and
 * NODE_OPTIONS) once the worker runs. A worker created meanwhile gets the same sizes.
 */
export function withYoungGeneration<T extends Worker>(semiSpaceMiB: number, create: () => T): T {
  const own = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].filter(
    (flag) => SEMI_SPACE_FLAG.test(flag),
  );
  v8.setFlagsFromString(`--min-semi-space-size=${semiSpaceMiB}`);
  v8.setFlagsFromString(`--max-semi-space-size=${semiSpaceMiB}`);
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    v8.setFlagsFromString('--min-semi-space-size=0');
    v8.setFlagsFromString('--max-semi-space-size=0');
    for (const flag of own) v8.setFlagsFromString(flag);
  };
  let worker: T;
  try {
    worker = create();
  } catch (error) {
    restore();
    throw error;
  }
  worker.once('online', restore);
  worker.once('error', restore);
  worker.once('exit', restore);
  return worker;
}
