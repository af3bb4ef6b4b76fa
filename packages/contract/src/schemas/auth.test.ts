import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages.js';
import { LoginFormSchema, PasswordChangeFormSchema, NewPasswordSchema } from './auth.js';

const firstMessage = (result: {
  success: boolean;
  error?: { issues: Array<{ message: string }> };
}) => (result.success ? undefined : result.error?.issues[0]?.message);

describe('LoginFormSchema', () => {
  it('accepts a valid e-mail and an 8-character password', () => {
    expect(
      LoginFormSchema.safeParse({ user_name: ' ops@example.com ', password: 'abcdefgh' }).data,
    ).toEqual({
      user_name: 'ops@example.com',
      password: 'abcdefgh',
    });
  });

  it.each([
    [{ user_name: '', password: 'abcdefgh' }, MESSAGES.invalidUsername],
    [{ user_name: 'ops', password: 'abcdefgh' }, MESSAGES.invalidUsername],
    [{ user_name: `${'x'.repeat(61)}@a.io`, password: 'abcdefgh' }, MESSAGES.invalidUsername],
    [{ user_name: 'ops@example.com', password: '' }, MESSAGES.invalidPassword],
    [{ user_name: 'ops@example.com', password: '1234567' }, MESSAGES.invalidPassword],
    [{ user_name: 'ops@example.com', password: 'x'.repeat(65) }, MESSAGES.invalidPassword],
  ])('refuses %o with the spec message', (input, message) => {
    expect(firstMessage(LoginFormSchema.safeParse(input))).toBe(message);
  });
});

describe('PasswordChangeFormSchema', () => {
  it.each([
    [{ current: '', next: 'Abcdefg1', confirm: 'Abcdefg1' }, MESSAGES.enterAllDetails],
    [{ current: 'x', next: '', confirm: '' }, MESSAGES.enterAllDetails],
    [{ current: 'x', next: 'Abcdefg1', confirm: 'Abcdefg2' }, MESSAGES.passwordsDidNotMatch],
    [{ current: 'x', next: 'abcdefg1', confirm: 'abcdefg1' }, MESSAGES.passwordPolicy],
    [{ current: 'x', next: 'ABCDEFG1', confirm: 'ABCDEFG1' }, MESSAGES.passwordPolicy],
    [{ current: 'x', next: 'Abcdefgh', confirm: 'Abcdefgh' }, MESSAGES.passwordPolicy],
    [{ current: 'x', next: 'Abc1', confirm: 'Abc1' }, MESSAGES.passwordPolicy],
  ])('refuses %o with the spec message', (input, message) => {
    expect(firstMessage(PasswordChangeFormSchema.safeParse(input))).toBe(message);
  });

  it('accepts a matching policy-conforming password', () => {
    expect(
      PasswordChangeFormSchema.safeParse({ current: 'old', next: 'Abcdefg1', confirm: 'Abcdefg1' })
        .success,
    ).toBe(true);
  });

  it('caps new passwords at 64 characters', () => {
    expect(NewPasswordSchema.safeParse(`Ab1${'c'.repeat(61)}`).success).toBe(true);
    expect(NewPasswordSchema.safeParse(`Ab1${'c'.repeat(62)}`).success).toBe(false);
  });
});
