import { GEO_REGIONS, LOCATION_TAG_KEY, SERIAL_TAG_KEY } from '@fleetdeck/contract';
import { cityKey, serialKey } from '../../repositories/node.repository.js';

/** The value of the first tag with the given key. */
export function tagValue(tags: readonly string[], key: string): string | undefined {
  const prefix = `${key}:`;
  return tags.find((tag) => tag.startsWith(prefix))?.slice(prefix.length);
}

/**
 * A node's location as its tags spell it. The location is the first tag (spec §3): by key
 * `location:` when present, else the value of the first tag unless that is the serial.
 */
export function locationOf(tags: readonly string[]): string | undefined {
  const city = tagValue(tags, LOCATION_TAG_KEY);
  if (city !== undefined) return city;
  const first = tags[0];
  if (first !== undefined && !first.startsWith(`${SERIAL_TAG_KEY}:`))
    return first.slice(first.indexOf(':') + 1);
  return undefined;
}

/** The indexed city and serial keys of a tag list (the city key is the location lower-cased). */
export function derivedKeys(tags: readonly string[]): {
  city: string | null;
  serial: string | null;
} {
  const serial = tagValue(tags, SERIAL_TAG_KEY);
  const city = locationOf(tags);
  return { city: city ? cityKey(city) : null, serial: serial ? serialKey(serial) : null };
}

/** The tags stored in `nodes.tags` (a JSON array); none when the text is not one. */
export function parseStoredTags(json: string | null | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(json ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter((tag): tag is string => typeof tag === 'string')
      : [];
  } catch {
    return [];
  }
}

const REGION_BY_KEY = new Map<string, string>(
  GEO_REGIONS.map((region) => [cityKey(region), region]),
);

/**
 * How a city is shown, given its indexed key (lower case, what lists group and filter by) and how
 * a node's location tag spells it: as the spec's region list spells it (§9: Mumbai, Kolkata, Pune,
 * Delhi, banglore, Other) when it is one of those, else as the tag spells it, else the key.
 */
export function cityLabel(key: string | null, spelling?: string): string {
  if (!key) return '';
  const region = REGION_BY_KEY.get(key);
  if (region !== undefined) return region;
  const trimmed = spelling?.trim();
  return trimmed && cityKey(trimmed) === key ? trimmed : key;
}
