import type { MetricMeta, NodeDiagnosticsInfo } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { glanceMetrics, mostRecentlyActive } from './active-nodes';

const metric = (id: string, path?: string): MetricMeta => ({
  id,
  label: id,
  unit: '',
  storageType: 'Metric',
  ...(path ? { path } : {}),
});
const info = (node_id: string, last_seen: number): NodeDiagnosticsInfo => ({
  node_id,
  project: 'washer',
  app_version: '3.1.4',
  last_seen,
});

describe('the Multigraph page', () => {
  it('shows the nodes heard from last', () => {
    const picked = mostRecentlyActive(
      [info('a', 10), info('b', 30), info('c', 20), info('d', 30)],
      3,
    );
    expect(picked.map((i) => i.node_id)).toEqual(['b', 'd', 'c']);
  });

  it('puts the appliance metrics before heap and Wi-Fi', () => {
    const metrics = [
      metric('heap.free'),
      metric('wifi.rssi', 'Wi-Fi.Station'),
      metric('drum.speed', 'washer.drum'),
      metric('motor.temp'),
    ];
    expect(glanceMetrics(metrics, 3).map((m) => m.id)).toEqual([
      'drum.speed',
      'motor.temp',
      'heap.free',
    ]);
    expect(glanceMetrics([], 3)).toEqual([]);
  });
});
