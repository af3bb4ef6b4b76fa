/**
 * The contract schemas of the dashboard's answers. Only ever imported through
 * loadStatsSchemas(), so zod stays out of the dashboard's first chunk (see lib/lazy-schemas.ts).
 */
export { StatsInfoResponseSchema, StatsSummarySchema } from '@fleetdeck/contract';
