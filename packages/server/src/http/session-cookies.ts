import {
  ACCESS_TOKEN_COOKIE,
  DEFAULT_COOKIE_LIFE_DAYS,
  MARKER_COOKIES,
  REFRESH_TOKEN_COOKIE,
  REFRESH_TOKEN_TTL_SECONDS,
} from '@fleetdeck/contract';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply } from 'fastify';
import type { AppConfig } from '../config/env.js';
import type { IssuedTokens } from '../services/auth/auth.service.js';

const MARKER_MAX_AGE = DEFAULT_COOKIE_LIFE_DAYS * 24 * 3600;
/** The refresh cookie is sent only to the API, never with page or asset requests. */
const REFRESH_COOKIE_PATH = '/v1';

function secret(config: AppConfig, maxAge: number, path = '/'): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'strict', secure: config.secureCookies, path, maxAge };
}

function marker(config: AppConfig): CookieSerializeOptions {
  return {
    httpOnly: false,
    sameSite: 'strict',
    secure: config.secureCookies,
    path: '/',
    maxAge: MARKER_MAX_AGE,
  };
}

/** Sets ATK (and RTK when a new one was issued) as HttpOnly cookies, plus the readable markers. */
export function setSessionCookies(
  reply: FastifyReply,
  config: AppConfig,
  issued: IssuedTokens,
): void {
  reply.setCookie(
    ACCESS_TOKEN_COOKIE,
    issued.accessToken,
    secret(config, config.accessTokenTtlSeconds),
  );
  if (issued.refreshToken) {
    reply.setCookie(
      REFRESH_TOKEN_COOKIE,
      issued.refreshToken,
      secret(config, REFRESH_TOKEN_TTL_SECONDS, REFRESH_COOKIE_PATH),
    );
  }
  reply.setCookie(MARKER_COOKIES.userName, issued.user.userName, marker(config));
  reply.setCookie(MARKER_COOKIES.userRole, issued.user.roles.join(','), marker(config));
  reply.setCookie(MARKER_COOKIES.admin, String(issued.user.superAdmin), marker(config));
  if (config.deploymentMode === 'customer')
    reply.setCookie(MARKER_COOKIES.customer, 'true', marker(config));
  else reply.clearCookie(MARKER_COOKIES.customer, { path: '/' });
}

/** Clears every session cookie. */
export function clearSessionCookies(reply: FastifyReply, config: AppConfig): void {
  reply.clearCookie(ACCESS_TOKEN_COOKIE, secret(config, 0));
  reply.clearCookie(REFRESH_TOKEN_COOKIE, secret(config, 0, REFRESH_COOKIE_PATH));
  for (const name of [
    MARKER_COOKIES.userName,
    MARKER_COOKIES.userRole,
    MARKER_COOKIES.admin,
    MARKER_COOKIES.customer,
  ]) {
    reply.clearCookie(name, { path: '/' });
  }
}
