/** GET: the statistics series of a range (access §7 Statistics and faults). */
export const STATS_INFO_PATH = '/v1/admin/stats_info';
/** GET: the dashboard's "now" figures in one cheap call. */
export const STATS_SUMMARY_PATH = '/v1/admin/stats_info/summary';

/** A path with its query string. */
export function withQuery(path: string, params: Readonly<Record<string, string | number>>): string {
  const query = new URLSearchParams(
    Object.entries(params).map(([key, value]) => [key, String(value)]),
  ).toString();
  return query ? `${path}?${query}` : path;
}
