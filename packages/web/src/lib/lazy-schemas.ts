/**
 * Loads the contract's zod schemas on first use. zod is the largest library the sign-in page
 * needs, yet nothing needs it before the first answer arrives or the form is submitted; loading
 * it beside the first render, instead of before it, keeps the first page's critical JS small.
 * The schemas are still the contract's own: nothing is re-declared here.
 */
import type * as ContractSchemaModule from './contract-schemas';

export type ContractSchemas = typeof ContractSchemaModule;

let pending: Promise<ContractSchemas> | null = null;

export function loadSchemas(): Promise<ContractSchemas> {
  pending ??= import('./contract-schemas').catch((error: unknown) => {
    // Let a later call try again (e.g. the chunk failed to download while offline).
    pending = null;
    throw error;
  });
  return pending;
}
