import { SEARCH_MAX_LENGTH } from '@fleetdeck/contract';

/**
 * What a search box asks the server for (spec §5 Searches): surrounding spaces dropped, at most
 * 64 characters, and nothing at all for whitespace-only or empty input, so clearing the box
 * restores the full list. The limit counts UTF-16 units like the server's check; a cut never
 * leaves half of a surrogate pair behind.
 */
export function normaliseSearch(
  raw: string,
  maxLength: number = SEARCH_MAX_LENGTH,
): string | undefined {
  const trimmed = raw.trim();
  if (trimmed === '') return undefined;
  if (trimmed.length <= maxLength) return trimmed;
  let cut = trimmed.slice(0, maxLength);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return cut.trimEnd();
}
