import { DIAGNOSTICS_PATHS, type MetricMetaResponse } from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { diagnosticsKeys } from './diagnostics.keys';
import { insightsUrl } from './insights-url';
import { loadDiagnosticsSchemas } from './load-diagnostics-schemas';

/** GET /insights/v1/node/metric/meta?node_id: the metrics the node describes. */
export async function fetchMetricMeta(
  nodeId: string,
  signal?: AbortSignal,
): Promise<MetricMetaResponse> {
  const { MetricMetaResponseSchema } = await loadDiagnosticsSchemas();
  return apiJson(
    insightsUrl(DIAGNOSTICS_PATHS.metricMeta, { node_id: nodeId }),
    MetricMetaResponseSchema,
    signal ? { signal } : {},
  );
}

export const metricMetaQueryOptions = (nodeId: string) =>
  queryOptions({
    queryKey: diagnosticsKeys.metricMeta(nodeId),
    queryFn: ({ signal }) => fetchMetricMeta(nodeId, signal),
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: false,
  });

export function useMetricMeta(nodeId: string) {
  return useQuery(metricMetaQueryOptions(nodeId));
}
