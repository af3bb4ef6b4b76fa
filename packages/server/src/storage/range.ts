import type { BlobRange } from './blob-store.js';

/**
 * Parses a single-range `Range` header (RFC 9110 §14.2) against a blob of `size` bytes:
 * undefined when absent or not a bytes range (send the whole blob), 'unsatisfiable' for a range
 * outside the blob (416). Multi-range requests get the whole blob, which RFC 9110 allows.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): BlobRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, startText = '', endText = ''] = match;
  if (startText === '' && endText === '') return undefined;
  if (startText === '') {
    const suffix = Number(endText);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(startText);
  const end = endText === '' ? size - 1 : Math.min(Number(endText), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
