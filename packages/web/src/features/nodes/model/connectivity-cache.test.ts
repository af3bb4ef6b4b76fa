import type { AdminNodesList, NodeInfo } from '@fleetdeck/contract';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { nodeKeys } from '../api/nodes.keys';
import {
  applyConnectivityUpdates,
  mergeConnectivityUpdate,
  patchCachedNodeLists,
  type ConnectivityUpdate,
} from './connectivity-cache';

function node(id: string, connectivity: NodeInfo['status']['connectivity']): NodeInfo {
  return {
    node_id: id,
    name: id,
    type: 'Refrigerator',
    model: 'R1',
    fw_version: '1.0',
    tags: [],
    node_status:
      connectivity.connected === undefined
        ? 'not_activated'
        : connectivity.connected
          ? 'online'
          : 'offline',
    status: { connectivity },
    registration_timestamp: 1,
    is_claimed: false,
  };
}

function page(...nodes: NodeInfo[]): AdminNodesList {
  return { nodes: nodes.map((n) => n.node_id), node_info: nodes, total: nodes.length };
}

const updates = (...list: ConnectivityUpdate[]) => new Map(list.map((u) => [u.node_id, u]));

describe('applyConnectivityUpdates', () => {
  it('turns a node green when it connects and red when it leaves, in place', () => {
    const before = page(node('a', { connected: false, timestamp: 100 }), node('b', {}));
    const after = applyConnectivityUpdates(
      before,
      updates(
        { node_id: 'a', connected: true, timestamp: 200 },
        { node_id: 'b', connected: false, timestamp: 300 },
      ),
    );
    expect(after.node_info.map((n) => [n.node_id, n.status.connectivity, n.node_status])).toEqual([
      ['a', { connected: true, timestamp: 200 }, 'online'],
      ['b', { connected: false, timestamp: 300 }, 'offline'],
    ]);
    expect(before.node_info[0]?.status.connectivity.connected).toBe(false);
  });

  it('keeps the order and the rows even when a node no longer matches a status filter', () => {
    const before = page(
      node('a', { connected: true, timestamp: 1 }),
      node('b', { connected: true, timestamp: 1 }),
    );
    const after = applyConnectivityUpdates(
      before,
      updates({ node_id: 'a', connected: false, timestamp: 2 }),
    );
    expect(after.node_info.map((n) => n.node_id)).toEqual(['a', 'b']);
    expect(after.total).toBe(2);
  });

  it('returns the same page when no node on it changed, so nothing re-renders', () => {
    const before = page(node('a', { connected: true, timestamp: 10 }));
    expect(
      applyConnectivityUpdates(
        before,
        updates({ node_id: 'zzz', connected: false, timestamp: 11 }),
      ),
    ).toBe(before);
    expect(
      applyConnectivityUpdates(before, updates({ node_id: 'a', connected: true, timestamp: 10 })),
    ).toBe(before);
  });

  it('ignores an event older than the status on screen', () => {
    const before = page(node('a', { connected: true, timestamp: 500 }));
    expect(
      applyConnectivityUpdates(before, updates({ node_id: 'a', connected: false, timestamp: 400 })),
    ).toBe(before);
  });

  it('keeps untouched rows as the same objects', () => {
    const untouched = node('b', { connected: true, timestamp: 1 });
    const after = applyConnectivityUpdates(
      page(node('a', {}), untouched),
      updates({ node_id: 'a', connected: true, timestamp: 9 }),
    );
    expect(after.node_info[1]).toBe(untouched);
  });
});

describe('mergeConnectivityUpdate', () => {
  it('keeps the newest update per node', () => {
    const pending = new Map<string, ConnectivityUpdate>();
    mergeConnectivityUpdate(pending, { node_id: 'a', connected: true, timestamp: 2 });
    mergeConnectivityUpdate(pending, { node_id: 'a', connected: false, timestamp: 1 });
    mergeConnectivityUpdate(pending, { node_id: 'b', connected: false, timestamp: 5 });
    expect(pending.get('a')).toEqual({ node_id: 'a', connected: true, timestamp: 2 });
    mergeConnectivityUpdate(pending, { node_id: 'a', connected: false, timestamp: 3 });
    expect(pending.get('a')?.connected).toBe(false);
    expect(pending.size).toBe(2);
  });
});

describe('patchCachedNodeLists', () => {
  it('patches every cached page of every list without refetching or refreshing their age', () => {
    const client = new QueryClient();
    const first = nodeKeys.list({ num_records: 10 });
    const online = nodeKeys.list({ num_records: 10, node_status: 'online' });
    const other = ['auth', 'current-user'];
    client.setQueryData(first, page(node('a', { connected: false, timestamp: 1 })), {
      updatedAt: 1_000,
    });
    client.setQueryData(
      online,
      page(node('a', { connected: false, timestamp: 1 }), node('b', {})),
      {
        updatedAt: 2_000,
      },
    );
    client.setQueryData(other, { node_info: 'untouched' });

    patchCachedNodeLists(client, updates({ node_id: 'a', connected: true, timestamp: 5 }));

    for (const key of [first, online]) {
      const data = client.getQueryData<AdminNodesList>(key);
      expect(data?.node_info[0]?.status.connectivity).toEqual({ connected: true, timestamp: 5 });
    }
    expect(client.getQueryState(first)?.dataUpdatedAt).toBe(1_000);
    expect(client.getQueryState(online)?.dataUpdatedAt).toBe(2_000);
    expect(client.getQueryData(other)).toEqual({ node_info: 'untouched' });
    expect(client.isFetching()).toBe(0);
  });

  it('leaves pages without the node as they were', () => {
    const client = new QueryClient();
    const key = nodeKeys.list({ num_records: 5 });
    const before = page(node('x', { connected: true, timestamp: 1 }));
    client.setQueryData(key, before);
    patchCachedNodeLists(client, updates({ node_id: 'y', connected: false, timestamp: 2 }));
    expect(client.getQueryData(key)).toBe(before);
  });
});
