import type * as DiagnosticsSchemaModule from './diagnostics-schemas';

let pending: Promise<typeof DiagnosticsSchemaModule> | null = null;

/** Loads the insights answer schemas on first use (zod beside the first render). */
export function loadDiagnosticsSchemas(): Promise<typeof DiagnosticsSchemaModule> {
  pending ??= import('./diagnostics-schemas').catch((error: unknown) => {
    // Let a later call try again (e.g. the chunk failed to download while offline).
    pending = null;
    throw error;
  });
  return pending;
}
