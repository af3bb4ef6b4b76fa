import type { MetricMeta, NodeDiagnosticsInfo } from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchAdminNodes } from '../../nodes/api/admin-nodes.query';
import { glanceMetrics, mostRecentlyActive } from '../model/active-nodes';
import { diagnosticsKeys } from './diagnostics.keys';
import { fetchMetricMeta } from './metric-meta.query';
import { fetchNodeInfo } from './node-info.query';

/** Nodes looked at to find the most recently active ones (one page of the fleet list). */
const CANDIDATES = 25;

export interface ActiveNode {
  info: NodeDiagnosticsInfo;
  metrics: MetricMeta[];
}

/**
 * The `count` nodes whose diagnostics arrived last, among a page of online nodes (and, when
 * those are too few, a page of the whole fleet), each with the metrics worth a glance. Real fleet data, never fixtures: a fleet without
 * diagnostics gives an empty list.
 */
export async function fetchActiveNodes(
  count: number,
  metricsPerNode: number,
  signal?: AbortSignal,
): Promise<ActiveNode[]> {
  const infosOf = async (nodeIds: readonly string[]) => {
    const infos = await Promise.allSettled(nodeIds.map((id) => fetchNodeInfo(id, signal)));
    return infos.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  };
  const online = await fetchAdminNodes({ num_records: CANDIDATES, node_status: 'online' }, signal);
  const heard = await infosOf(online.node_info.map((node) => node.node_id));
  if (heard.length < count) {
    // Too few online nodes send diagnostics: look at the rest of the fleet's first page too.
    const seen = new Set(online.node_info.map((node) => node.node_id));
    const fleet = await fetchAdminNodes({ num_records: CANDIDATES }, signal);
    heard.push(
      ...(await infosOf(fleet.node_info.map((n) => n.node_id).filter((id) => !seen.has(id)))),
    );
  }
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
