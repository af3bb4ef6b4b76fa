/**
 * Firmware version order for downgrade protection. Versions are dotted numbers with an optional
 * leading `v` and an optional `-pre-release` (`1.10.0` > `1.9.3`, `1.5.0-rc1` < `1.5.0`,
 * `1.5` = `1.5.0`). Anything else still gets a stable order (numeric-aware text comparison), so a
 * node never crashes on an odd version string.
 */

/** Negative when `a` is older than `b`, 0 when they are the same version, positive when newer. */
export function compareFirmwareVersions(a: string, b: string): number {
  const left = splitVersion(a);
  const right = splitVersion(b);
  const length = Math.max(left.core.length, right.core.length);
  for (let i = 0; i < length; i++) {
    const difference = compareSegment(left.core[i] ?? '0', right.core[i] ?? '0');
    if (difference !== 0) return difference;
  }
  // A release is newer than any of its pre-releases.
  if (left.pre === right.pre) return 0;
  if (left.pre === undefined) return 1;
  if (right.pre === undefined) return -1;
  return Math.sign(left.pre.localeCompare(right.pre, 'en', { numeric: true }));
}

function splitVersion(version: string): { core: string[]; pre: string | undefined } {
  const text = version.trim().replace(/^v/i, '').split('+')[0] ?? '';
  const dash = text.indexOf('-');
  const core = dash < 0 ? text : text.slice(0, dash);
  return { core: core.split('.'), pre: dash < 0 ? undefined : text.slice(dash + 1) };
}

function compareSegment(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return Math.sign(Number(a) - Number(b));
  return Math.sign(a.localeCompare(b, 'en', { numeric: true }));
}
