import { DIAGNOSTICS_PATHS, type NodeDiagnosticsInfo } from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-error';
import { diagnosticsKeys } from './diagnostics.keys';
import { insightsUrl } from './insights-url';
import { loadDiagnosticsSchemas } from './load-diagnostics-schemas';

/**
 * A node that never sent diagnostics answers 404 here; the screens then ask to enable
 * diagnostics in the firmware (MESSAGES.enableDiagnosticsFirmware, access §8).
 */
export function isNoDiagnosticsError(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}

/** GET /insights/v1/node/info?node_id: project, app version, when diagnostics last arrived. */
export async function fetchNodeInfo(
  nodeId: string,
  signal?: AbortSignal,
): Promise<NodeDiagnosticsInfo> {
  const { NodeDiagnosticsInfoSchema } = await loadDiagnosticsSchemas();
  return apiJson(
    insightsUrl(DIAGNOSTICS_PATHS.nodeInfo, { node_id: nodeId }),
    NodeDiagnosticsInfoSchema,
    signal ? { signal } : {},
  );
}

export const nodeInfoQueryOptions = (nodeId: string) =>
  queryOptions({
    queryKey: diagnosticsKeys.info(nodeId),
    queryFn: ({ signal }) => fetchNodeInfo(nodeId, signal),
    refetchOnWindowFocus: false,
    retry: (count, error) => !isNoDiagnosticsError(error) && count < 2,
  });

export function useNodeInfo(nodeId: string) {
  return useQuery(nodeInfoQueryOptions(nodeId));
}
