/** One fault definition (access §3): the code a node reports, what the appliance shows, and why. */
export interface FaultDefinitionLike {
  err_code: string;
  disp_code: string;
  description: string;
}

/** Definitions by error code; later duplicates never replace the first. */
export type FaultLookup = ReadonlyMap<string, FaultDefinitionLike>;

export function faultLookup(definitions: readonly FaultDefinitionLike[]): FaultLookup {
  const lookup = new Map<string, FaultDefinitionLike>();
  for (const definition of definitions) {
    if (!lookup.has(definition.err_code)) lookup.set(definition.err_code, definition);
  }
  return lookup;
}

/**
 * A fault occurrence with its display code and description looked up by code (access §3). A
 * code the catalogue does not hold keeps its raw value and has no display code or description.
 */
export function describeFault(
  lookup: FaultLookup,
  code: string,
): { err_code: string; disp_code: string | undefined; description: string | undefined } {
  const definition = lookup.get(code);
  return {
    err_code: code,
    disp_code: definition?.disp_code,
    description: definition?.description,
  };
}

/**
 * The definition a fault device list is about, found by error code or, failing that, by display
 * code (a link may carry either); undefined when the catalogue has neither.
 */
export function findDefinition(
  definitions: readonly FaultDefinitionLike[],
  code: string,
): FaultDefinitionLike | undefined {
  return (
    definitions.find((definition) => definition.err_code === code) ??
    definitions.find((definition) => definition.disp_code === code)
  );
}

/** The rows of one page of a list held whole in memory (the Faults List pages its catalogue). */
export function pageOf<T>(items: readonly T[], page: number, pageSize: number): readonly T[] {
  if (pageSize <= 0 || page < 1) return [];
  return items.slice((page - 1) * pageSize, page * pageSize);
}
