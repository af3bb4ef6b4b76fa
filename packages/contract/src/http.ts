/** Names shared by the server and the SPA for cookies, headers and API paths. */

/** HttpOnly session cookies (access §3 "Session data"). */
export const ACCESS_TOKEN_COOKIE = 'ATK';
export const REFRESH_TOKEN_COOKIE = 'RTK';
/** Readable, non-secret session markers. */
export const MARKER_COOKIES = {
  userName: 'user_name',
  userRole: 'user_role',
  admin: 'admin',
  customer: 'cst',
  diagnostics: 'Diag',
} as const;

/**
 * Header that cookie-authenticated writes must carry (CSRF defence: a cross-site form cannot set
 * it, and a cross-site script cannot send it without a CORS preflight the server never grants).
 * Its presence also marks a browser client, whose token bodies are withheld from page script.
 */
export const CSRF_HEADER = 'x-fleetdeck-csrf';
export const CSRF_HEADER_VALUE = 'web';

export const API_PREFIX = '/v1';
export const INSIGHTS_PREFIX = '/insights/v1';

export const API_PATHS = {
  login: '/v1/login',
  login2: '/v1/login2',
  logout: '/v1/logout',
  logout2: '/v1/logout2',
  sessionRefresh: '/v1/session/refresh',
  user: '/v1/user',
  user2: '/v1/user2',
  password: '/v1/password',
  password2: '/v1/password2',
  openapi: '/v1/openapi.json',
  deploymentInfo: '/v1/deployment_info',
  outbox: '/v1/admin/outbox',
  identityProvider: '/v1/admin/identity_provider',
  cognitoAppClient: '/v1/admin/cognito_appclient',
  cognitoDomain: '/v1/admin/cognito_domain',
  appClientBackup: '/v1/admin/deployment_settings/cognito_appclient',
  appClientBackupTake: '/v1/admin/deployment_settings/backup/cognito_appclient',
  appClientBackupRestore: '/v1/admin/deployment_settings/restore/cognito_appclient',
  deploymentDetails: '/v1/admin/rainmaker_deployment_details',
  oauthAuthorize: '/v1/oauth2/authorize',
  oauthCallback: '/v1/oauth2/callback',
  oauthToken: '/v1/oauth2/token',
  oauthMfaStep: '/v1/oauth2/mfa_step',
  adminUser2: '/v1/admin/user2',
  adminCustomData: '/v1/admin/custom_data',
  messageTemplate: '/v1/admin/message_template',
  sesVerifiedEmail: '/v1/admin/ses_verified_email',
  forgotPassword: '/v1/forgotpassword',
  forgotPassword2: '/v1/forgotpassword2',
  userTotp: '/v1/user2/totp',
  healthz: '/healthz',
  readyz: '/readyz',
} as const;
