import {
  API_PATHS,
  ERROR_CODES,
  LoginResponseSchema,
  OAuthAuthorizeQuerySchema,
  OAuthCallbackQuerySchema,
  OAuthTokenBodySchema,
  SERVER_MESSAGES,
  SocialMfaStepSchema,
  type SocialMfaStep,
} from '@fleetdeck/contract';
import { z } from 'zod';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppConfig } from '../../config/env.js';
import type {
  SocialMfaStep as PendingStep,
  SocialSignInService,
} from '../../services/identity/social-sign-in.service.js';
import { AppError } from '../../errors.js';
import { setSessionCookies } from '../session-cookies.js';

export interface IdentityOAuthRoutesOptions {
  config: AppConfig;
  social: SocialSignInService;
  rateLimit: { max: number; timeWindow: number };
}

/** Binds a sign-in to the browser that started it (no login CSRF); Lax so the return GET has it. */
const STATE_COOKIE = 'fd_oauth_state';
/**
 * Carries Apple's form POST (its one-time code, state and user) to the GET callback the browser
 * follows, for a minute, so the code never stands in a URL (browser history, proxy logs).
 */
const RETURN_COOKIE = 'fd_oauth_return';
/** Seconds the form POST's values wait for the browser's GET. */
const RETURN_COOKIE_SECONDS = 60;
/** Larger values (an unusually long `user` document) go in the URL as before: cookies hold ~4 KB. */
const RETURN_COOKIE_MAX_CHARS = 3_500;
/** Carries the MFA step of a social sign-in from the callback to /socialauth, for 5 minutes. */
const MFA_STEP_COOKIE = 'fd_oauth_mfa';

/** The answer that tells a client which second factor to ask for. */
function stepBody(step: PendingStep): SocialMfaStep {
  const { challenge } = step;
  return {
    status: 'success',
    description:
      challenge.challenge === 'totp' ? SERVER_MESSAGES.mfaTotpRequired : SERVER_MESSAGES.mfaSmsSent,
    session: challenge.session,
    challenge: challenge.challenge,
    ...(challenge.phoneHint ? { phone_hint: challenge.phoneHint } : {}),
    user_name: step.userName,
  };
}

/** A cookie value written as base64url JSON, or undefined when it is not one. */
function decodeCookieJson(raw: string): unknown {
  try {
    return JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function stateCookie(config: AppConfig, maxAge: number): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.secureCookies,
    path: '/v1/oauth2',
    maxAge,
  };
}

/**
 * Social sign-in endpoints of Fleetdeck's auth server (ADR 12): authorize → provider → callback
 * (GET, or Apple's form POST turned into a GET) → the return URL; token for apps.
 */
export const identityOAuthRoutes: FastifyPluginAsyncZod<IdentityOAuthRoutesOptions> = async (
  app,
  { config, social, rateLimit },
) => {
  // Apple answers with a form POST; parsed here only (this plugin's scope).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );
  const tags = ['auth'];

  app.get(
    API_PATHS.oauthAuthorize,
    {
      config: { rateLimit },
      schema: {
        tags,
        summary:
          'Start a social sign-in: redirect_uri (default PUBLIC_URL/socialauth) must be one of the app client callback URLs',
        security: [],
        querystring: OAuthAuthorizeQuerySchema,
      },
    },
    async (request, reply) => {
      const { identity_provider: provider, redirect_uri: redirectUri } = request.query;
      const { url, state } = await social.authorize(
        provider,
        redirectUri,
        request.query.code_challenge,
      );
      reply.setCookie(STATE_COOKIE, state, stateCookie(config, 600));
      reply.header('cache-control', 'no-store');
      return reply.redirect(url, 302);
    },
  );

  const complete = async (
    request: FastifyRequest,
    reply: FastifyReply,
    params: URLSearchParams,
  ) => {
    const outcome = await social.callback(params, request.cookies[STATE_COOKIE], {
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    });
    reply.clearCookie(STATE_COOKIE, stateCookie(config, 0));
    reply.header('cache-control', 'no-store');
    reply.header('referrer-policy', 'no-referrer');
    if (outcome.kind === 'session') setSessionCookies(reply, config, outcome.issued);
    if (outcome.kind === 'mfa')
      reply.setCookie(
        MFA_STEP_COOKIE,
        Buffer.from(JSON.stringify(stepBody(outcome.step))).toString('base64url'),
        stateCookie(config, 300),
      );
    return reply.redirect(outcome.location, 303);
  };

  app.get(
    API_PATHS.oauthMfaStep,
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: 'The second factor owed after a social sign-in (read once from its cookie)',
        security: [],
        response: { 200: SocialMfaStepSchema },
      },
    },
    async (request, reply) => {
      const raw = request.cookies[MFA_STEP_COOKIE];
      reply.clearCookie(MFA_STEP_COOKIE, stateCookie(config, 0));
      reply.header('cache-control', 'no-store');
      const parsed = raw ? SocialMfaStepSchema.safeParse(decodeCookieJson(raw)) : undefined;
      if (!parsed?.success)
        throw new AppError(400, ERROR_CODES.mfaSessionMissing, SERVER_MESSAGES.mfaSessionInvalid);
      return parsed.data;
    },
  );

  app.get(
    API_PATHS.oauthCallback,
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: "The provider's return: verifies state, code (PKCE) and ID token, then signs in",
        security: [],
        querystring: OAuthCallbackQuerySchema,
      },
    },
    async (request, reply) => {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(request.query))
        if (value !== undefined) params.set(name, value);
      const posted = request.cookies[RETURN_COOKIE];
      if (posted !== undefined) {
        reply.clearCookie(RETURN_COOKIE, stateCookie(config, 0));
        // Only a bare return reads it: a provider's own GET with its query always wins.
        if (params.size === 0) {
          const parsed = OAuthCallbackQuerySchema.safeParse(decodeCookieJson(posted));
          if (parsed.success)
            for (const [name, value] of Object.entries(parsed.data))
              if (value !== undefined) params.set(name, value);
        }
      }
      return complete(request, reply, params);
    },
  );

  app.post(
    API_PATHS.oauthCallback,
    {
      config: { rateLimit },
      schema: {
        tags,
        summary:
          "Apple's form_post return: its values kept in a one-minute cookie, answered with a redirect to the bare GET callback",
        security: [],
        body: OAuthCallbackQuerySchema,
      },
    },
    async (request, reply) => {
      // The state cookie is SameSite=Lax, so a cross-site POST does not carry it; the browser's
      // follow-up GET (a top-level navigation) does.
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(request.body))
        if (value !== undefined) params.set(name, value);
      reply.header('cache-control', 'no-store');
      const carried = Buffer.from(JSON.stringify(Object.fromEntries(params))).toString('base64url');
      if (carried.length > RETURN_COOKIE_MAX_CHARS)
        return reply.redirect(`${API_PATHS.oauthCallback}?${params.toString()}`, 303);
      // Set-Cookie counts on a cross-site POST's answer (SameSite limits sending, not setting).
      reply.setCookie(RETURN_COOKIE, carried, stateCookie(config, RETURN_COOKIE_SECONDS));
      return reply.redirect(API_PATHS.oauthCallback, 303);
    },
  );

  app.post(
    API_PATHS.oauthToken,
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: 'An app redeems the one-time code of a social sign-in with its PKCE verifier',
        security: [],
        body: OAuthTokenBodySchema,
        response: { 200: z.union([LoginResponseSchema, SocialMfaStepSchema]) },
      },
    },
    async (request) => {
      const { code, redirect_uri: redirectUri, code_verifier: verifier } = request.body;
      const outcome = await social.redeem(code, redirectUri, verifier, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      if (outcome.kind === 'mfa') return stepBody(outcome);
      const { issued } = outcome;
      return {
        status: 'success' as const,
        description: SERVER_MESSAGES.loginSuccessful,
        expires_in: config.accessTokenTtlSeconds,
        expires_at: issued.expiresAt,
        accesstoken: issued.accessToken,
        idtoken: issued.idToken,
        ...(issued.refreshToken ? { refreshtoken: issued.refreshToken } : {}),
      };
    },
  );
};
