import type { NodeInfo } from '@fleetdeck/contract';
import { nodeCsvHeader, nodeCsvRecord } from './csv';

/** One page of the admin node list, as far as the download needs it. */
export interface NodeListPage {
  node_info: readonly NodeInfo[];
  total: number;
  next_id?: string | undefined;
}

/** Loads the page that starts at `startId` (undefined: the first page). */
export type FetchNodeListPage = (
  startId: string | undefined,
  signal: AbortSignal,
) => Promise<NodeListPage>;

export interface CsvProgress {
  /** Nodes written so far. */
  done: number;
  /** Nodes the server says match (never less than `done`). */
  total: number;
}

export interface NodeCsv {
  /** The file's parts, BOM and header first; hand them to `new Blob(parts)`. */
  parts: string[];
  /** Number of node records. */
  count: number;
}

/** Raised when the server hands out a cursor it already gave, which would loop for ever. */
export class RepeatedCursorError extends Error {
  constructor(cursor: string) {
    super(`The server repeated the page cursor ${cursor}`);
    this.name = 'RepeatedCursorError';
  }
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason ?? new DOMException('Aborted', 'AbortError');
}

/**
 * Builds the Download All CSV file (access §7): follows `next_id` from the first page until the
 * server leaves it out, one page at a time, reporting progress after each page. The text of each
 * page is written as it arrives, so what is kept is the CSV itself, not the node objects.
 * Aborting the signal stops between pages (and cancels the request in flight).
 */
export async function downloadNodesCsv(
  fetchPage: FetchNodeListPage,
  options: { signal: AbortSignal; onProgress?: (progress: CsvProgress) => void },
): Promise<NodeCsv> {
  const { signal, onProgress } = options;
  const parts = [nodeCsvHeader()];
  const seen = new Set<string>();
  let count = 0;
  let cursor: string | undefined;

  do {
    throwIfAborted(signal);
    const page = await fetchPage(cursor, signal);
    throwIfAborted(signal);
    let chunk = '';
    for (const node of page.node_info) chunk += nodeCsvRecord(node);
    if (chunk !== '') parts.push(chunk);
    count += page.node_info.length;
    onProgress?.({ done: count, total: Math.max(page.total, count) });

    cursor = page.next_id === '' ? undefined : page.next_id;
    if (cursor !== undefined) {
      if (seen.has(cursor)) throw new RepeatedCursorError(cursor);
      seen.add(cursor);
    }
  } while (cursor !== undefined);

  return { parts, count };
}

/** The file name: the report and the day, e.g. `fleetdeck-devices-2025-03-14.csv`. */
export function nodeCsvFileName(now: Date): string {
  return `fleetdeck-devices-${now.toISOString().slice(0, 10)}.csv`;
}
