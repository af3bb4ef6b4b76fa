import type * as StatsSchemaModule from './stats-schemas';

let pending: Promise<typeof StatsSchemaModule> | null = null;

/** Loads the dashboard's response schemas on first use (zod beside the first render). */
export function loadStatsSchemas(): Promise<typeof StatsSchemaModule> {
  pending ??= import('./stats-schemas').catch((error: unknown) => {
    // Let a later call try again (e.g. the chunk failed to download while offline).
    pending = null;
    throw error;
  });
  return pending;
}
