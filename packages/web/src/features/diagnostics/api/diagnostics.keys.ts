import type { LogWindowRequest } from './log-count.query';
import type { LogListRequest } from './log-list.query';
import type { MetricListRequest } from './metric-list.query';

/** Query keys of the diagnostics screens, from one factory so invalidation never misses one. */
export const diagnosticsKeys = {
  all: ['diagnostics'] as const,
  /** Everything shown about one node (Refresh invalidates this). */
  node: (nodeId: string) => [...diagnosticsKeys.all, 'node', nodeId] as const,
  info: (nodeId: string) => [...diagnosticsKeys.node(nodeId), 'info'] as const,
  logCount: (request: LogWindowRequest) =>
    [...diagnosticsKeys.node(request.node_id), 'log-count', request] as const,
  logIntervals: (request: LogWindowRequest) =>
    [...diagnosticsKeys.node(request.node_id), 'log-intervals', request] as const,
  logList: (request: LogListRequest) =>
    [...diagnosticsKeys.node(request.node_id), 'log-list', request] as const,
  metricMeta: (nodeId: string) => [...diagnosticsKeys.node(nodeId), 'metric-meta'] as const,
  metricList: (request: MetricListRequest) =>
    [...diagnosticsKeys.node(request.node_id), 'metric-list', request] as const,
  paramMeta: (nodeId: string) => [...diagnosticsKeys.node(nodeId), 'param-meta'] as const,
  paramList: (nodeId: string) => [...diagnosticsKeys.node(nodeId), 'param-list'] as const,
  /** The Multigraph page's choice of recently active nodes. */
  activeNodes: () => [...diagnosticsKeys.all, 'active-nodes'] as const,
};
