import {
  API_PATHS,
  CurrentUserSchema,
  ERROR_CODES,
  LoginAnswerSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  LogoutBodySchema,
  LogoutQuerySchema,
  MESSAGES,
  PasswordChangeBodySchema,
  REFRESH_TOKEN_COOKIE,
  SERVER_MESSAGES,
  SuccessBodySchema,
  type CurrentUser,
  type LoginAnswer,
  type LoginResponse,
} from '@fleetdeck/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppConfig } from '../../config/env.js';
import { AppError } from '../../errors.js';
import type { AccountService } from '../../services/accounts/account.service.js';
import type { AuthService, ClientMeta, IssuedTokens } from '../../services/auth/auth.service.js';
import { accessTokenOf, authOf, isBrowserClient, requireAuth } from '../plugins/auth.plugin.js';
import { clearSessionCookies, setSessionCookies } from '../session-cookies.js';

export interface AuthRoutesOptions {
  config: AppConfig;
  auth: AuthService;
  /** Phone and authenticator-app state for GET /v1/user (absent in tests that build routes alone). */
  accounts?: AccountService;
  /** Per-IP request cap for the sign-in routes (on top of the failure limits in AuthService). */
  loginRateLimit: { max: number; timeWindow: number };
}

function clientMeta(request: FastifyRequest): ClientMeta {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

/** The login answer: tokens in the body for API clients, only in cookies for the SPA. */
function presentTokens(
  request: FastifyRequest,
  issued: IssuedTokens,
  ttl: number,
  description: string,
): LoginResponse {
  const base = {
    status: 'success' as const,
    description,
    expires_in: ttl,
    expires_at: issued.expiresAt,
  };
  if (isBrowserClient(request)) return base;
  return {
    ...base,
    accesstoken: issued.accessToken,
    idtoken: issued.idToken,
    ...(issued.refreshToken ? { refreshtoken: issued.refreshToken } : {}),
  };
}

/** Sign-in, refresh, current user, logout and password change (RainMaker paths and `…2` variants). */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (
  app,
  { config, auth, accounts, loginRateLimit },
) => {
  const ttl = config.accessTokenTtlSeconds;

  for (const path of [API_PATHS.login, API_PATHS.login2]) {
    app.post(
      path,
      {
        config: { rateLimit: loginRateLimit },
        schema: {
          tags: ['auth'],
          summary:
            'Sign in with user_name and password (an MFA user gets a session for the second step), complete MFA with {user_name, verification_code, session}, or extend a session with refreshtoken',
          security: [],
          body: LoginRequestSchema,
          response: { 200: LoginAnswerSchema },
        },
      },
      async (request, reply): Promise<LoginAnswer> => {
        const body = request.body;
        let issued: IssuedTokens;
        if ('refreshtoken' in body) {
          issued = await auth.refresh(body.refreshtoken);
        } else if ('session' in body) {
          issued = await auth.completeMfaLogin(
            body.user_name,
            body.session,
            body.verification_code,
            clientMeta(request),
          );
        } else {
          const outcome = await auth.login(body.user_name, body.password, clientMeta(request));
          if (outcome.kind === 'mfa') {
            const { challenge } = outcome;
            return {
              status: 'success',
              description:
                challenge.challenge === 'totp'
                  ? SERVER_MESSAGES.mfaTotpRequired
                  : SERVER_MESSAGES.mfaSmsSent,
              session: challenge.session,
              challenge: challenge.challenge,
              ...(challenge.phoneHint ? { phone_hint: challenge.phoneHint } : {}),
            };
          }
          issued = outcome.issued;
        }
        setSessionCookies(reply, config, issued);
        return presentTokens(request, issued, ttl, SERVER_MESSAGES.loginSuccessful);
      },
    );
  }

  app.post(
    API_PATHS.sessionRefresh,
    {
      config: { rateLimit: loginRateLimit },
      schema: {
        tags: ['auth'],
        summary: 'Extend the browser session with the RTK cookie (rotates the refresh token)',
        security: [{ RefreshCookie: [] }],
        response: { 200: LoginResponseSchema },
      },
    },
    async (request, reply) => {
      const token = request.cookies[REFRESH_TOKEN_COOKIE];
      if (!token)
        throw new AppError(401, ERROR_CODES.refreshFailed, MESSAGES.unauthorizedDescription);
      try {
        const issued = await auth.refresh(token);
        setSessionCookies(reply, config, issued);
        return presentTokens(request, issued, ttl, SERVER_MESSAGES.loginSuccessful);
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 401)
          clearSessionCookies(reply, config);
        throw error;
      }
    },
  );

  for (const path of [API_PATHS.user, API_PATHS.user2]) {
    app.get(
      path,
      {
        preValidation: requireAuth(auth),
        schema: {
          tags: ['auth'],
          summary: 'The signed-in user',
          response: { 200: CurrentUserSchema },
        },
      },
      async (request): Promise<CurrentUser> => {
        const { user, expiresAt } = authOf(request);
        const profile = accounts ? await accounts.profile(user.userId) : undefined;
        return {
          user_id: user.userId,
          user_name: user.userName,
          email: user.userName,
          name: user.name,
          super_admin: user.superAdmin,
          admin: user.permissions.includes('admin'),
          user_role: user.roles,
          permissions: user.permissions,
          email_user: user.emailUser,
          mfa: user.mfa,
          ...(profile
            ? {
                phone_number: profile.phoneNumber,
                pending_phone_number: profile.pendingPhoneNumber,
                totp_enabled: profile.totpEnabled,
              }
            : {}),
          deployment_mode: config.deploymentMode,
          session_expires_at: expiresAt,
        };
      },
    );
  }

  const logoutSchema = {
    tags: ['auth'],
    summary: 'End this session (or every session of the user with logout_all=true)',
    querystring: LogoutQuerySchema,
    body: LogoutBodySchema,
    response: { 200: SuccessBodySchema },
  };
  // Documented as public: it needs no access token (the OpenAPI document's `security: []`).
  const publicLogoutSchema = { ...logoutSchema, security: [] };

  // The deprecated /logout works without a valid access token (RainMaker): it ends whatever
  // session the cookies or body point at, and always clears the cookies.
  app.post(API_PATHS.logout, { schema: publicLogoutSchema }, async (request, reply) => {
    const all = request.query.logout_all === 'true';
    const token = accessTokenOf(request);
    const context = token ? await auth.authenticate(token) : undefined;
    if (context)
      await auth.logout({ sessionId: context.sessionId, userId: context.user.userId }, all);
    const refresh = request.body?.refreshtoken ?? request.cookies[REFRESH_TOKEN_COOKIE];
    if (refresh) await auth.logoutByRefreshToken(refresh, all);
    clearSessionCookies(reply, config);
    return { status: 'success' as const, description: SERVER_MESSAGES.logoutSuccessful };
  });

  app.post(
    API_PATHS.logout2,
    { preValidation: requireAuth(auth), schema: logoutSchema },
    async (request, reply) => {
      const context = authOf(request);
      await auth.logout(
        { sessionId: context.sessionId, userId: context.user.userId },
        request.query.logout_all === 'true',
      );
      clearSessionCookies(reply, config);
      return { status: 'success' as const, description: SERVER_MESSAGES.logoutSuccessful };
    },
  );

  for (const path of [API_PATHS.password, API_PATHS.password2]) {
    app.put(
      path,
      {
        preValidation: requireAuth(auth, 'user.self'),
        schema: {
          tags: ['auth'],
          summary: 'Change the password; every session of the user ends and a new one starts',
          body: PasswordChangeBodySchema,
          response: { 200: LoginResponseSchema },
        },
      },
      async (request, reply) => {
        const issued = await auth.changePassword(
          authOf(request),
          request.body.password,
          request.body.newpassword,
          clientMeta(request),
        );
        setSessionCookies(reply, config, issued);
        return presentTokens(request, issued, ttl, MESSAGES.passwordChanged);
      },
    );
  }
};
