import type * as FaultSchemaModule from './fault-schemas';

export type FaultSchemas = typeof FaultSchemaModule;

let pending: Promise<FaultSchemas> | null = null;

/** Loads the fault schemas on first use; a failed chunk download is tried again next time. */
export function loadFaultSchemas(): Promise<FaultSchemas> {
  pending ??= import('./fault-schemas').catch((error: unknown) => {
    pending = null;
    throw error;
  });
  return pending;
}
