import { z } from 'zod';
import {
  INPUT_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SESSION_TIMEOUT_SECONDS,
} from '../constants.js';
import { SERVER_MESSAGES } from '../errors.js';
import { MESSAGES } from '../messages.js';
import { ROLES } from '../roles.js';
import { DEPLOYMENT_MODES } from '../constants.js';

/** A sign-in user name: a valid e-mail address of at most 64 characters (access §5 Login). */
export const UserNameSchema = z
  .string({ error: MESSAGES.invalidUsername })
  .trim()
  .max(INPUT_MAX_LENGTH, { error: MESSAGES.invalidUsername })
  .pipe(z.email({ error: MESSAGES.invalidUsername }));

/** A sign-in password: 8 to 64 characters (access §5 Login). */
export const LoginPasswordSchema = z
  .string({ error: MESSAGES.invalidPassword })
  .min(PASSWORD_MIN_LENGTH, { error: MESSAGES.invalidPassword })
  .max(PASSWORD_MAX_LENGTH, { error: MESSAGES.invalidPassword });

/** The login form and the password body of POST /v1/login. */
export const LoginFormSchema = z.object({
  user_name: UserNameSchema,
  password: LoginPasswordSchema,
});
export type LoginForm = z.infer<typeof LoginFormSchema>;

/** RainMaker's "extend session" body of POST /v1/login. */
export const RefreshBodySchema = z.object({
  refreshtoken: z.string().min(1).max(512),
});
export type RefreshBody = z.infer<typeof RefreshBodySchema>;

/** POST /v1/login and /v1/login2: the second step of an MFA sign-in. */
export const MfaLoginBodySchema = z
  .object({
    user_name: UserNameSchema,
    /** The SMS code, the authenticator-app code or a recovery code. */
    verification_code: z
      .string({ error: MESSAGES.enterVerificationCode })
      .trim()
      .min(1, { error: MESSAGES.enterVerificationCode })
      .max(32, { error: MESSAGES.verificationCodeNotValid }),
    session: z
      .string({ error: SERVER_MESSAGES.mfaSessionMissing })
      .min(1, { error: SERVER_MESSAGES.mfaSessionMissing })
      .max(512, { error: SERVER_MESSAGES.mfaSessionInvalid }),
  })
  .strict();
export type MfaLoginBody = z.infer<typeof MfaLoginBodySchema>;

/** How the second factor of an MFA sign-in is proven. */
export const MFA_CHALLENGES = ['sms', 'totp'] as const;
export type MfaChallengeKind = (typeof MFA_CHALLENGES)[number];

/** The login answer when a second factor is needed: no tokens yet, only the step's session. */
export const MfaChallengeResponseSchema = z.object({
  status: z.literal('success'),
  description: z.string(),
  session: z.string(),
  /** `totp`: enter the authenticator code (or a recovery code); `sms`: the code texted to the phone. */
  challenge: z.enum(MFA_CHALLENGES),
  /** The last digits of the phone the code went to, for the SMS challenge. */
  phone_hint: z.string().optional(),
});
export type MfaChallengeResponse = z.infer<typeof MfaChallengeResponseSchema>;

/**
 * The second factor still owed after a social sign-in of an account with MFA: what
 * GET /v1/oauth2/mfa_step (dashboard) or POST /v1/oauth2/token (apps) answer. The step completes
 * like a password login's, at POST /v1/login2 with `{user_name, verification_code, session}`.
 */
export const SocialMfaStepSchema = MfaChallengeResponseSchema.extend({ user_name: z.string() });
export type SocialMfaStep = z.infer<typeof SocialMfaStepSchema>;

/**
 * POST /v1/login and /v1/login2: a password login, the second step of an MFA sign-in
 * (`{user_name, verification_code, session}`), or a refresh with `refreshtoken`
 * (the RainMaker "extend session" shape).
 */
export const LoginRequestSchema = z.union([
  RefreshBodySchema.strict(),
  MfaLoginBodySchema,
  LoginFormSchema,
]);
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

/**
 * A successful login or refresh. API clients receive the tokens; browser clients (those sending
 * the CSRF header) get them only as HttpOnly cookies, so page script never sees them.
 */
export const LoginResponseSchema = z.object({
  status: z.literal('success'),
  description: z.string(),
  accesstoken: z.string().optional(),
  refreshtoken: z.string().optional(),
  idtoken: z.string().optional(),
  /** Seconds the access token lives. */
  expires_in: z.number().int(),
  /** Epoch seconds when the access token expires. */
  expires_at: z.number().int(),
});
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

/** What POST /v1/login answers: tokens, or the MFA step's session. */
export const LoginAnswerSchema = z.union([LoginResponseSchema, MfaChallengeResponseSchema]);
export type LoginAnswer = z.infer<typeof LoginAnswerSchema>;

/** The default access-token lifetime, restated for readers of the schema. */
export const ACCESS_TOKEN_DEFAULT_TTL = SESSION_TIMEOUT_SECONDS;

/** POST /v1/logout and /v1/logout2 query. */
export const LogoutQuerySchema = z.object({
  logout_all: z
    .enum(['true', 'false'], {
      error: 'Error, Invalid logout_all value specified. [Valid values are true/false]',
    })
    .optional(),
});
export type LogoutQuery = z.infer<typeof LogoutQuerySchema>;

/** POST /v1/logout body: optionally the refresh token to revoke (API clients). */
export const LogoutBodySchema = z
  .object({ refreshtoken: z.string().max(512).optional() })
  .nullish();

/** GET /v1/user: the signed-in user. */
export const CurrentUserSchema = z.object({
  user_id: z.string(),
  user_name: z.string(),
  email: z.string(),
  name: z.string(),
  super_admin: z.boolean(),
  admin: z.boolean(),
  user_role: z.array(z.enum(ROLES)),
  permissions: z.array(z.string()),
  /** true for e-mail/password accounts, which may change their password (access §2 sidebar). */
  email_user: z.boolean(),
  mfa: z.boolean(),
  /** The verified phone number (with country code), when there is one. */
  phone_number: z.string().nullable().optional(),
  /** A phone number added but not yet confirmed with its code. */
  pending_phone_number: z.string().nullable().optional(),
  /** Whether an authenticator app (TOTP) is set up. */
  totp_enabled: z.boolean().optional(),
  deployment_mode: z.enum(DEPLOYMENT_MODES),
  session_expires_at: z.number().int(),
});
export type CurrentUser = z.infer<typeof CurrentUserSchema>;

/** Password policy (fleet-management §5): 8–64 characters with upper, lower and a digit. */
export const NewPasswordSchema = z
  .string({ error: MESSAGES.enterAllDetails })
  .min(1, { error: MESSAGES.enterAllDetails })
  .max(PASSWORD_MAX_LENGTH, { error: MESSAGES.passwordPolicy })
  .refine(
    (value) =>
      value.length >= PASSWORD_MIN_LENGTH &&
      /[A-Z]/.test(value) &&
      /[a-z]/.test(value) &&
      /[0-9]/.test(value),
    { error: MESSAGES.passwordPolicy },
  );

/** PUT /v1/password and /v1/password2: current and new password. */
export const PasswordChangeBodySchema = z.object({
  password: z
    .string({ error: MESSAGES.enterAllDetails })
    .min(1, { error: MESSAGES.enterAllDetails })
    .max(PASSWORD_MAX_LENGTH, { error: MESSAGES.invalidPassword }),
  newpassword: NewPasswordSchema,
});
export type PasswordChangeBody = z.infer<typeof PasswordChangeBodySchema>;

/** The Change Password form: current, new and confirm, checked in the spec's order. */
export const PasswordChangeFormSchema = z
  .object({
    current: z.string().max(PASSWORD_MAX_LENGTH),
    next: z.string().max(PASSWORD_MAX_LENGTH),
    confirm: z.string().max(PASSWORD_MAX_LENGTH),
  })
  .superRefine((form, ctx) => {
    if (!form.current || !form.next || !form.confirm) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.enterAllDetails });
      return;
    }
    if (form.next !== form.confirm) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.passwordsDidNotMatch, path: ['confirm'] });
      return;
    }
    if (!NewPasswordSchema.safeParse(form.next).success) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.passwordPolicy, path: ['next'] });
    }
  });
export type PasswordChangeForm = z.infer<typeof PasswordChangeFormSchema>;

/** GET /v1/deployment_info: public facts the login page needs before anyone signs in. */
export const DeploymentInfoSchema = z.object({
  deployment_mode: z.enum(DEPLOYMENT_MODES),
  sign_up_enabled: z.boolean(),
  social_providers: z.array(z.enum(['GitHub', 'Google', 'SignInWithApple'])),
  /**
   * The diagnostics option (access §2 Diagnostics, §6): device ids link to their diagnostics
   * report when it is on (the server's DIAGNOSTICS_LINKS) or the Diag cookie is 'true'.
   */
  diagnostics_links: z.boolean(),
  version: z.string(),
});
export type DeploymentInfo = z.infer<typeof DeploymentInfoSchema>;

/** GET /healthz and /readyz. */
export const HealthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.record(z.string(), z.enum(['ok', 'failed'])).optional(),
});
