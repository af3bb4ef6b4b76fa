import { LoginFormSchema, MESSAGES, PasswordChangeFormSchema } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { collectFormErrors, withoutFieldError, type FormErrors } from './form-errors';

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

describe('withoutFieldError', () => {
  const submitted: FormErrors<'image_name' | 'type' | 'model'> = {
    fields: { image_name: MESSAGES.provideAllDetails, type: MESSAGES.provideAllDetails },
    form: MESSAGES.provideAllDetails,
  };

  it('drops the changed field’s message and the form-wide one, and keeps the other fields’', () => {
    expect(withoutFieldError(submitted, 'image_name')).toEqual({
      fields: { type: MESSAGES.provideAllDetails },
      form: null,
    });
    expect(submitted.fields.image_name).toBe(MESSAGES.provideAllDetails);
  });

  it('drops the form-wide message when a field without an error changes', () => {
    expect(withoutFieldError(submitted, 'model')).toEqual({
      fields: submitted.fields,
      form: null,
    });
  });

  it('returns the same errors when there is nothing to clear', () => {
    const clean = { fields: {}, form: null };
    expect(withoutFieldError<'image_name'>(clean, 'image_name')).toBe(clean);
  });
});
