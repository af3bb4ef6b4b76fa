import { describe, expect, it } from 'vitest';
import { normaliseSearch } from './search';

describe('normaliseSearch', () => {
  it('trims the input', () => {
    expect(normaliseSearch('  node-01 ')).toBe('node-01');
  });

  it('ignores empty and whitespace-only input', () => {
    expect(normaliseSearch('')).toBeUndefined();
    expect(normaliseSearch('   ')).toBeUndefined();
    expect(normaliseSearch('\t\n ')).toBeUndefined();
  });

  it('keeps at most 64 characters', () => {
    expect(normaliseSearch('a'.repeat(64))).toHaveLength(64);
    expect(normaliseSearch('b'.repeat(80))).toBe('b'.repeat(64));
  });

  it('counts the limit after trimming', () => {
    expect(normaliseSearch(`   ${'c'.repeat(64)}   `)).toBe('c'.repeat(64));
  });

  it('does not leave half of an emoji at the cut', () => {
    const value = normaliseSearch(`${'d'.repeat(63)}😀`);
    expect(value).toBe('d'.repeat(63));
  });
});
