import { DIAGNOSTICS_PATHS, type ParamMetaResponse } from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { diagnosticsKeys } from './diagnostics.keys';
import { insightsUrl } from './insights-url';
import { loadDiagnosticsSchemas } from './load-diagnostics-schemas';

/** GET /insights/v1/node/param/meta?node_id: the variables tree (folders and params). */
export async function fetchParamMeta(
  nodeId: string,
  signal?: AbortSignal,
): Promise<ParamMetaResponse> {
  const { ParamMetaResponseSchema } = await loadDiagnosticsSchemas();
  return apiJson(
    insightsUrl(DIAGNOSTICS_PATHS.paramMeta, { node_id: nodeId }),
    ParamMetaResponseSchema,
    signal ? { signal } : {},
  );
}

export const paramMetaQueryOptions = (nodeId: string) =>
  queryOptions({
    queryKey: diagnosticsKeys.paramMeta(nodeId),
    queryFn: ({ signal }) => fetchParamMeta(nodeId, signal),
    refetchOnWindowFocus: false,
  });

export function useParamMeta(nodeId: string) {
  return useQuery(paramMetaQueryOptions(nodeId));
}
