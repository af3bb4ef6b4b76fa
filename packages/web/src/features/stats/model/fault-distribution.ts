import type { ChartData } from './chart-options';

/** The most codes a fault chart lists before folding the rest into one bar. */
export const FAULT_TOP_CODES = 8;

export interface FaultChart {
  data: ChartData;
  /** Devices reporting any fault now. */
  total: number;
}

/**
 * A fault-code distribution as chart bars, most frequent first: codes shown as the appliance's
 * display code when the catalogue knows them (the operator reads 'E5', the node reports '5'),
 * the tail beyond `top` codes summed into one 'Other' bar.
 */
export function faultChartData(
  distribution: readonly { value: string; count: number }[],
  options: {
    name: string;
    color: string;
    otherLabel: string;
    displayCodes?: ReadonlyMap<string, string> | undefined;
    top?: number;
    /** Devices with a fault over every page; any not in `distribution` count as Other. */
    totalNodes?: number;
  },
): FaultChart {
  const top = options.top ?? FAULT_TOP_CODES;
  const byCode = new Map<string, number>();
  for (const { value, count } of distribution) {
    if (count <= 0) continue;
    const code = options.displayCodes?.get(value) ?? value;
    byCode.set(code, (byCode.get(code) ?? 0) + count);
  }
  const sorted = [...byCode.entries()].sort(
    (a, b) => b[1] - a[1] || a[0].localeCompare(b[0], undefined, { numeric: true }),
  );
  // Folding a single code into 'Other' would hide it for nothing.
  const shown = sorted.length > top + 1 ? sorted.slice(0, top) : sorted;
  const listed = sorted.reduce((sum, [, count]) => sum + count, 0);
  const unlisted = Math.max(0, (options.totalNodes ?? listed) - listed);
  const rest = sorted.slice(shown.length).reduce((sum, [, count]) => sum + count, 0) + unlisted;
  const bars = rest > 0 ? [...shown, [options.otherLabel, rest] as const] : shown;
  return {
    data: {
      categories: bars.map(([code]) => code),
      series: [
        { name: options.name, color: options.color, kind: 'bar', values: bars.map(([, n]) => n) },
      ],
    },
    total: listed + unlisted,
  };
}

/** err_code → disp_code of a fault catalogue. */
export function displayCodesOf(
  catalogue: readonly { err_code: string; disp_code: string }[] | undefined,
): Map<string, string> | undefined {
  if (!catalogue) return undefined;
  return new Map(catalogue.map((entry) => [entry.err_code, entry.disp_code]));
}
