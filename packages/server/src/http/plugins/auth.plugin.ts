import {
  ACCESS_TOKEN_COOKIE,
  CSRF_HEADER,
  CSRF_HEADER_VALUE,
  ERROR_CODES,
  REFRESH_TOKEN_COOKIE,
  SERVER_MESSAGES,
  type Permission,
} from '@fleetdeck/contract';
import type {
  FastifyInstance,
  FastifyRequest,
  onRequestHookHandler,
  preValidationAsyncHookHandler,
} from 'fastify';
import { AppError, forbidden, unauthorized } from '../../errors.js';
import type { AuthContext, AuthService } from '../../services/auth/auth.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireAuth` for authenticated routes. */
    auth: AuthContext | null;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The access token of a request: the raw `Authorization` value (or `Bearer x`), else the ATK cookie. */
export function accessTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization?.trim();
  if (header) return header.replace(/^Bearer\s+/i, '');
  return request.cookies[ACCESS_TOKEN_COOKIE] || undefined;
}

/** Whether the caller is the SPA (it sends the CSRF header; tokens stay in HttpOnly cookies). */
export function isBrowserClient(request: FastifyRequest): boolean {
  return request.headers[CSRF_HEADER] === CSRF_HEADER_VALUE;
}

/**
 * CSRF defence for every write: a request from another origin is refused, and a write that
 * authenticates by cookie must carry the custom header a cross-site page cannot send.
 */
export function registerCsrfGuard(app: FastifyInstance, allowedOrigins: readonly string[]): void {
  app.decorateRequest('auth', null);
  const csrfGuard: onRequestHookHandler = (request, _reply, done) => {
    if (!UNSAFE_METHODS.has(request.method)) return done();
    const origin = request.headers.origin;
    if (origin !== undefined) {
      const sameHost = origin === `${request.protocol}://${request.host}`;
      if (!sameHost && !allowedOrigins.includes(origin)) {
        return done(new AppError(403, ERROR_CODES.csrfMissing, SERVER_MESSAGES.crossOrigin));
      }
    }
    const usesCookies =
      !request.headers.authorization &&
      (request.cookies[ACCESS_TOKEN_COOKIE] || request.cookies[REFRESH_TOKEN_COOKIE]);
    if (usesCookies && request.headers[CSRF_HEADER] !== CSRF_HEADER_VALUE) {
      return done(new AppError(403, ERROR_CODES.csrfMissing, SERVER_MESSAGES.csrfMissing));
    }
    done();
  };
  app.addHook('onRequest', csrfGuard);
}

/**
 * A preValidation hook that requires a live session and, optionally, every listed permission. The
 * server enforces permissions here for every route; the SPA only hides. It runs before the body
 * and query are validated, so a caller without the right gets 401/403 and never learns what a
 * valid request to the route would look like.
 */
export function requireAuth(
  auth: AuthService,
  ...permissions: Permission[]
): preValidationAsyncHookHandler {
  return async (request) => {
    const token = accessTokenOf(request);
    if (!token) throw unauthorized(ERROR_CODES.accessTokenMissing);
    const context = await auth.authenticate(token);
    if (!context) throw unauthorized(ERROR_CODES.loggedOut);
    if (!permissions.every((permission) => context.user.permissions.includes(permission)))
      throw forbidden();
    request.auth = context;
  };
}

/** The authenticated context of a route guarded by `requireAuth`. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}
