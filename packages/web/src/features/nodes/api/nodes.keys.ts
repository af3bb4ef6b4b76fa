import type { AdminNodesRequest } from './admin-nodes.query';

/** Query keys of the nodes feature, from one factory so patching and invalidation never miss one. */
export const nodeKeys = {
  all: ['nodes'] as const,
  /** Every page of every admin node list (the live status stream patches these). */
  lists: () => [...nodeKeys.all, 'admin-list'] as const,
  list: (request: AdminNodesRequest) => [...nodeKeys.lists(), request] as const,
};
