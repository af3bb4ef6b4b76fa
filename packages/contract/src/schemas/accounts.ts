import { z } from 'zod';
import { INPUT_MAX_LENGTH, PASSWORD_MAX_LENGTH, VERIFICATION_CODE_LENGTH } from '../constants.js';
import { SERVER_MESSAGES } from '../errors.js';
import { MESSAGES } from '../messages.js';
import { NewPasswordSchema } from './auth.js';

/** An e-mail user name with the given message for every way it can be wrong. */
function emailWithMessage(message: string) {
  return z
    .string({ error: message })
    .trim()
    .max(INPUT_MAX_LENGTH, { error: message })
    .pipe(z.email({ error: message }));
}

/** A 6-digit verification code as typed (spaces around it ignored). */
export const VerificationCodeSchema = z
  .string({ error: MESSAGES.enterVerificationCode })
  .trim()
  .min(1, { error: MESSAGES.enterVerificationCode })
  .regex(new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`), {
    error: MESSAGES.verificationCodeNotValid,
  });

/** Whether a value holds the key (a present-but-undefined key counts as absent). */
function has(value: Record<string, unknown>, key: string): boolean {
  return value[key] !== undefined;
}

/**
 * POST /v1/user and /v1/user2 (access §7 Auth, A.2): `{user_name, password}` creates an account and
 * mails a code; `{user_name, verification_code}` confirms it.
 */
export const SignUpBodySchema = z
  .object({
    user_name: emailWithMessage(MESSAGES.invalidEmail),
    password: NewPasswordSchema.optional(),
    verification_code: VerificationCodeSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (has(body, 'password') === has(body, 'verification_code')) {
      ctx.addIssue({ code: 'custom', message: SERVER_MESSAGES.credentialsMissing });
    }
  });
export type SignUpBody = z.infer<typeof SignUpBodySchema>;

/**
 * PUT /v1/forgotpassword and /v1/forgotpassword2: `{user_name}` mails a code;
 * `{user_name, password, verification_code}` sets the new password.
 */
export const ForgotPasswordBodySchema = z
  .object({
    user_name: emailWithMessage(MESSAGES.forgotInvalidUsername),
    password: NewPasswordSchema.optional(),
    verification_code: z
      .string({ error: MESSAGES.verificationCodeNotValid })
      .trim()
      .min(1, { error: MESSAGES.enterAllDetails })
      .max(VERIFICATION_CODE_LENGTH, { error: MESSAGES.verificationCodeNotValid })
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (has(body, 'password') !== has(body, 'verification_code')) {
      ctx.addIssue({ code: 'custom', message: SERVER_MESSAGES.credentialsMissing });
    }
  });
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBodySchema>;

/** A phone number with its country code, e.g. +919876543210 (E.164). */
export const E164PhoneSchema = z
  .string({ error: MESSAGES.invalidPhone })
  .trim()
  .regex(/^\+[1-9]\d{6,14}$/, { error: MESSAGES.invalidPhone });

/** PUT /v1/user2 and /v1/user: exactly one of name, phone_number, verification_code, mfa (+ proof). */
export const UserSettingsUpdateSchema = z
  .object({
    name: z
      .string({ error: SERVER_MESSAGES.userNameInvalid })
      .trim()
      .min(1, { error: SERVER_MESSAGES.userNameInvalid })
      .max(256, { error: SERVER_MESSAGES.userNameInvalid })
      .optional(),
    phone_number: E164PhoneSchema.optional(),
    verification_code: VerificationCodeSchema.optional(),
    mfa: z.boolean().optional(),
    /**
     * The proof `{mfa: false}` needs (step-up: turning MFA off weakens every later sign-in): the
     * account's password, or a current authenticator-app code. Not an update of its own.
     */
    password: z
      .string({ error: MESSAGES.invalidPassword })
      .max(PASSWORD_MAX_LENGTH, { error: MESSAGES.invalidPassword })
      .optional(),
    code: VerificationCodeSchema.optional(),
  })
  .superRefine((body, ctx) => {
    const given = (['name', 'phone_number', 'verification_code', 'mfa'] as const).filter((key) =>
      has(body, key),
    );
    if (given.length === 0)
      ctx.addIssue({ code: 'custom', message: SERVER_MESSAGES.userNothingToUpdate });
    else if (given.length > 1)
      ctx.addIssue({ code: 'custom', message: SERVER_MESSAGES.userOneUpdateOnly });
  });
export type UserSettingsUpdate = z.infer<typeof UserSettingsUpdateSchema>;

/** POST /v1/user2/totp: the new secret to put into an authenticator app. */
export const TotpBeginResponseSchema = z.object({
  status: z.literal('success'),
  description: z.string(),
  /** Base32, for typing into the app by hand. */
  secret: z.string(),
  otpauth_uri: z.string(),
  /** The otpauth URI as an SVG QR code (a data: URL for an <img>). */
  qr_code: z.string(),
});
export type TotpBeginResponse = z.infer<typeof TotpBeginResponseSchema>;

/** PUT and DELETE /v1/user2/totp: a current code from the app. */
export const TotpCodeBodySchema = z.object({ code: VerificationCodeSchema });
export type TotpCodeBody = z.infer<typeof TotpCodeBodySchema>;

/** PUT /v1/user2/totp: recovery codes, shown once and stored only hashed. */
export const TotpConfirmResponseSchema = z.object({
  status: z.literal('success'),
  description: z.string(),
  recovery_codes: z.array(z.string()),
});
export type TotpConfirmResponse = z.infer<typeof TotpConfirmResponseSchema>;

/**
 * DELETE /v1/user2 and /v1/user (A.2 self-deletion): `request=true` mails a code to the caller's
 * own address; then `verification_code` deletes the account.
 */
export const SelfDeleteQuerySchema = z.object({
  request: z.enum(['true', 'false']).optional(),
  verification_code: z.string().trim().max(16).optional(),
});
export type SelfDeleteQuery = z.infer<typeof SelfDeleteQuerySchema>;

/** The sign-up form: e-mail, password, confirm and the terms box, checked in the spec's order. */
export const SignUpFormSchema = z
  .object({
    user_name: z.string().max(INPUT_MAX_LENGTH),
    password: z.string().max(PASSWORD_MAX_LENGTH),
    confirm: z.string().max(PASSWORD_MAX_LENGTH),
    terms: z.boolean(),
  })
  .superRefine((form, ctx) => {
    if (!form.user_name.trim() || !form.password || !form.confirm) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.enterAllDetails });
      return;
    }
    if (!emailWithMessage(MESSAGES.invalidEmail).safeParse(form.user_name).success) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.invalidEmail, path: ['user_name'] });
      return;
    }
    if (form.password !== form.confirm) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.passwordsDidNotMatch, path: ['confirm'] });
      return;
    }
    if (!NewPasswordSchema.safeParse(form.password).success) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.passwordPolicy, path: ['password'] });
      return;
    }
    if (!form.terms) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.agreeToTerms, path: ['terms'] });
    }
  });
export type SignUpForm = z.infer<typeof SignUpFormSchema>;

/** The forgot-password form (access §5 Forgot password). */
export const ForgotPasswordFormSchema = z.object({
  user_name: emailWithMessage(MESSAGES.forgotInvalidUsername),
});
export type ForgotPasswordForm = z.infer<typeof ForgotPasswordFormSchema>;

/** The set-new-password form: code, new and confirm (access §5 New password). */
export const NewPasswordFormSchema = z
  .object({
    user_name: z.string().max(INPUT_MAX_LENGTH),
    code: z.string().max(64),
    password: z.string().max(PASSWORD_MAX_LENGTH),
    confirm: z.string().max(PASSWORD_MAX_LENGTH),
  })
  .superRefine((form, ctx) => {
    if (!form.user_name.trim() || !form.code.trim() || !form.password || !form.confirm) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.enterAllDetails });
      return;
    }
    if (!emailWithMessage(MESSAGES.forgotInvalidUsername).safeParse(form.user_name).success) {
      ctx.addIssue({
        code: 'custom',
        message: MESSAGES.forgotInvalidUsername,
        path: ['user_name'],
      });
      return;
    }
    if (!/^\d{1,6}$/.test(form.code.trim())) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.verificationCodeNotValid, path: ['code'] });
      return;
    }
    if (form.password !== form.confirm) {
      ctx.addIssue({
        code: 'custom',
        message: MESSAGES.newPasswordsDidNotMatch,
        path: ['confirm'],
      });
      return;
    }
    if (!NewPasswordSchema.safeParse(form.password).success) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.passwordPolicy, path: ['password'] });
    }
  });
export type NewPasswordForm = z.infer<typeof NewPasswordFormSchema>;

/** The 6-digit code forms (/verification, /mfa-verification, phone verification). */
export const CodeFormSchema = z.object({ code: VerificationCodeSchema });
export type CodeForm = z.infer<typeof CodeFormSchema>;
