import {
  DIAGNOSTICS_MAX_RANGE_SECONDS,
  DIAGNOSTICS_PATHS,
  PARAM_LIST_LIMIT,
  type ParamListResponse,
} from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { toEpochSeconds } from '../model/interval';
import { diagnosticsKeys } from './diagnostics.keys';
import { insightsUrl } from './insights-url';
import { loadDiagnosticsSchemas } from './load-diagnostics-schemas';

/**
 * GET /insights/v1/node/param/list?node_id&start&end&limit=150: every param's values over the
 * longest range the API serves, newest first, so each shows its latest value and when it came.
 */
export async function fetchParamList(
  nodeId: string,
  signal?: AbortSignal,
): Promise<ParamListResponse> {
  const { ParamListResponseSchema } = await loadDiagnosticsSchemas();
  const end = toEpochSeconds(Date.now()) + 1;
  return apiJson(
    insightsUrl(DIAGNOSTICS_PATHS.paramList, {
      node_id: nodeId,
      start: end - DIAGNOSTICS_MAX_RANGE_SECONDS,
      end,
      limit: PARAM_LIST_LIMIT,
    }),
    ParamListResponseSchema,
    signal ? { signal } : {},
  );
}

export const paramListQueryOptions = (nodeId: string) =>
  queryOptions({
    queryKey: diagnosticsKeys.paramList(nodeId),
    queryFn: ({ signal }) => fetchParamList(nodeId, signal),
    refetchOnWindowFocus: false,
  });

export function useParamList(nodeId: string) {
  return useQuery(paramListQueryOptions(nodeId));
}
