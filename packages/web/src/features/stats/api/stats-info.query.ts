import type { StatsInfoResponse } from '@fleetdeck/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import type { StatsRangeParams } from '../model/stats-range';
import { loadStatsSchemas } from './load-stats-schemas';
import { STATS_INFO_PATH, withQuery } from './stats-paths';
import { statsKeys } from './stats.keys';

/**
 * GET /v1/admin/stats_info?duration=…&<range>: every series of the range (params come from
 * checkRange, so they already passed the contract's range rules).
 */
export async function fetchStatsInfo(
  params: StatsRangeParams,
  signal?: AbortSignal,
): Promise<StatsInfoResponse> {
  const { StatsInfoResponseSchema } = await loadStatsSchemas();
  return apiJson(
    withQuery(STATS_INFO_PATH, params),
    StatsInfoResponseSchema,
    signal ? { signal } : {},
  );
}

export const statsInfoQueryOptions = (params: StatsRangeParams) =>
  queryOptions({
    queryKey: statsKeys.range(params),
    queryFn: ({ signal }) => fetchStatsInfo(params, signal),
    // The previous range stays on screen (dimmed) while the next one loads.
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    refetchOnWindowFocus: false,
  });

/** The statistics of the last valid range the operator chose. */
export function useStatsInfo(params: StatsRangeParams) {
  return useQuery(statsInfoQueryOptions(params));
}
