import { OTA_PATHS, type NodeOtaStatus } from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { isNoJobNodesError } from './job-nodes.query';
import { otaJobKeys } from './ota-jobs.keys';
import { otaUrl } from './ota-url';

/**
 * GET /v1/admin/otajob/status?ota_job_id=…&node_id=…: every state the node went through in this
 * job, newest first. A 404 (nothing recorded) is an empty history, not an error.
 */
export async function fetchNodeHistory(
  otaJobId: string,
  nodeId: string,
  signal?: AbortSignal,
): Promise<NodeOtaStatus[]> {
  const { JobStatusListSchema } = await loadSchemas();
  try {
    const list = await apiJson(
      otaUrl(OTA_PATHS.jobStatus, { ota_job_id: otaJobId, node_id: nodeId }),
      JobStatusListSchema,
      signal ? { signal } : {},
    );
    return list.node_ota_status;
  } catch (error) {
    if (isNoJobNodesError(error)) return [];
    throw error;
  }
}

export const nodeHistoryQueryOptions = (otaJobId: string, nodeId: string) =>
  queryOptions({
    queryKey: otaJobKeys.nodeHistory(otaJobId, nodeId),
    queryFn: ({ signal }) => fetchNodeHistory(otaJobId, nodeId, signal),
    refetchOnWindowFocus: false,
  });

export function useNodeHistory(otaJobId: string, nodeId: string | null) {
  return useQuery({
    ...nodeHistoryQueryOptions(otaJobId, nodeId ?? ''),
    enabled: nodeId !== null,
  });
}
