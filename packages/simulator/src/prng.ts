/**
 * A small seeded pseudo-random generator, so a fleet is the same on every run and platform for
 * the same `--seed`. Not for secrets: credentials come from the server, passwords from
 * `node:crypto`.
 */

const UINT32 = 4294967296;

/** Mixes 32 bits thoroughly (MurmurHash3's finaliser). */
function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** An independent 32-bit seed derived from a seed and a path of numbers (e.g. seed, node index). */
export function deriveSeed(seed: number, ...parts: readonly number[]): number {
  // Seeds up to 2^53 keep their high bits.
  let h = fmix32((seed % UINT32) ^ Math.floor(seed / UINT32) ^ 0x9e3779b9);
  for (const part of parts) h = fmix32(h ^ fmix32((part >>> 0) + 0x7f4a7c15));
  return h;
}

/** A stable 32-bit hash of a string (FNV-1a, finalised), e.g. to give a node id its own dice. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

/** A stable number in [0, 1) for a string and a purpose, the same on every run. */
export function stableRoll(text: string, purpose: string): number {
  return hashString(`${purpose}:${text}`) / UINT32;
}

/** mulberry32: a tiny 32-bit state generator with good statistical quality for simulation. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / UINT32;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element, uniformly. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick needs at least one item');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One value, with probability proportional to its weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (!last) throw new Error('Rng.weighted needs at least one entry');
    return last[0];
  }

  /** `length` upper-case hex digits. */
  hex(length: number): string {
    let out = '';
    while (out.length < length) out += this.int(0, 0xffff).toString(16).padStart(4, '0');
    return out.slice(0, length).toUpperCase();
  }

  /** An exponentially distributed wait with the given mean (a Poisson process's gaps). */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }
}
