/**
 * The Node flags the server runs with: `npm start`, `npm run demo`, the package's own start script
 * and the benchmarks all pass these (ADR 19).
 *
 * `--max-semi-space-size=32`: V8's young generation may grow to semi-spaces of 32 MiB instead of
 * 16 MiB (64 until QUALITY R7, see below). The ingest and the list pages allocate short-lived
 * objects (packets, rows, answers) by the megabyte; with small semi-spaces the scavenger runs several hundred times a second and promotes
 * objects that were about to die into the old generation, whose collections then stall every
 * connection at once.
 *
 * `--min-semi-space-size=32` (QUALITY R7): the same size from the start. Left to V8, the young
 * generation starts at 1 MiB semi-spaces and doubles each time the bytes that survived scavenges
 * since the last doubling exceed its size; under a steady moderate load (the R7 soak: 200 msg/s)
 * that is 4 → 8 → 16 MiB in 10 minutes and on towards 64 MiB over the next hour, which the soak
 * reads as an RSS drift of 11 % in 12 minutes and 27 % in 30. A fixed size has nothing to grow.
 * 32, not 64: V8 still gives one semi-space back to the system when the allocation rate drops
 * below 1 MB/s and takes it again at the next scavenge, and at 64 MiB that swing alone is
 * 64 MiB of RSS. The broker thread and the WAL checkpointer get smaller young generations of their
 * own (`withYoungGeneration`).
 */
export const SERVER_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=32',
  '--min-semi-space-size=32',
];

/** The option name of a flag (`--max-semi-space-size` of `--max-semi-space-size=64`). */
function optionName(flag: string): string {
  return flag.split('=')[0]!.replaceAll('_', '-');
}

/**
 * The server flags this process was started without (neither on its command line nor in
 * NODE_OPTIONS); a flag set to another value counts as given, the operator chose it.
 */
export function missingNodeFlags(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
): string[] {
  const given = new Set(
    [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].filter(Boolean).map(optionName),
  );
  return SERVER_NODE_FLAGS.filter((flag) => !given.has(optionName(flag)));
}
