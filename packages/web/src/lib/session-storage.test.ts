import { describe, expect, it } from 'vitest';
import { parseStoredExpiry } from './session-storage';

describe('parseStoredExpiry', () => {
  it('reads epoch seconds', () => {
    expect(parseStoredExpiry('1750000000')).toBe(1750000000);
  });

  it('treats anything else as no session', () => {
    for (const raw of [null, '', 'abc', '-5', '0', '1.5', '1e9', ' 17']) {
      expect(parseStoredExpiry(raw)).toBeNull();
    }
  });
});
