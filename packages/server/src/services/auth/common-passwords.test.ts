import { NewPasswordSchema } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORD_CORES, isCommonPassword } from './common-passwords.js';
import { assertNotCommon } from './auth.service.js';

// ASVS 5.0 V6.2.4 / QUALITY S2: passwords from the blocklist are refused even when they pass the
// character rules, in the forms people actually use them.
describe('common-password blocklist', () => {
  const variants = (core: string) => [
    core,
    core.toUpperCase(),
    `${core.charAt(0).toUpperCase()}${core.slice(1)}1`,
    `${core.charAt(0).toUpperCase()}${core.slice(1)}123`,
    `${core.charAt(0).toUpperCase()}${core.slice(1)}2024!`,
    `1${core.charAt(0).toUpperCase()}${core.slice(1)}`,
  ];

  it('refuses 100 % of blocklisted passwords and their usual decorations', () => {
    let checked = 0;
    for (const core of COMMON_PASSWORD_CORES) {
      for (const candidate of variants(core)) {
        expect(isCommonPassword(candidate), candidate).toBe(true);
        expect(() => assertNotCommon(candidate, 'someone@example.com'), candidate).toThrow();
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(800);
  });

  it('refuses sequences and repeated characters', () => {
    for (const candidate of ['12345678', 'abcdefgh', 'aaaaaaaa', '11111111'])
      expect(isCommonPassword(candidate)).toBe(true);
  });

  it('refuses a password built from the e-mail name', () => {
    expect(() => assertNotCommon('Jonathan-Smith-9', 'jonathan@example.com')).toThrow();
  });

  it('accepts strong, unusual passwords', () => {
    for (const candidate of ['Ops-Console-2031', 'Brand-New-Secret-42', 'tZ7pQ2mW9xLk']) {
      expect(NewPasswordSchema.safeParse(candidate).success).toBe(true);
      expect(isCommonPassword(candidate)).toBe(false);
    }
  });
});
