import { GRAPH_RANGE_DEFAULT_HOURS, MAX_GRAPHS } from '@fleetdeck/contract';
import { toGraphRangeHours } from './graph-range';

/**
 * The Graphs tab's graphs (access §2): at most 5, each with the metrics chosen for it and its
 * range. The selection is remembered in localStorage per node, so a reload or a later visit to
 * the same node shows the same graphs. Storage content is untrusted and read defensively.
 */
export interface GraphConfig {
  /** Stable within a node's list (React key, test id). */
  id: number;
  metricIds: readonly string[];
  rangeHours: number;
}

const STORAGE_PREFIX = 'fleetdeck.diagnostics.graphs.';

/** The localStorage key of a node's graphs. */
export function graphStorageKey(nodeId: string): string {
  return `${STORAGE_PREFIX}${nodeId}`;
}

export function newGraph(id: number): GraphConfig {
  return { id, metricIds: [], rangeHours: GRAPH_RANGE_DEFAULT_HOURS };
}

/** A node nobody graphed yet shows one empty graph. */
export const INITIAL_GRAPHS: readonly GraphConfig[] = [newGraph(1)];

function toGraph(value: unknown): GraphConfig | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const id = record['id'];
  const metricIds = record['metricIds'];
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1) return null;
  return {
    id,
    metricIds: Array.isArray(metricIds)
      ? [...new Set(metricIds.filter((m): m is string => typeof m === 'string' && m !== ''))]
      : [],
    rangeHours: toGraphRangeHours(record['rangeHours']),
  };
}

/** Parses stored graphs; anything unreadable gives the initial single graph. */
export function parseGraphs(raw: string | null): readonly GraphConfig[] {
  if (raw === null) return INITIAL_GRAPHS;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return INITIAL_GRAPHS;
  }
  if (!Array.isArray(parsed)) return INITIAL_GRAPHS;
  const seen = new Set<number>();
  const graphs: GraphConfig[] = [];
  for (const item of parsed) {
    const graph = toGraph(item);
    if (graph === null || seen.has(graph.id)) continue;
    seen.add(graph.id);
    graphs.push(graph);
    if (graphs.length === MAX_GRAPHS) break;
  }
  return graphs.length === 0 ? INITIAL_GRAPHS : graphs;
}

export function serializeGraphs(graphs: readonly GraphConfig[]): string {
  return JSON.stringify(graphs.slice(0, MAX_GRAPHS));
}

/** 'Add Graph' is disabled at 5 graphs or when the node has no metric metadata. */
export function canAddGraph(graphs: readonly GraphConfig[], hasMetadata: boolean): boolean {
  return hasMetadata && graphs.length < MAX_GRAPHS;
}

export function addGraph(graphs: readonly GraphConfig[]): readonly GraphConfig[] {
  if (graphs.length >= MAX_GRAPHS) return graphs;
  const id = graphs.reduce((max, g) => Math.max(max, g.id), 0) + 1;
  return [...graphs, newGraph(id)];
}

/** Removing the last graph leaves one empty graph, so the tab never goes blank. */
export function removeGraph(graphs: readonly GraphConfig[], id: number): readonly GraphConfig[] {
  const rest = graphs.filter((g) => g.id !== id);
  return rest.length === 0 ? [newGraph(1)] : rest;
}

export function updateGraph(
  graphs: readonly GraphConfig[],
  id: number,
  change: Partial<Omit<GraphConfig, 'id'>>,
): readonly GraphConfig[] {
  return graphs.map((g) =>
    g.id === id
      ? {
          ...g,
          ...(change.metricIds ? { metricIds: [...new Set(change.metricIds)] } : {}),
          ...(change.rangeHours !== undefined
            ? { rangeHours: toGraphRangeHours(change.rangeHours) }
            : {}),
        }
      : g,
  );
}

/** Metrics remembered for a graph that the node no longer describes are dropped from view. */
export function knownMetrics(
  graph: GraphConfig,
  available: ReadonlySet<string>,
): readonly string[] {
  return graph.metricIds.filter((id) => available.has(id));
}
