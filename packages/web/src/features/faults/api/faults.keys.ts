import type { FaultHistoryRequest } from './fault-history.query';
import type { FaultNodesRequest } from './fault-nodes.query';
import type { FaultTypeKey } from '../model/fault-types';

/** Query keys of the fault screens, from one factory so invalidation never misses one. */
export const faultKeys = {
  all: ['faults'] as const,
  catalogues: () => [...faultKeys.all, 'catalogue'] as const,
  catalogue: (type: FaultTypeKey) => [...faultKeys.catalogues(), type] as const,
  /** Everything about the devices that report a fault now: device pages and breakdowns. */
  current: () => [...faultKeys.all, 'current'] as const,
  distributions: () => [...faultKeys.current(), 'distribution'] as const,
  distribution: (type: FaultTypeKey) => [...faultKeys.distributions(), type] as const,
  nodeLists: () => [...faultKeys.current(), 'nodes'] as const,
  nodes: (request: FaultNodesRequest) => [...faultKeys.nodeLists(), request] as const,
  breakdowns: () => [...faultKeys.current(), 'breakdown'] as const,
  breakdown: (type: FaultTypeKey, code: string) => [...faultKeys.breakdowns(), type, code] as const,
  histories: () => [...faultKeys.all, 'history'] as const,
  history: (request: FaultHistoryRequest) => [...faultKeys.histories(), request] as const,
  images: (type: FaultTypeKey, code: string) => [...faultKeys.all, 'images', type, code] as const,
};
