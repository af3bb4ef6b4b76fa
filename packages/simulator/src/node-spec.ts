import {
  GEO_REGIONS,
  LOCATION_TAG_KEY,
  SERIAL_TAG_KEY,
  type GeoRegion,
  type NodeRegistration,
  type NodeType,
} from '@fleetdeck/contract';
import { APPLIANCE_PROFILES } from './appliance-profiles.js';
import { deriveSeed, Rng, stableRoll } from './prng.js';

/** Who a simulated node is: everything registration needs, generated from the seed. */
export interface NodeSpec {
  node_id: string;
  name: string;
  type: NodeType;
  model: string;
  fw_version: string;
  /** `location:<City>` first, `esp.serial_num:<serial>` second (the order the server relies on). */
  tags: string[];
}

const TYPE_MIX: readonly (readonly [NodeType, number])[] = [
  ['Air Conditioner', 45],
  ['Refrigerator', 30],
  ['Washing Machine', 25],
];

/** How the fleet spreads over the geo regions; typed so that every region of the contract occurs. */
const CITY_WEIGHTS = {
  Mumbai: 25,
  Delhi: 22,
  banglore: 18,
  Pune: 14,
  Kolkata: 13,
  Other: 8,
} as const satisfies Record<GeoRegion, number>;
const CITY_MIX = GEO_REGIONS.map((region) => [region, CITY_WEIGHTS[region]] as const);

/**
 * The spec of node `index` of the fleet made from `seed`. The same seed and index give the same
 * node on every run, whatever the fleet size. `taken` holds ids already in use: a clash (1 in
 * 2^48) draws again from the node's own sequence, so the answer stays deterministic.
 */
export function nodeSpecAt(seed: number, index: number, taken: ReadonlySet<string>): NodeSpec {
  const rng = new Rng(deriveSeed(seed, index));
  const type = rng.weighted(TYPE_MIX);
  const profile = APPLIANCE_PROFILES[type];
  const city = rng.weighted(CITY_MIX);
  const model = rng.weighted(profile.models);
  const fwVersion = rng.weighted(profile.fwVersions);
  const room = rng.pick(profile.rooms);
  // Serials: a year-week of manufacture, then a sequence that is unique within the fleet.
  const yearWeek = `${rng.int(22, 25)}${String(rng.int(1, 52)).padStart(2, '0')}`;
  const sequence = String((deriveSeed(seed, 0x5e71a1) % 500_000) + index).padStart(7, '0');
  let nodeId = rng.hex(12);
  while (taken.has(nodeId)) nodeId = rng.hex(12);
  return {
    node_id: nodeId,
    name: `${room} ${profile.short} ${nodeId.slice(-4)}`,
    type,
    model,
    fw_version: fwVersion,
    tags: [
      `${LOCATION_TAG_KEY}:${city}`,
      `${SERIAL_TAG_KEY}:${profile.serialPrefix}${yearWeek}${sequence}`,
    ],
  };
}

/**
 * Specs for nodes `from` … `to - 1` of the fleet made from `seed`, avoiding the ids in `taken`
 * (which grows with the new ids).
 */
export function nodeSpecs(seed: number, from: number, to: number, taken: Set<string>): NodeSpec[] {
  const specs: NodeSpec[] = [];
  for (let index = from; index < to; index++) {
    const spec = nodeSpecAt(seed, index, taken);
    taken.add(spec.node_id);
    specs.push(spec);
  }
  return specs;
}

/** The registration body entry of a node (POST /v1/admin/node_ids). */
export function toRegistration(spec: NodeSpec): NodeRegistration {
  return {
    node_id: spec.node_id,
    name: spec.name,
    type: spec.type,
    model: spec.model,
    fw_version: spec.fw_version,
    tags: spec.tags,
  };
}

/** The city in a node's location tag. */
export function cityOf(spec: NodeSpec): string | undefined {
  const tag = spec.tags[0];
  return tag?.startsWith(`${LOCATION_TAG_KEY}:`)
    ? tag.slice(LOCATION_TAG_KEY.length + 1)
    : undefined;
}

/** Whether the node publishes with the stock firmware's `$aws/rules/…` topics (stable per id). */
export function usesBasicIngest(nodeId: string, share: number): boolean {
  return stableRoll(nodeId, 'basic-ingest') < share;
}

/** Whether the node belongs to the claimed share of the fleet (stable per id). */
export function isClaimCandidate(nodeId: string, share: number): boolean {
  return stableRoll(nodeId, 'claim') < share;
}

/** Which of `userCount` simulated end users owns the node (stable per id). */
export function ownerSlot(nodeId: string, userCount: number): number {
  return Math.floor(stableRoll(nodeId, 'owner') * userCount);
}
