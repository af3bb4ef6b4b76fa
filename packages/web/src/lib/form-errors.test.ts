import { LoginFormSchema, MESSAGES, PasswordChangeFormSchema } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { collectFormErrors } from './form-errors';

function errorsOf<T extends string>(
  result: { success: boolean; error?: Parameters<typeof collectFormErrors>[0] },
  fields: readonly T[],
) {
  if (result.success || !result.error) throw new Error('expected a validation failure');
  return collectFormErrors(result.error, fields);
}

describe('collectFormErrors with the login schema', () => {
  const fields = ['user_name', 'password'] as const;

  it('puts each message under its field', () => {
    const errors = errorsOf(
      LoginFormSchema.safeParse({ user_name: 'nope', password: 'short' }),
      fields,
    );
    expect(errors.fields).toEqual({
      user_name: MESSAGES.invalidUsername,
      password: MESSAGES.invalidPassword,
    });
    expect(errors.form).toBeNull();
  });

  it('uses the spec messages for an over-long email', () => {
    const errors = errorsOf(
      LoginFormSchema.safeParse({
        user_name: `${'a'.repeat(60)}@example.com`,
        password: 'Password1',
      }),
      fields,
    );
    expect(errors.fields.user_name).toBe('Please enter a valid username.');
  });
});

describe('collectFormErrors with the password-change schema', () => {
  const fields = ['current', 'next', 'confirm'] as const;

  it('reports missing fields once, for the whole form', () => {
    const errors = errorsOf(
      PasswordChangeFormSchema.safeParse({ current: '', next: 'Abcdefg1', confirm: '' }),
      fields,
    );
    expect(errors.form).toBe('Please enter all the details.');
    expect(errors.fields).toEqual({});
  });

  it('reports a mismatch under the confirm field', () => {
    const errors = errorsOf(
      PasswordChangeFormSchema.safeParse({ current: 'x', next: 'Abcdefg1', confirm: 'Abcdefg2' }),
      fields,
    );
    expect(errors.fields.confirm).toBe('Passwords did not match');
  });

  it('reports the password policy under the new-password field', () => {
    const errors = errorsOf(
      PasswordChangeFormSchema.safeParse({ current: 'x', next: 'abcdefgh', confirm: 'abcdefgh' }),
      fields,
    );
    expect(errors.fields.next).toBe(MESSAGES.passwordPolicy);
  });
});
