import { randomInt } from 'node:crypto';

/** At most this many simulated end users own the claimed nodes. */
export const MAX_END_USERS = 10;
/** Roughly this many claimed nodes per simulated end user. */
const NODES_PER_END_USER = 25;

/** How many end users own `claimable` nodes: a few, at least one. */
export function endUserCount(claimable: number): number {
  return Math.max(1, Math.min(MAX_END_USERS, Math.ceil(claimable / NODES_PER_END_USER)));
}

/** The e-mail of simulated end user `k` (0-based) of the fleet made from `seed`. */
export function endUserName(seed: number, k: number): string {
  return `enduser${k + 1}.seed${seed}@sim.fleetdeck.test`;
}

const ALPHABET = {
  upper: 'ABCDEFGHJKLMNPQRSTUVWXYZ',
  lower: 'abcdefghijkmnopqrstuvwxyz',
  digit: '23456789',
};

/** A random 20-character password with upper, lower and digits (meets the server's policy). */
export function generatePassword(length = 20): string {
  const all = ALPHABET.upper + ALPHABET.lower + ALPHABET.digit;
  const pick = (set: string) => set.charAt(randomInt(set.length));
  const chars = [pick(ALPHABET.upper), pick(ALPHABET.lower), pick(ALPHABET.digit)];
  while (chars.length < length) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j] as string, chars[i] as string];
  }
  return chars.join('');
}
