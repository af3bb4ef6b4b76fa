import { LOCATION_TAG_KEY, SERIAL_TAG_KEY } from '@fleetdeck/contract';
import { cityKey, serialKey } from '../../repositories/node.repository.js';

/** The value of the first tag with the given key. */
export function tagValue(tags: readonly string[], key: string): string | undefined {
  const prefix = `${key}:`;
  return tags.find((tag) => tag.startsWith(prefix))?.slice(prefix.length);
}

/**
 * The indexed city and serial keys of a tag list. The location is the first tag (spec §3): by key
 * `location:` when present, else the value of the first tag unless that is the serial.
 */
export function derivedKeys(tags: readonly string[]): {
  city: string | null;
  serial: string | null;
} {
  const serial = tagValue(tags, SERIAL_TAG_KEY);
  let city = tagValue(tags, LOCATION_TAG_KEY);
  const first = tags[0];
  if (city === undefined && first !== undefined && !first.startsWith(`${SERIAL_TAG_KEY}:`)) {
    city = first.slice(first.indexOf(':') + 1);
  }
  return { city: city ? cityKey(city) : null, serial: serial ? serialKey(serial) : null };
}
