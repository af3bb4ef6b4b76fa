/** One value of a breakdown dimension and how many affected devices have it. */
export interface BreakdownCount {
  value: string;
  count: number;
}

/** A bar of the breakdown panel. */
export interface BreakdownRow {
  /** The value shown (undefined for the "N more" row that folds the rest together). */
  value: string | undefined;
  count: number;
  /** Share of the affected devices, 0 … 1. */
  share: number;
  /** For the folded row: how many values it holds. */
  folded?: number;
}

/** Bars shown per dimension before the rest are folded into one row. */
export const BREAKDOWN_MAX_ROWS = 5;

/**
 * The rows of one dimension: largest first (ties by value, so the order is stable), at most
 * `maxRows` bars, the rest folded into one "N more" row so the panel never grows with the fleet.
 * Shares are of `total`, the number of affected devices; when the server gives none (or a total
 * below the sum) the sum of the counts stands in.
 */
export function breakdownRows(
  counts: readonly BreakdownCount[],
  total?: number,
  maxRows: number = BREAKDOWN_MAX_ROWS,
): BreakdownRow[] {
  const merged = new Map<string, number>();
  for (const { value, count } of counts) {
    if (!Number.isFinite(count) || count <= 0) continue;
    merged.set(value, (merged.get(value) ?? 0) + count);
  }
  const sorted = [...merged]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
  const sum = sorted.reduce((acc, row) => acc + row.count, 0);
  const base = total !== undefined && Number.isFinite(total) && total >= sum ? total : sum;
  if (base === 0) return [];
  const share = (count: number) => count / base;
  // Folding a single value into "1 more" would hide it for nothing.
  const keep = sorted.length > maxRows ? Math.max(1, maxRows - 1) : sorted.length;
  const rows: BreakdownRow[] = sorted
    .slice(0, keep)
    .map((row) => ({ value: row.value, count: row.count, share: share(row.count) }));
  const rest = sorted.slice(keep);
  if (rest.length > 0) {
    const count = rest.reduce((acc, row) => acc + row.count, 0);
    rows.push({ value: undefined, count, share: share(count), folded: rest.length });
  }
  return rows;
}

/** A share as a whole percentage; a non-zero share below 1 % reads '<1%', never '0%'. */
export function formatShare(share: number): string {
  if (!Number.isFinite(share) || share <= 0) return '0%';
  if (share < 0.01) return '<1%';
  if (share > 0.99 && share < 1) return '>99%';
  return `${Math.round(share * 100)}%`;
}

/** A dimension worth calling out: one value holds most of the affected devices. */
export interface BreakdownInsight {
  value: string;
  share: number;
}

/** Fewer affected devices than this say nothing about a cause. */
export const INSIGHT_MIN_DEVICES = 5;
/** One value must hold at least this share of the affected devices to be called out. */
export const INSIGHT_MIN_SHARE = 0.6;

/**
 * The value that stands out in one dimension, e.g. "90 % of refrigerators with E5 run fw 2.1.0":
 * the largest bar when it holds at least 60 % of at least 5 devices.
 */
export function standOut(
  rows: readonly BreakdownRow[],
  minShare: number = INSIGHT_MIN_SHARE,
  minDevices: number = INSIGHT_MIN_DEVICES,
): BreakdownInsight | undefined {
  const total = rows.reduce((acc, row) => acc + row.count, 0);
  const top = rows[0];
  if (top?.value === undefined || total < minDevices) return undefined;
  if (top.share < minShare) return undefined;
  return { value: top.value, share: top.share };
}

/**
 * The one call-out a panel shows: the dimension whose top value stands out most (the first
 * dimension wins a tie, so firmware, listed first, leads). One call-out, not three, so that a
 * small or evenly spread fault does not light the panel up.
 */
export function strongestStandOut<K extends string>(
  dimensions: readonly { key: K; insight: BreakdownInsight | undefined }[],
): { key: K; insight: BreakdownInsight } | undefined {
  let best: { key: K; insight: BreakdownInsight } | undefined;
  for (const { key, insight } of dimensions) {
    if (insight === undefined) continue;
    if (best === undefined || insight.share > best.insight.share) best = { key, insight };
  }
  return best;
}
