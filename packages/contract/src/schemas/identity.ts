import { z } from 'zod';
import { SERVER_MESSAGES } from '../errors.js';
import { MESSAGES } from '../messages.js';
import { QueryBooleanSchema } from './common.js';

/**
 * Identity side of Deployment Settings (access §2, §3, §5; rainmaker-contract A.8 rows
 * admin/identity_provider, admin/cognito_appclient, admin/cognito_domain,
 * admin/rainmaker_deployment_details, admin/deployment_settings/cognito_appclient) and the social
 * sign-in endpoints of Fleetdeck's own auth server.
 */

/** The social sign-in providers Fleetdeck can federate with. */
export const IDENTITY_PROVIDER_TYPES = ['Google', 'SignInWithApple', 'GitHub'] as const;
export type IdentityProviderType = (typeof IDENTITY_PROVIDER_TYPES)[number];

/** The two user pools of a deployment: `email_mobile_userpool=true` is "Email & Phone User Pool". */
export const USER_POOLS = ['email_mobile', 'email'] as const;
export type UserPool = (typeof USER_POOLS)[number];

/** Maps the `email_mobile_userpool` flag to a pool. */
export function userPoolOf(emailMobileUserpool: boolean): UserPool {
  return emailMobileUserpool ? 'email_mobile' : 'email';
}

/** `?email_mobile_userpool=true|false`; absent means the default "Email & Phone User Pool". */
export const UserPoolQuerySchema = z.object({
  email_mobile_userpool: QueryBooleanSchema.optional().transform((value) => value ?? true),
});
export type UserPoolQuery = z.infer<typeof UserPoolQuerySchema>;

/** The name Fleetdeck gives the app client it creates for each pool. */
export const DEFAULT_APP_CLIENT_NAME = 'fleetdeck-dashboard';
/** The SPA's landing route of a social sign-in (access §2 Public routes). */
export const SOCIAL_AUTH_PATH = '/socialauth';
/** Domain prefix rule of the Cognito domain (access §5): lower-case letters, digits, hyphens. */
export const DOMAIN_NAME_PATTERN = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Whether a text is an absolute URL a sign-in may return to (http(s) or an app's own scheme). */
export function isCallbackUrl(value: string): boolean {
  if (value.length > 1024 || /[\s#]/.test(value)) return false;
  const web = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[^?]*)?(\?.*)?$/.test(value);
  // Mobile apps return through their own scheme (myapp://callback).
  const app = /^[a-z][a-z0-9+.-]*:\/\/[^/?]*(\/[^?]*)?(\?.*)?$/.test(value);
  return (
    web || (app && !/^https?:/.test(value) && !/^(javascript|data|file|vbscript):/i.test(value))
  );
}

/** Splits the editor's comma-separated list (or takes an array) into trimmed, non-empty URLs. */
export function splitCallbackUrls(value: string | readonly string[]): string[] {
  const parts = typeof value === 'string' ? value.split(',') : value;
  return [...new Set(parts.map((part) => part.trim()).filter((part) => part !== ''))];
}

const CallbackUrlsSchema = z
  .union([z.string(), z.array(z.string()).max(100)], { error: MESSAGES.callbackUrlsBlank })
  .optional()
  .transform((value) => splitCallbackUrls(value ?? []))
  .refine((urls) => urls.length > 0, { error: MESSAGES.callbackUrlsBlank })
  .refine((urls) => urls.every(isCallbackUrl), { error: SERVER_MESSAGES.callbackUrlInvalid });

const field = z
  .string()
  .trim()
  .max(4096, { error: MESSAGES.provideAllDetails })
  .optional()
  .transform((value) => (value ? value : undefined));

/** An https (or loopback http) base URL that overrides a provider's public endpoints. */
const IssuerOverrideSchema = z
  .string()
  .trim()
  .max(512)
  .optional()
  .transform((value) => (value ? value.replace(/\/+$/, '') : undefined))
  .refine((value) => value === undefined || /^https?:\/\/[^\s/]+/.test(value), {
    error: SERVER_MESSAGES.issuerInvalid,
  });

/** The fields each provider type needs (access §5 Identity provider). */
export const REQUIRED_PROVIDER_FIELDS: Record<
  IdentityProviderType,
  readonly (
    'client_id' | 'client_secret' | 'provider_name' | 'key_id' | 'team_id' | 'private_key'
  )[]
> = {
  Google: ['client_id', 'client_secret'],
  SignInWithApple: ['client_id', 'provider_name', 'key_id', 'team_id', 'private_key'],
  GitHub: ['client_id', 'client_secret'],
};

/** The secret fields of each provider type: stored sealed, answered masked. */
export const SECRET_PROVIDER_FIELDS = ['client_secret', 'private_key'] as const;

/**
 * `POST` (configure) and `PUT` (edit) `admin/identity_provider`. On an edit a secret left out, or
 * sent back as the masked value the list answered with, keeps the stored one.
 */
export const IdentityProviderBodySchema = z.object({
  provider_type: z.enum(IDENTITY_PROVIDER_TYPES, { error: SERVER_MESSAGES.providerTypeInvalid }),
  client_id: field,
  client_secret: field,
  provider_name: field,
  key_id: field,
  team_id: field,
  private_key: field,
  callback_urls: CallbackUrlsSchema,
  /** Whether the login page offers the provider (GitHub is shown only when enabled). */
  enabled: z.boolean().optional(),
  /** Overrides the provider's issuer / base URL (GitHub Enterprise, a test or staging IdP). */
  issuer: IssuerOverrideSchema,
});
export type IdentityProviderBody = z.input<typeof IdentityProviderBodySchema>;
export type IdentityProviderInput = z.output<typeof IdentityProviderBodySchema>;

/** `DELETE admin/identity_provider`: `{provider_type}` (A.8). */
export const DeleteIdentityProviderBodySchema = z.object({
  provider_type: z.enum(IDENTITY_PROVIDER_TYPES, { error: SERVER_MESSAGES.providerTypeInvalid }),
});

/** One configured provider as the list answers it (secrets masked). */
export const IdentityProviderSchema = z.object({
  provider_type: z.enum(IDENTITY_PROVIDER_TYPES),
  client_id: z.string(),
  client_secret: z.string().optional(),
  provider_name: z.string().optional(),
  key_id: z.string().optional(),
  team_id: z.string().optional(),
  private_key: z.string().optional(),
  callback_urls: z.array(z.string()),
  enabled: z.boolean(),
  issuer: z.string().optional(),
  updated_at: z.number().int(),
});
export type IdentityProvider = z.infer<typeof IdentityProviderSchema>;

/** `GET admin/identity_provider`: the pool's providers keyed by type (A.8). */
export const IdentityProviderListSchema = z.object({
  identity_providers: z.partialRecord(z.enum(IDENTITY_PROVIDER_TYPES), IdentityProviderSchema),
});
export type IdentityProviderList = z.infer<typeof IdentityProviderListSchema>;

/** One app client (A.8 `admin/cognito_appclient`). */
export const AppClientSchema = z.object({
  user_poolid: z.string(),
  client_id: z.string(),
  client_name: z.string(),
  callback_urls: z.array(z.string()),
  identity_providers: z.array(z.string()),
});
export type AppClient = z.infer<typeof AppClientSchema>;
export const AppClientListSchema = z.array(AppClientSchema);

/** `PUT admin/cognito_appclient`: one client's callback URLs and enabled providers. */
export const UpdateAppClientBodySchema = z.object({
  client_id: z.string().trim().min(1, { error: SERVER_MESSAGES.appClientIdMissing }).max(128),
  callback_urls: CallbackUrlsSchema,
  providers: z
    .array(z.enum(IDENTITY_PROVIDER_TYPES, { error: SERVER_MESSAGES.providerTypeInvalid }))
    .max(IDENTITY_PROVIDER_TYPES.length)
    .default([])
    .transform((providers) => [...new Set(providers)]),
});
export type UpdateAppClientBody = z.input<typeof UpdateAppClientBodySchema>;

/** `POST admin/cognito_domain`: the hosted sign-in domain prefix. */
export const CognitoDomainBodySchema = z.object({
  domain_name: z
    .string({ error: SERVER_MESSAGES.domainMissing })
    .trim()
    .min(1, { error: SERVER_MESSAGES.domainMissing })
    .regex(DOMAIN_NAME_PATTERN, { error: SERVER_MESSAGES.domainInvalid }),
});
export type CognitoDomainBody = z.infer<typeof CognitoDomainBodySchema>;

/** `GET admin/cognito_domain`: null when none is configured. */
export const CognitoDomainSchema = z.object({ domain_name: z.string().nullable() });
export type CognitoDomain = z.infer<typeof CognitoDomainSchema>;

/** `GET admin/deployment_settings/cognito_appclient`: the stored backup of the app clients. */
export const AppClientBackupSchema = z.object({
  user_poolid: z.string(),
  /** When the backup was taken, epoch seconds. */
  created_at: z.number().int(),
  client_count: z.number().int(),
  app_clients: AppClientListSchema,
});
export type AppClientBackup = z.infer<typeof AppClientBackupSchema>;

/** `GET admin/rainmaker_deployment_details`: facts of the running configuration, read-only. */
export const DeploymentDetailsSchema = z.object({
  account_id: z.string(),
  region: z.string(),
  build_info: z.string(),
  base_url: z.string(),
  mqtt_endpoint: z.string(),
  user_pool_id: z.string(),
  app_client_id: z.string(),
  /** The Cognito domain of this pool, when one is configured. */
  oauth_domain: z.string().nullable(),
  /** Whether this pool is the one sign-ins use (USER_POOL). */
  active_pool: z.boolean(),
});
export type DeploymentDetails = z.infer<typeof DeploymentDetailsSchema>;

/** `GET /v1/oauth2/authorize`: starts a social sign-in. */
export const OAuthAuthorizeQuerySchema = z.object({
  identity_provider: z.enum(IDENTITY_PROVIDER_TYPES, {
    error: SERVER_MESSAGES.providerTypeInvalid,
  }),
  redirect_uri: z.string().trim().max(1024).optional(),
  /** An app that redeems the code itself proves it with PKCE (S256). */
  code_challenge: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, { error: SERVER_MESSAGES.invalidQueryParam })
    .optional(),
  code_challenge_method: z.literal('S256').optional(),
});
export type OAuthAuthorizeQuery = z.infer<typeof OAuthAuthorizeQuerySchema>;

/** `GET /v1/oauth2/callback` (and the form_post variant): what the provider sends back. */
export const OAuthCallbackQuerySchema = z.object({
  state: z.string().max(256).optional(),
  code: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(1024).optional(),
  iss: z.string().max(512).optional(),
  user: z.string().max(4096).optional(),
});
export type OAuthCallbackQuery = z.infer<typeof OAuthCallbackQuerySchema>;

/** `POST /v1/oauth2/token`: an app redeems the one-time code of a social sign-in. */
export const OAuthTokenBodySchema = z.object({
  grant_type: z.literal('authorization_code'),
  code: z.string().min(1).max(256),
  redirect_uri: z.string().min(1).max(1024),
  code_verifier: z.string().min(43).max(128),
});
export type OAuthTokenBody = z.infer<typeof OAuthTokenBodySchema>;

/**
 * The refusals a social sign-in reports to its return URL (`error_description`). The /socialauth
 * screen shows one of these, never text taken from the URL (a crafted link could carry any).
 */
export const SOCIAL_SIGN_IN_REFUSALS: readonly string[] = [
  SERVER_MESSAGES.oauthStateInvalid,
  SERVER_MESSAGES.redirectUriNotAllowed,
  SERVER_MESSAGES.socialSignInFailed,
  SERVER_MESSAGES.socialProviderUnavailable,
  SERVER_MESSAGES.socialEmailMissing,
];

/**
 * What /socialauth says about a refused sign-in: our own message when the description is one of
 * ours, else a fixed message for the OAuth error code, else a generic one.
 */
export function socialRefusalMessage(error: string | null, description: string | null): string {
  if (description !== null && SOCIAL_SIGN_IN_REFUSALS.includes(description)) return description;
  if (error === 'invalid_request') return SERVER_MESSAGES.oauthStateInvalid;
  if (error === 'access_denied') return SERVER_MESSAGES.socialSignInFailed;
  return MESSAGES.socialSignInRefused;
}
