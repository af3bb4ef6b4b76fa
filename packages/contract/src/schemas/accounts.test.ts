import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '../errors.js';
import { MESSAGES } from '../messages.js';
import {
  ForgotPasswordBodySchema,
  NewPasswordFormSchema,
  SignUpBodySchema,
  SignUpFormSchema,
  UserSettingsUpdateSchema,
} from './accounts.js';

const first = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.success ? null : (result.error?.issues[0]?.message ?? null);

describe('sign-up form', () => {
  const valid = { user_name: 'a@b.io', password: 'Abcdefg1', confirm: 'Abcdefg1', terms: true };

  it('checks the rules in the spec order', () => {
    expect(first(SignUpFormSchema.safeParse({ ...valid, confirm: '' }))).toBe(
      MESSAGES.enterAllDetails,
    );
    expect(first(SignUpFormSchema.safeParse({ ...valid, user_name: 'a@', terms: false }))).toBe(
      MESSAGES.invalidEmail,
    );
    expect(first(SignUpFormSchema.safeParse({ ...valid, confirm: 'Abcdefg2', terms: false }))).toBe(
      MESSAGES.passwordsDidNotMatch,
    );
    expect(
      first(
        SignUpFormSchema.safeParse({ ...valid, password: 'abc', confirm: 'abc', terms: false }),
      ),
    ).toBe(MESSAGES.passwordPolicy);
    expect(first(SignUpFormSchema.safeParse({ ...valid, terms: false }))).toBe(
      MESSAGES.agreeToTerms,
    );
    expect(SignUpFormSchema.safeParse(valid).success).toBe(true);
  });
});

describe('new password form', () => {
  const valid = { user_name: 'a@b.io', code: '123456', password: 'Abcdefg1', confirm: 'Abcdefg1' };

  it('refuses a code longer than 6 characters and a mismatch with the spec texts', () => {
    expect(first(NewPasswordFormSchema.safeParse({ ...valid, code: '' }))).toBe(
      MESSAGES.enterAllDetails,
    );
    expect(first(NewPasswordFormSchema.safeParse({ ...valid, code: '1234567' }))).toBe(
      MESSAGES.verificationCodeNotValid,
    );
    expect(first(NewPasswordFormSchema.safeParse({ ...valid, confirm: 'Abcdefg2' }))).toBe(
      MESSAGES.newPasswordsDidNotMatch,
    );
    expect(NewPasswordFormSchema.safeParse(valid).success).toBe(true);
  });
});

describe('request bodies', () => {
  it('take either a password or a code on sign-up, never both or neither', () => {
    expect(SignUpBodySchema.safeParse({ user_name: 'a@b.io', password: 'Abcdefg1' }).success).toBe(
      true,
    );
    expect(
      SignUpBodySchema.safeParse({ user_name: 'a@b.io', verification_code: '123456' }).success,
    ).toBe(true);
    expect(first(SignUpBodySchema.safeParse({ user_name: 'a@b.io' }))).toBe(
      SERVER_MESSAGES.credentialsMissing,
    );
  });

  it('take both or neither of password and code on password recovery', () => {
    expect(ForgotPasswordBodySchema.safeParse({ user_name: 'a@b.io' }).success).toBe(true);
    expect(
      first(ForgotPasswordBodySchema.safeParse({ user_name: 'a@b.io', verification_code: '1' })),
    ).toBe(SERVER_MESSAGES.credentialsMissing);
  });

  it('take exactly one user setting, and phones with a country code', () => {
    expect(UserSettingsUpdateSchema.safeParse({ mfa: false }).success).toBe(true);
    expect(UserSettingsUpdateSchema.safeParse({ phone_number: '+919876543210' }).success).toBe(
      true,
    );
    expect(first(UserSettingsUpdateSchema.safeParse({ phone_number: '9876543210' }))).toBe(
      MESSAGES.invalidPhone,
    );
    expect(first(UserSettingsUpdateSchema.safeParse({}))).toBe(SERVER_MESSAGES.userNothingToUpdate);
    expect(first(UserSettingsUpdateSchema.safeParse({ name: 'x', mfa: true }))).toBe(
      SERVER_MESSAGES.userOneUpdateOnly,
    );
  });
});
