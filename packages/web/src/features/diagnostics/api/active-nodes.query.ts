import type { MetricMeta, NodeDiagnosticsInfo } from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchAdminNodes } from '../../nodes/api/admin-nodes.query';
import { glanceMetrics, mostRecentlyActive } from '../model/active-nodes';
import { diagnosticsKeys } from './diagnostics.keys';
import { fetchMetricMeta } from './metric-meta.query';
import { fetchNodeInfo } from './node-info.query';

/** Online nodes looked at to find the most recently active ones (one page of the fleet list). */
const CANDIDATES = 25;

export interface ActiveNode {
  info: NodeDiagnosticsInfo;
  metrics: MetricMeta[];
}

/**
 * The `count` nodes whose diagnostics arrived last, among a page of online nodes (else of the
 * fleet), each with the metrics worth a glance. Real fleet data, never fixtures: a fleet without
 * diagnostics gives an empty list.
 */
export async function fetchActiveNodes(
  count: number,
  metricsPerNode: number,
  signal?: AbortSignal,
): Promise<ActiveNode[]> {
  let page = await fetchAdminNodes({ num_records: CANDIDATES, node_status: 'online' }, signal);
  if (page.node_info.length === 0)
    page = await fetchAdminNodes({ num_records: CANDIDATES }, signal);
  const infos = await Promise.allSettled(
    page.node_info.map((node) => fetchNodeInfo(node.node_id, signal)),
  );
  const heard = infos.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const recent = mostRecentlyActive(heard, count * 2);
  const withMetrics = await Promise.all(
    recent.map(async (info) => {
      try {
        const meta = await fetchMetricMeta(info.node_id, signal);
        return { info, metrics: glanceMetrics(meta.metrics, metricsPerNode) };
      } catch {
        return { info, metrics: [] };
      }
    }),
  );
  return withMetrics.filter((node) => node.metrics.length > 0).slice(0, count);
}

export const activeNodesQueryOptions = (count: number, metricsPerNode: number) =>
  queryOptions({
    queryKey: [...diagnosticsKeys.activeNodes(), count, metricsPerNode] as const,
    queryFn: ({ signal }) => fetchActiveNodes(count, metricsPerNode, signal),
    staleTime: 60_000,
    refetchOnWindowFocus: false,
  });

export function useActiveNodes(count: number, metricsPerNode: number) {
  return useQuery(activeNodesQueryOptions(count, metricsPerNode));
}
