import { LOCATION_TAG_KEY, SERIAL_TAG_KEY } from '@fleetdeck/contract';

/** The value of a `key:value` tag: everything after the first colon (values may hold colons). */
function valueOfTag(tag: string): string {
  const colon = tag.indexOf(':');
  return colon === -1 ? '' : tag.slice(colon + 1).trim();
}

/** The value of the first tag with the given key, or undefined. */
export function tagValue(tags: readonly string[], key: string): string | undefined {
  const prefix = `${key}:`;
  const tag = tags.find((candidate) => candidate.startsWith(prefix));
  return tag === undefined ? undefined : valueOfTag(tag);
}

/**
 * The node's location (spec §3: the first tag is the location). The `location:` tag wins when a
 * node has one; otherwise the first tag's value, unless that first tag is the serial number.
 * The server derives its city filter the same way, so the column matches the Geo Region search.
 */
export function locationOf(tags: readonly string[]): string {
  const byKey = tagValue(tags, LOCATION_TAG_KEY);
  if (byKey !== undefined) return byKey;
  const first = tags[0];
  if (first === undefined || first.startsWith(`${SERIAL_TAG_KEY}:`)) return '';
  return valueOfTag(first);
}

/** The node's serial number: the value of its `esp.serial_num` tag (the second or third tag). */
export function serialOf(tags: readonly string[]): string {
  return tagValue(tags, SERIAL_TAG_KEY) ?? '';
}
