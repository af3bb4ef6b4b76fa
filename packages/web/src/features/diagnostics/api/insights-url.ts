/** A query value; an array repeats the key (`id=a&id=b`), undefined and '' are left out. */
export type InsightsParam = string | number | readonly string[] | undefined;

/** An insights URL: the path and its query in the given key order. */
export function insightsUrl(path: string, params: Readonly<Record<string, InsightsParam>>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === '') continue;
    if (typeof value === 'object') for (const item of value) query.append(key, item);
    else query.append(key, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
