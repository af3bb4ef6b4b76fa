import type { StatsSummary } from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadStatsSchemas } from './load-stats-schemas';
import { STATS_SUMMARY_PATH } from './stats-paths';
import { statsKeys } from './stats.keys';

/** How long the "now" figures count as fresh; coming back to the tab after that refetches. */
const SUMMARY_STALE_MS = 15_000;

/** GET /v1/admin/stats_info/summary: online, offline, registrations, claims, certificates now. */
export async function fetchStatsSummary(signal?: AbortSignal): Promise<StatsSummary> {
  const { StatsSummarySchema } = await loadStatsSchemas();
  return apiJson(STATS_SUMMARY_PATH, StatsSummarySchema, signal ? { signal } : {});
}

export const statsSummaryQueryOptions = () =>
  queryOptions({
    queryKey: statsKeys.summary(),
    queryFn: ({ signal }) => fetchStatsSummary(signal),
    staleTime: SUMMARY_STALE_MS,
  });

export function useStatsSummary() {
  return useQuery(statsSummaryQueryOptions());
}
