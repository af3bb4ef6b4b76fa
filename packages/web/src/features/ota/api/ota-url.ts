/** An OTA API URL: the path and its query, leaving out values that are undefined or empty. */
export function otaUrl(path: string, params: Record<string, string | number | undefined>): string {
  const pairs: [string, string][] = [];
  for (const key of Object.keys(params)) {
    const value = params[key];
    if (value === undefined || value === '') continue;
    pairs.push([key, String(value)]);
  }
  return pairs.length === 0 ? path : `${path}?${new URLSearchParams(pairs).toString()}`;
}
