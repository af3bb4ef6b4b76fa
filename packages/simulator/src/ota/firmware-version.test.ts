import { describe, expect, it } from 'vitest';
import { compareFirmwareVersions } from './firmware-version.js';

describe('firmware version order', () => {
  it.each([
    ['1.10.0', '1.9.3', 1],
    ['1.4.2', '1.4.10', -1],
    ['1.5', '1.5.0', 0],
    ['v2.0.0', '2.0.0', 0],
    ['1.5.0-rc1', '1.5.0', -1],
    ['1.5.0-rc2', '1.5.0-rc10', -1],
    ['2.0.0', '1.99.99', 1],
    ['1.4.2+build7', '1.4.2', 0],
  ])('compares %s with %s as %i', (a, b, expected) => {
    expect(compareFirmwareVersions(a, b)).toBe(expected);
    expect(compareFirmwareVersions(b, a)).toBe(-expected || 0);
  });
});
