import type { MetricMeta, NodeDiagnosticsInfo } from '@fleetdeck/contract';

/**
 * The Multigraph page's choice (access §2 /home/alarmalert/): the nodes whose diagnostics arrived
 * most recently, and for each the metrics worth a glance — the appliance's own first (compressor,
 * drum, cabinet…), then the radio and memory ones every node sends.
 */

/** Metric path prefixes every ESP Insights node reports; less telling than the appliance's own. */
const GENERIC_PREFIXES = ['heap', 'wifi', 'wi-fi', 'ip'];

export function isGenericMetric(metric: MetricMeta): boolean {
  const root = (metric.path ?? metric.id).split('.')[0]?.toLowerCase() ?? '';
  return GENERIC_PREFIXES.includes(root);
}

/** Up to `count` metrics, the appliance's own first, in the order the node lists them. */
export function glanceMetrics(metrics: readonly MetricMeta[], count: number): MetricMeta[] {
  const own = metrics.filter((m) => !isGenericMetric(m));
  const generic = metrics.filter((m) => isGenericMetric(m));
  return [...own, ...generic].slice(0, count);
}

/** The `count` nodes heard from last (newest first); ties keep the fleet list's order. */
export function mostRecentlyActive(
  infos: readonly NodeDiagnosticsInfo[],
  count: number,
): NodeDiagnosticsInfo[] {
  return infos
    .map((info, order) => ({ info, order }))
    .sort((a, b) => b.info.last_seen - a.info.last_seen || a.order - b.order)
    .slice(0, count)
    .map(({ info }) => info);
}
