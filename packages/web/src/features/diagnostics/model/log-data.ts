import type { LogByIntervalResponse, LogCounts } from '@fleetdeck/contract';
import { TIMELINE_TYPES, type TimelineBar } from './chart-options';

/** The timeline's bars from `/node/log/byinterval/count`, oldest first. */
export function timelineBars(response: LogByIntervalResponse): TimelineBar[] {
  return response.data.map((counts, i) => ({
    timestamp: response.intervals[i] ?? counts.ts,
    counts: {
      crash: counts.crash,
      reboot: counts.reboot,
      error: counts.error,
      warning: counts.warning,
      event: counts.event,
    },
  }));
}

/** All log entries a count covers. */
export function totalCount(counts: LogCounts): number {
  return TIMELINE_TYPES.reduce((sum, type) => sum + counts[type], 0);
}

/**
 * The free-form data of an error, warning or event as label/value pairs: nested values as
 * compact JSON, so nothing the device sent is hidden or shown as [object Object].
 */
export function dataPairs(data: Readonly<Record<string, unknown>> | undefined): [string, string][] {
  if (!data) return [];
  return Object.entries(data).map(([key, value]) => [
    key,
    typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value),
  ]);
}

/** Register names in the order engineers read them: pc first, then a0…a15 / ra, sp, … by number. */
export function sortedRegisters(registers: Readonly<Record<string, string>>): [string, string][] {
  const rank = (name: string) => {
    const match = /^([a-z]+)(\d+)$/i.exec(name);
    return match ? ([match[1] ?? name, Number(match[2])] as const) : ([name, -1] as const);
  };
  return Object.entries(registers).sort(([a], [b]) => {
    const [pa, na] = rank(a);
    const [pb, nb] = rank(b);
    return pa === pb ? na - nb : pa.localeCompare(pb);
  });
}
