import { DIAGNOSTICS_PATHS, type MetricListResponse } from '@fleetdeck/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { diagnosticsKeys } from './diagnostics.keys';
import { insightsUrl } from './insights-url';
import { loadDiagnosticsSchemas } from './load-diagnostics-schemas';

export interface MetricListRequest {
  node_id: string;
  start: number;
  end: number;
  /** metricListLimit(window): 150, or 200 / 1000 / 1400 for 1 / 6 / 24-day ranges. */
  limit: number;
  tz: number;
  id: readonly string[];
}

/** GET /insights/v1/node/metric/list (id repeated): the chosen metrics' points, oldest first. */
export async function fetchMetricList(
  request: MetricListRequest,
  signal?: AbortSignal,
): Promise<MetricListResponse> {
  const { MetricListResponseSchema } = await loadDiagnosticsSchemas();
  return apiJson(
    insightsUrl(DIAGNOSTICS_PATHS.metricList, {
      node_id: request.node_id,
      start: request.start,
      end: request.end,
      limit: request.limit,
      tz: request.tz,
      id: request.id,
    }),
    MetricListResponseSchema,
    signal ? { signal } : {},
  );
}

export const metricListQueryOptions = (request: MetricListRequest) =>
  queryOptions({
    queryKey: diagnosticsKeys.metricList(request),
    queryFn: ({ signal }) => fetchMetricList(request, signal),
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });

export function useMetricList(request: MetricListRequest, enabled: boolean) {
  return useQuery({ ...metricListQueryOptions(request), enabled });
}
