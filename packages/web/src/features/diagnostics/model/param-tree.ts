import type {
  ParamSeries,
  ParamTreeNode,
  ParamValuePoint,
  ParamValueScalar,
} from '@fleetdeck/contract';

/**
 * The Variables tab (access §2, §3): the metadata tree of folders and params joined with each
 * param's latest value (`values.data[0]`) and its time. Params with values that the tree does not
 * describe are still shown, after the tree, so nothing the device reported is hidden.
 */
export interface VariableRow {
  /** Unique within the tree (folder path or param id). */
  key: string;
  depth: number;
  label: string;
  kind: 'folder' | 'param';
  id?: string | undefined;
  value?: string | undefined;
  ts?: number | undefined;
}

/** A value as text: booleans and numbers as written, strings as they are. */
export function formatParamValue(value: ParamValueScalar): string {
  if (typeof value === 'number')
    return Number.isInteger(value) ? String(value) : String(Math.round(value * 1000) / 1000);
  return String(value);
}

function latest(points: readonly ParamValuePoint[] | undefined): ParamValuePoint | undefined {
  if (!points || points.length === 0) return undefined;
  // The API sends newest first; pick the newest anyway, should a sender not.
  return points.reduce((best, p) => (p.ts > best.ts ? p : best));
}

export function variableRows(
  tree: readonly ParamTreeNode[],
  series: readonly ParamSeries[],
): VariableRow[] {
  const byId = new Map(series.map((s) => [s.id, s]));
  const shown = new Set<string>();
  const rows: VariableRow[] = [];

  const walk = (nodes: readonly ParamTreeNode[], depth: number, path: string) => {
    for (const node of nodes) {
      if (node.type === 'folder') {
        const key = `${path}/${node.label}`;
        rows.push({ key, depth, label: node.label, kind: 'folder' });
        walk(node.children ?? [], depth + 1, key);
        continue;
      }
      const id = node.id ?? `${path}/${node.label}`;
      if (shown.has(id)) continue;
      shown.add(id);
      const point = latest(byId.get(id)?.values.data ?? node.values?.data);
      rows.push({
        key: id,
        depth,
        label: node.label,
        kind: 'param',
        id: node.id,
        value: point === undefined ? undefined : formatParamValue(point.val),
        ts: point?.ts,
      });
    }
  };
  walk(tree, 0, '');

  for (const s of series) {
    if (shown.has(s.id)) continue;
    const point = latest(s.values.data);
    rows.push({
      key: s.id,
      depth: 0,
      label: s.label || s.id,
      kind: 'param',
      id: s.id,
      value: point === undefined ? undefined : formatParamValue(point.val),
      ts: point?.ts,
    });
  }
  return rows;
}
