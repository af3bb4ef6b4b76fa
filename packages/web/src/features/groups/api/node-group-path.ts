/** GET/POST/PUT/DELETE /v1/admin/node_group (not yet in the contract's API_PATHS). */
export const NODE_GROUP_PATH = '/v1/admin/node_group';
export const MATCH_COUNT_PATH = '/v1/admin/node_group/match_count';

/** The URL of a node_group call; undefined and empty values are left out, order is fixed. */
export function nodeGroupUrl(
  params: Record<string, string | number | undefined>,
  path: string = NODE_GROUP_PATH,
): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const query = search.toString();
  return query === '' ? path : `${path}?${query}`;
}
