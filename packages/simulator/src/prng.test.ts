import { describe, expect, it } from 'vitest';
import { deriveSeed, hashString, Rng, stableRoll } from './prng.js';

const draw = (seed: number, n: number) => {
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => rng.next());
};

describe('seeded random numbers', () => {
  it('repeats the same sequence for the same seed', () => {
    expect(draw(42, 100)).toEqual(draw(42, 100));
  });

  it('gives different sequences for different seeds', () => {
    expect(draw(1, 10)).not.toEqual(draw(2, 10));
  });

  it('stays within the asked bounds', () => {
    const rng = new Rng(7);
    const ints = Array.from({ length: 10_000 }, () => rng.int(-3, 5));
    const floats = Array.from({ length: 10_000 }, () => rng.next());
    expect(Math.min(...ints)).toBe(-3);
    expect(Math.max(...ints)).toBe(5);
    expect(ints.every(Number.isInteger)).toBe(true);
    expect(Math.min(...floats)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...floats)).toBeLessThan(1);
  });

  it('follows the weights of a weighted pick', () => {
    const rng = new Rng(3);
    let heavy = 0;
    for (let i = 0; i < 10_000; i++)
      if (
        rng.weighted([
          ['a', 9],
          ['b', 1],
        ] as const) === 'a'
      )
        heavy++;
    expect(heavy).toBeGreaterThan(8_700);
    expect(heavy).toBeLessThan(9_300);
  });

  it('derives independent seeds for different paths and keeps high seed bits', () => {
    expect(deriveSeed(1, 0)).not.toBe(deriveSeed(1, 1));
    expect(deriveSeed(1, 0)).not.toBe(deriveSeed(2, 0));
    expect(deriveSeed(2 ** 32 + 1)).not.toBe(deriveSeed(1));
    expect(deriveSeed(5, 9)).toBe(deriveSeed(5, 9));
  });

  it('hashes strings stably into rolls in [0, 1)', () => {
    expect(hashString('A1B2C3D4E5F6')).toBe(hashString('A1B2C3D4E5F6'));
    const roll = stableRoll('A1B2C3D4E5F6', 'claim');
    expect(roll).toBeGreaterThanOrEqual(0);
    expect(roll).toBeLessThan(1);
    expect(stableRoll('A1B2C3D4E5F6', 'owner')).not.toBe(roll);
  });

  it('produces upper-case hex of the asked length', () => {
    expect(new Rng(9).hex(12)).toMatch(/^[0-9A-F]{12}$/);
  });
});
