import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, otpauthUri, totpStep } from './totp.js';

// RFC 6238 appendix B, SHA-1 seed "12345678901234567890".
const SEED = Buffer.from('12345678901234567890', 'ascii');
const SEED32 = base32Encode(SEED);

describe('TOTP (RFC 6238)', () => {
  it('reproduces the RFC 6238 SHA-1 test vectors (8 digits)', () => {
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, expected] of vectors) {
      expect(hotp(SEED, totpStep(seconds * 1000), 8)).toBe(expected);
    }
  });

  it('round-trips base32 and matches the RFC 4648 example', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
    expect(base32Decode(SEED32).equals(SEED)).toBe(true);
    expect(() => base32Decode('not-base32!')).toThrow();
  });

  it('accepts the previous, current and next step and nothing further', () => {
    const now = 1_700_000_000_000;
    const step = totpStep(now);
    for (const offset of [-1, 0, 1]) {
      expect(matchTotp(SEED32, hotp(SEED, step + offset), now, null)).toBe(step + offset);
    }
    expect(matchTotp(SEED32, hotp(SEED, step - 2), now, null)).toBeUndefined();
    expect(matchTotp(SEED32, hotp(SEED, step + 2), now, null)).toBeUndefined();
  });

  it('refuses a code of a step already used, and older steps', () => {
    const now = 1_700_000_000_000;
    const step = totpStep(now);
    expect(matchTotp(SEED32, hotp(SEED, step), now, step)).toBeUndefined();
    expect(matchTotp(SEED32, hotp(SEED, step - 1), now, step)).toBeUndefined();
    expect(matchTotp(SEED32, hotp(SEED, step + 1), now, step)).toBe(step + 1);
  });

  it('refuses malformed codes', () => {
    expect(matchTotp(SEED32, '12345', Date.now(), null)).toBeUndefined();
    expect(matchTotp(SEED32, 'abcdef', Date.now(), null)).toBeUndefined();
  });

  it('builds an otpauth URI with the issuer in label and parameters', () => {
    const uri = otpauthUri('Fleetdeck', 'ana@example.com', 'ABC');
    expect(uri).toBe(
      'otpauth://totp/Fleetdeck%3Aana%40example.com?secret=ABC&issuer=Fleetdeck&algorithm=SHA1&digits=6&period=30',
    );
  });
});
