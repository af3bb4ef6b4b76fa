import { DEFAULT_FAULT_CATALOGUES, NODE_TYPES, type NodeType } from '@fleetdeck/contract';
import type { Rng } from './prng.js';

/**
 * Simulated appliance faults: codes come from the contract's default catalogues (the server
 * installs the same ones), raised at a configurable rate per node and hour and cleared after a
 * while, with some codes far more likely on one firmware version, so the server's fault
 * breakdown shows a firmware release causing a fault.
 */

/** Default raise rate: faults per node per hour (3 per 100 nodes per hour). */
export const DEFAULT_FAULT_RATE_PER_NODE_HOUR = 0.03;
/** A raised fault clears after this long on average (exponentially distributed). */
export const FAULT_MEAN_DURATION_MS = 45 * 60_000;

/** A code that firmware makes likely: weight multiplier and raise-rate multiplier on that fw. */
export interface FirmwareFaultSkew {
  code: number;
  fwVersion: string;
  /** The code's weight among the type's codes on that firmware (others weigh 1). */
  weight: number;
  /** Nodes on that firmware raise faults this many times as often. */
  rateFactor: number;
}

/** The faulty releases of the simulated fleet. */
export const FIRMWARE_FAULT_SKEWS: Readonly<Record<NodeType, readonly FirmwareFaultSkew[]>> = {
  // Refrigerator E5 (defrost sensor) is mostly a 2.1.0 problem.
  Refrigerator: [{ code: 5, fwVersion: '2.1.0', weight: 20, rateFactor: 2 }],
  // AC E4 (compressor overload) clusters on the 1.3.9 release.
  'Air Conditioner': [{ code: 4, fwVersion: '1.3.9', weight: 12, rateFactor: 2 }],
  // Washer E21 (drain pump) clusters on 3.1.4.
  'Washing Machine': [{ code: 21, fwVersion: '3.1.4', weight: 12, rateFactor: 2 }],
};

/** The err_codes of a type's default catalogue as the ints the appliances report. */
export function faultCodesOf(type: NodeType): number[] {
  return DEFAULT_FAULT_CATALOGUES[type].map((entry) => Number(entry.err_code));
}

const CODES: Readonly<Record<NodeType, readonly number[]>> = Object.fromEntries(
  NODE_TYPES.map((type) => [type, faultCodesOf(type)]),
) as Record<NodeType, number[]>;

/** Picks the code a node raises, weighted by its firmware. */
export function pickFaultCode(rng: Rng, type: NodeType, fwVersion: string): number {
  const skews = FIRMWARE_FAULT_SKEWS[type].filter((skew) => skew.fwVersion === fwVersion);
  return rng.weighted(
    CODES[type].map(
      (code) => [code, skews.find((skew) => skew.code === code)?.weight ?? 1] as const,
    ),
  );
}

/** The node's raise rate per hour given the fleet's base rate and its firmware. */
export function faultRateOf(type: NodeType, fwVersion: string, ratePerHour: number): number {
  const skew = FIRMWARE_FAULT_SKEWS[type].find((entry) => entry.fwVersion === fwVersion);
  return ratePerHour * (skew?.rateFactor ?? 1);
}

/**
 * The fault value after `elapsedMs` without a check: a healthy node raises a fault with the
 * probability of a Poisson process at its rate; a faulty one clears with the probability of an
 * exponential fault duration. 0 = no fault.
 */
export function nextFaultValue(
  rng: Rng,
  node: { type: NodeType; fwVersion: string; current: number },
  elapsedMs: number,
  ratePerHour: number,
): number {
  const hours = Math.max(0, elapsedMs) / 3_600_000;
  if (node.current === 0) {
    const rate = faultRateOf(node.type, node.fwVersion, ratePerHour);
    return rng.chance(1 - Math.exp(-rate * hours))
      ? pickFaultCode(rng, node.type, node.fwVersion)
      : 0;
  }
  return rng.chance(1 - Math.exp(-Math.max(0, elapsedMs) / FAULT_MEAN_DURATION_MS))
    ? 0
    : node.current;
}
