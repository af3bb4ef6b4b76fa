/**
 * The Node flags the server runs with: `npm start`, `npm run demo`, the package's own start script
 * and the benchmarks all pass these (ADR 19).
 *
 * `--max-semi-space-size=64`: V8's young generation may grow to semi-spaces of 64 MiB instead of
 * 16 MiB. The ingest and the list pages allocate short-lived objects (packets, rows, answers) by the
 * megabyte; with small semi-spaces the scavenger runs several hundred times a second and promotes
 * objects that were about to die into the old generation, whose collections then stall every
 * connection at once.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

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
