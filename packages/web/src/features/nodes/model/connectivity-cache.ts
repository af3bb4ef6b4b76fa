import type { AdminNodesList, NodeConnectivityEvent, NodeInfo } from '@fleetdeck/contract';
import type { QueryClient } from '@tanstack/react-query';
import { nodeKeys } from '../api/nodes.keys';

/** What a `node.connectivity` event says about one node. */
export type ConnectivityUpdate = Pick<NodeConnectivityEvent, 'node_id' | 'connected' | 'timestamp'>;

/**
 * Adds an event to the updates waiting to be applied, keeping only the newest per node, so a
 * node that flaps ten times between two flushes is patched once, to its last state.
 */
export function mergeConnectivityUpdate(
  pending: Map<string, ConnectivityUpdate>,
  update: ConnectivityUpdate,
): void {
  const held = pending.get(update.node_id);
  if (held === undefined || update.timestamp >= held.timestamp) pending.set(update.node_id, update);
}

function patchNode(node: NodeInfo, update: ConnectivityUpdate): NodeInfo {
  const current = node.status.connectivity;
  // An event older than what the list already shows (a late delivery) must not undo it.
  if (current.timestamp !== undefined && update.timestamp < current.timestamp) return node;
  if (current.connected === update.connected && current.timestamp === update.timestamp) return node;
  return {
    ...node,
    node_status: update.connected ? 'online' : 'offline',
    status: {
      ...node.status,
      connectivity: { connected: update.connected, timestamp: update.timestamp },
    },
    laststatusupdate_timestamp: Math.floor(update.timestamp / 1000),
  };
}

/**
 * One cached page with the updates applied in place: same rows, same order (the list never
 * jumps, even when a node no longer matches a status filter), new status where it changed.
 * Returns the page itself when nothing changed, so nothing re-renders.
 */
export function applyConnectivityUpdates(
  page: AdminNodesList,
  updates: ReadonlyMap<string, ConnectivityUpdate>,
): AdminNodesList {
  let changed = false;
  const nodeInfo = page.node_info.map((node) => {
    const update = updates.get(node.node_id);
    if (update === undefined) return node;
    const patched = patchNode(node, update);
    if (patched !== node) changed = true;
    return patched;
  });
  return changed ? { ...page, node_info: nodeInfo } : page;
}

/**
 * Patches every cached page of every node list without refetching. Each page keeps its own
 * fetch time, so a live status change does not pass the rest of the page off as fresh.
 */
export function patchCachedNodeLists(
  queryClient: QueryClient,
  updates: ReadonlyMap<string, ConnectivityUpdate>,
): void {
  if (updates.size === 0) return;
  for (const query of queryClient.getQueryCache().findAll({ queryKey: nodeKeys.lists() })) {
    queryClient.setQueryData<AdminNodesList>(
      query.queryKey,
      // Returning undefined leaves a page untouched (no notification, no new fetch time).
      (page) => {
        if (page === undefined) return undefined;
        const next = applyConnectivityUpdates(page, updates);
        return next === page ? undefined : next;
      },
      { updatedAt: query.state.dataUpdatedAt },
    );
  }
}
