import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  API_PATHS,
  ERROR_CODES,
  SERVER_MESSAGES,
  SOCIAL_AUTH_PATH,
  type IdentityProviderType,
} from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import * as oidc from 'openid-client';
import type { AppConfig } from '../../config/env.js';
import type { Database, OAuthRequestsTable } from '../../db/schema.js';
import { AppError, badRequest } from '../../errors.js';
import type { Logger } from '../../logger.js';
import {
  claimOAuthRequest,
  findSocialIdentity,
  insertOAuthRequest,
  insertSocialIdentity,
  purgeOAuthRequests,
  touchSocialIdentity,
} from '../../repositories/identity.repository.js';
import { findUserById, findUserByName, insertUser } from '../../repositories/user.repository.js';
import type { AuthService, ClientMeta, IssuedTokens } from '../auth/auth.service.js';
import type { MfaChallenge } from '../auth/mfa.service.js';
import { recordUsersCreated } from '../stats/stats-events.js';
import {
  ProviderClients,
  ProviderRefusal,
  type ProviderIdentity,
} from './identity-provider-clients.js';
import type { IdentitySettingsService } from './identity-settings.service.js';
import { transactionWithRetry } from '../../db/transaction-retry.js';

/** A pending sign-in lives this long (the person is at the provider meanwhile). */
const STATE_TTL_SECONDS = 10 * 60;
/** An app must redeem its one-time code this quickly. */
const CODE_TTL_SECONDS = 2 * 60;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Where the callback sends the browser, and whether it started a browser session. */
export type CallbackOutcome =
  | { kind: 'refused'; location: string }
  | { kind: 'session'; location: string; issued: IssuedTokens }
  | { kind: 'mfa'; location: string; step: SocialMfaStep }
  | { kind: 'code'; location: string };

/** The second factor still owed after a social sign-in of an account with MFA. */
export interface SocialMfaStep {
  userName: string;
  challenge: MfaChallenge;
}

/** What redeeming an app's code gives: tokens, or the MFA step to complete at /v1/login2. */
export type RedeemOutcome =
  { kind: 'tokens'; issued: IssuedTokens } | ({ kind: 'mfa' } & SocialMfaStep);

/** A sign-in refused inside the flow (after the state was verified): reported to the return URL. */
class SignInRefused extends Error {}

/**
 * Fleetdeck's own OAuth 2.0 authorisation server for social sign-in (ADR 12): it starts the
 * provider's authorisation-code flow with PKCE, state and nonce, verifies the answer, links the
 * provider identity (issuer, subject) to an account and starts a Fleetdeck session. The return URL
 * must be one of the app client's callback URLs exactly. The dashboard (same origin) gets its
 * session as HttpOnly cookies and nothing secret in the URL; other apps get a one-time code they
 * redeem at /v1/oauth2/token with their PKCE verifier.
 */
export class SocialSignInService {
  private readonly clients = new ProviderClients();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: IdentitySettingsService,
    private readonly auth: AuthService,
    private readonly config: AppConfig,
    private readonly logger: Logger,
  ) {}

  /** The URL the provider returns the browser to. */
  get callbackUrl(): string {
    return `${this.config.publicUrl}${API_PATHS.oauthCallback}`;
  }

  private isDashboard(redirectUri: string): boolean {
    try {
      return new URL(redirectUri).origin === new URL(this.config.publicUrl).origin;
    } catch {
      return false;
    }
  }

  /**
   * Starts a sign-in: checks the provider is offered and the return URL is allowed, stores the
   * state, and answers the provider URL plus the state for the browser-binding cookie.
   */
  async authorize(
    type: IdentityProviderType,
    redirectUri: string | undefined,
    appCodeChallenge: string | undefined,
  ): Promise<{ url: string; state: string }> {
    const pool = this.config.userPool;
    // Customer mode hides the buttons on the dashboard's login page only: the pool's app clients
    // (end users' apps) still sign in through the configured providers (ADR 12).
    if (!(await this.settings.signInProviders()).includes(type)) {
      const noDomain = (await this.settings.domain(pool)) === null;
      throw badRequest(
        noDomain ? SERVER_MESSAGES.socialDomainMissing : SERVER_MESSAGES.socialProviderUnavailable,
        ERROR_CODES.identityProviderNotFound,
      );
    }
    const returnTo = redirectUri ?? `${this.config.publicUrl}${SOCIAL_AUTH_PATH}`;
    const client = await this.settings.defaultAppClient(pool);
    if (!client.callback_urls.includes(returnTo))
      throw badRequest(SERVER_MESSAGES.redirectUriNotAllowed, ERROR_CODES.callbackUrlInvalid);
    // An app (another origin) redeems a code, so it must prove it started the flow.
    if (!this.isDashboard(returnTo) && !appCodeChallenge)
      throw badRequest(SERVER_MESSAGES.invalidQueryParam, ERROR_CODES.invalidQueryParam);
    const providerSettings = await this.settings.providerSettings(pool, type);
    if (!providerSettings)
      throw badRequest(
        SERVER_MESSAGES.socialProviderUnavailable,
        ERROR_CODES.identityProviderNotFound,
      );
    const checks = {
      state: oidc.randomState(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
      nonce: type === 'GitHub' ? undefined : oidc.randomNonce(),
    };
    let url: URL;
    try {
      url = await this.clients.authorizationUrl(providerSettings, this.callbackUrl, checks);
    } catch (error) {
      this.logger.warn({ err: error, provider: type }, 'social sign-in could not start');
      throw new AppError(502, ERROR_CODES.socialSignInRefused, SERVER_MESSAGES.socialSignInFailed);
    }
    const now = nowSeconds();
    await purgeOAuthRequests(this.db, now - 3600);
    await insertOAuthRequest(this.db, {
      key_hash: sha256(checks.state),
      kind: 'state',
      pool,
      provider_type: type,
      redirect_uri: returnTo,
      code_verifier: checks.codeVerifier,
      nonce: checks.nonce ?? null,
      app_code_challenge: appCodeChallenge ?? null,
      user_id: null,
      created_at: now,
      expires_at: now + STATE_TTL_SECONDS,
      used_at: null,
    });
    return { url: url.toString(), state: checks.state };
  }

  /**
   * Completes a sign-in from the provider's answer. The state must match the browser's binding
   * cookie and a live, unused pending sign-in; everything after that is reported to the return URL.
   */
  async callback(
    params: URLSearchParams,
    bindingState: string | undefined,
    meta: ClientMeta,
  ): Promise<CallbackOutcome> {
    const state = params.get('state');
    const refusedHere = {
      kind: 'refused' as const,
      location: withParams(`${this.config.publicUrl}${SOCIAL_AUTH_PATH}`, {
        error: 'invalid_request',
        error_description: SERVER_MESSAGES.oauthStateInvalid,
      }),
    };
    if (!state || !bindingState || bindingState !== state) return refusedHere;
    const request = await claimOAuthRequest(this.db, sha256(state), 'state', nowSeconds());
    if (!request) return refusedHere;
    try {
      return await this.finish(request, state, params, meta);
    } catch (error) {
      if (!(error instanceof SignInRefused)) throw error;
      return {
        kind: 'refused',
        location: withParams(request.redirect_uri, {
          error: 'access_denied',
          error_description: error.message,
        }),
      };
    }
  }

  private async finish(
    request: OAuthRequestsTable,
    state: string,
    params: URLSearchParams,
    meta: ClientMeta,
  ): Promise<CallbackOutcome> {
    const type = request.provider_type as IdentityProviderType;
    if (params.get('error')) throw new SignInRefused(SERVER_MESSAGES.socialSignInFailed);
    // A callback URL removed while the person was at the provider no longer receives anything.
    const client = await this.settings.defaultAppClient(request.pool as 'email_mobile' | 'email');
    if (!client.callback_urls.includes(request.redirect_uri))
      return {
        kind: 'refused',
        location: withParams(`${this.config.publicUrl}${SOCIAL_AUTH_PATH}`, {
          error: 'invalid_request',
          error_description: SERVER_MESSAGES.redirectUriNotAllowed,
        }),
      };
    const providerSettings = await this.settings.providerSettings(
      request.pool as 'email_mobile' | 'email',
      type,
    );
    if (!providerSettings) throw new SignInRefused(SERVER_MESSAGES.socialProviderUnavailable);
    let identity: ProviderIdentity;
    try {
      identity = await this.clients.complete(providerSettings, this.callbackUrl, params, {
        state,
        codeVerifier: request.code_verifier ?? '',
        nonce: request.nonce ?? undefined,
      });
    } catch (error) {
      if (!(error instanceof ProviderRefusal)) throw error;
      this.logger.warn({ err: error, provider: type }, 'social sign-in refused');
      throw new SignInRefused(SERVER_MESSAGES.socialSignInFailed);
    }
    const userId = await this.resolveUser(identity, type);
    if (this.isDashboard(request.redirect_uri)) {
      const outcome = await this.auth.loginWithIdentity(userId, meta);
      if (outcome.kind === 'tokens')
        return { kind: 'session', location: request.redirect_uri, issued: outcome.issued };
      // The account has a second factor: the dashboard asks for it (/socialauth?mfa=1 picks the
      // step up from an HttpOnly cookie, so the step's session never shows in the URL).
      return {
        kind: 'mfa',
        location: withParams(request.redirect_uri, { mfa: '1' }),
        step: { userName: await this.userNameOf(userId), challenge: outcome.challenge },
      };
    }
    const code = randomBytes(32).toString('base64url');
    const now = nowSeconds();
    await insertOAuthRequest(this.db, {
      key_hash: sha256(code),
      kind: 'code',
      pool: request.pool,
      provider_type: type,
      redirect_uri: request.redirect_uri,
      code_verifier: null,
      nonce: null,
      app_code_challenge: request.app_code_challenge,
      user_id: userId,
      created_at: now,
      expires_at: now + CODE_TTL_SECONDS,
      used_at: null,
    });
    return { kind: 'code', location: withParams(request.redirect_uri, { code }) };
  }

  /**
   * The account of a provider identity: the linked one; else the account with the same e-mail,
   * linked only when the provider verified the address; else a new end-user account (verified
   * e-mail required, so nobody can claim an address they do not own). A refusal reads the same
   * whether or not an account has the address, so a sign-in does not tell who has an account.
   */
  private async resolveUser(
    identity: ProviderIdentity,
    type: IdentityProviderType,
  ): Promise<string> {
    const now = nowSeconds();
    return transactionWithRetry(this.db, async (trx) => {
      const linked = await findSocialIdentity(trx, identity.issuer, identity.subject);
      if (linked) {
        await touchSocialIdentity(
          trx,
          identity.issuer,
          identity.subject,
          identity.email ?? null,
          now,
        );
        return linked.user_id;
      }
      if (!identity.email || !identity.emailVerified)
        throw new SignInRefused(SERVER_MESSAGES.socialEmailMissing);
      const existing = await findUserByName(trx, identity.email);
      let userId: string;
      if (existing) {
        userId = existing.user_id;
      } else {
        userId = randomUUID();
        await insertUser(
          trx,
          {
            user_id: userId,
            user_name: identity.email,
            password_hash: null,
            name: (identity.name ?? '').slice(0, 128),
            super_admin: 0,
            verified: 1,
            mfa: 0,
            phone_number: null,
            created_at: now,
            updated_at: now,
            password_changed_at: null,
          },
          ['user'],
        );
        await recordUsersCreated(trx, 1, now);
      }
      await insertSocialIdentity(trx, {
        issuer: identity.issuer,
        subject: identity.subject,
        user_id: userId,
        provider_type: type,
        email: identity.email,
        created_at: now,
        last_login_at: now,
      });
      return userId;
    });
  }

  /** An app redeems its one-time code (with the PKCE verifier of its authorisation request). */
  async redeem(
    code: string,
    redirectUri: string,
    codeVerifier: string,
    meta: ClientMeta,
  ): Promise<RedeemOutcome> {
    const request = await claimOAuthRequest(this.db, sha256(code), 'code', nowSeconds());
    const challenge = createHash('sha256').update(codeVerifier).digest('base64url');
    if (
      !request?.user_id ||
      request.redirect_uri !== redirectUri ||
      request.app_code_challenge !== challenge
    )
      throw badRequest(SERVER_MESSAGES.oauthCodeInvalid, ERROR_CODES.socialSignInRefused);
    const outcome = await this.auth.loginWithIdentity(request.user_id, meta);
    if (outcome.kind === 'tokens') return outcome;
    return {
      kind: 'mfa',
      userName: await this.userNameOf(request.user_id),
      challenge: outcome.challenge,
    };
  }

  private async userNameOf(userId: string): Promise<string> {
    const user = await findUserById(this.db, userId);
    if (!user)
      throw badRequest(SERVER_MESSAGES.socialSignInFailed, ERROR_CODES.socialSignInRefused);
    return user.user_name;
  }
}

/** Adds query parameters to a URL (keeping those it has). */
function withParams(url: string, params: Record<string, string>): string {
  const target = new URL(url);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  return target.toString();
}
