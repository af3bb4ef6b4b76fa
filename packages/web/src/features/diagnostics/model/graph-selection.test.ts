import { MAX_GRAPHS } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import {
  INITIAL_GRAPHS,
  addGraph,
  canAddGraph,
  graphStorageKey,
  knownMetrics,
  parseGraphs,
  removeGraph,
  serializeGraphs,
  updateGraph,
} from './graph-selection';

describe('stored graphs', () => {
  it('are kept per node', () => {
    expect(graphStorageKey('node-1')).not.toBe(graphStorageKey('node-2'));
  });

  it('round-trip through storage', () => {
    const graphs = updateGraph(addGraph(INITIAL_GRAPHS), 2, {
      metricIds: ['heap.free', 'wifi.rssi'],
      rangeHours: 6,
    });
    expect(parseGraphs(serializeGraphs(graphs))).toEqual(graphs);
  });

  it('start as one empty graph when nothing or garbage is stored', () => {
    expect(parseGraphs(null)).toEqual(INITIAL_GRAPHS);
    expect(parseGraphs('{oops')).toEqual(INITIAL_GRAPHS);
    expect(parseGraphs('{"id":1}')).toEqual(INITIAL_GRAPHS);
    expect(parseGraphs('[]')).toEqual(INITIAL_GRAPHS);
  });

  it('drop malformed entries, duplicates, bad ranges and anything past five graphs', () => {
    const raw = JSON.stringify([
      { id: 1, metricIds: ['a', 'a', 3, ''], rangeHours: 99 },
      { id: 1, metricIds: ['b'] },
      { id: 'x' },
      ...Array.from({ length: 8 }, (_, i) => ({ id: i + 2, metricIds: [], rangeHours: 2 })),
    ]);
    const graphs = parseGraphs(raw);
    expect(graphs).toHaveLength(MAX_GRAPHS);
    expect(graphs[0]).toEqual({ id: 1, metricIds: ['a'], rangeHours: 1 });
  });
});

describe('adding and removing graphs', () => {
  it('allows at most five, and none without metadata', () => {
    let graphs = INITIAL_GRAPHS;
    while (canAddGraph(graphs, true)) graphs = addGraph(graphs);
    expect(graphs).toHaveLength(MAX_GRAPHS);
    expect(addGraph(graphs)).toBe(graphs);
    expect(canAddGraph(INITIAL_GRAPHS, false)).toBe(false);
    expect(new Set(graphs.map((g) => g.id)).size).toBe(MAX_GRAPHS);
  });

  it('keeps one graph when the last is removed', () => {
    const two = addGraph(INITIAL_GRAPHS);
    expect(removeGraph(two, 1).map((g) => g.id)).toEqual([2]);
    expect(removeGraph(INITIAL_GRAPHS, 1)).toHaveLength(1);
  });

  it('shows only metrics the node still describes', () => {
    const [graph] = updateGraph(INITIAL_GRAPHS, 1, { metricIds: ['gone', 'heap.free'] });
    expect(graph && knownMetrics(graph, new Set(['heap.free']))).toEqual(['heap.free']);
  });
});
