import { describe, expect, it } from 'vitest';
import { formatMegabytes } from './image-format';

describe('formatMegabytes', () => {
  it('divides by 1048576 and keeps two decimals', () => {
    expect(formatMegabytes(1048576)).toBe('1.00');
    expect(formatMegabytes(1572864)).toBe('1.50');
    expect(formatMegabytes(123456)).toBe('0.12');
    expect(formatMegabytes(10 * 1048576 + 5000)).toBe('10.00');
    expect(formatMegabytes(10 * 1048576 + 5243)).toBe('10.01');
  });

  it('shows 0.00 for empty or nonsensical sizes', () => {
    expect(formatMegabytes(0)).toBe('0.00');
    expect(formatMegabytes(-5)).toBe('0.00');
    expect(formatMegabytes(Number.NaN)).toBe('0.00');
  });
});
