import { randomUUID } from 'node:crypto';
import {
  DEFAULT_COOKIE_LIFE_DAYS,
  ERROR_CODES,
  isRole,
  REFRESH_TOKEN_TTL_SECONDS,
  SERVER_MESSAGES,
  type Permission,
  type Role,
} from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError, badRequest, tooManyRequests } from '../../errors.js';
import { findPermissionsOfRoles } from '../../repositories/role.repository.js';
import {
  claimRotation,
  findRefreshToken,
  findSession,
  insertRefreshToken,
  insertSession,
  revokeSession,
  revokeUserSessions,
} from '../../repositories/session.repository.js';
import {
  findUserById,
  findUserByName,
  replacePasswordHash,
  type UserRecord,
} from '../../repositories/user.repository.js';
import { isCommonPassword } from './common-passwords.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password.js';
import { AuthContextCache } from './auth-context-cache.js';
import { memoryLimiters, type LimiterFactory, type WindowLimiter } from './rate-limiter.js';
import type { MfaChallenge, MfaService } from './mfa.service.js';
import { hashRefreshToken, newRefreshToken, type TokenService } from './token.service.js';
import { transactionWithRetry } from '../../db/transaction-retry.js';

/** The signed-in user as every route sees it. */
export interface AuthUser {
  userId: string;
  userName: string;
  name: string;
  superAdmin: boolean;
  roles: Role[];
  permissions: Permission[];
  emailUser: boolean;
  mfa: boolean;
}

/** An authenticated request's identity and session. */
export interface AuthContext {
  user: AuthUser;
  sessionId: string;
  expiresAt: number;
}

/** Tokens handed out by a login, refresh or password change. */
export interface IssuedTokens {
  user: AuthUser;
  sessionId: string;
  accessToken: string;
  /** Absent when a just-rotated refresh token was replayed inside the grace window. */
  refreshToken: string | undefined;
  idToken: string;
  expiresAt: number;
}

/** A password sign-in: tokens, or (for an MFA user) the second step to complete first. */
export type LoginOutcome =
  { kind: 'tokens'; issued: IssuedTokens } | { kind: 'mfa'; challenge: MfaChallenge };

/** A place taken in the failed-sign-in windows for one attempt (see AuthService.takeAttempt). */
interface SignInAttempt {
  /** Gives the place back: the attempt was not a failure. */
  withdraw(): Promise<void>;
  /** The credentials were right: clears the account's window and gives the IP's place back. */
  succeed(): Promise<void>;
}

/** The remembered tokens to drop: a user's, or one session's. */
export interface ForgottenTokens {
  userId?: string;
  sessionId?: string;
}

/** Who is asking: used for rate limits and stored with the session. */
export interface ClientMeta {
  ip: string;
  userAgent: string | undefined;
}

export interface AuthServiceOptions {
  /** Failed sign-ins allowed per account per window. */
  accountFailureLimit: number;
  /** Failed sign-ins allowed per IP per window. */
  ipFailureLimit: number;
  failureWindowMs: number;
  /** A rotated refresh token replayed within this many seconds is a concurrent tab, not theft. */
  rotationGraceSeconds: number;
  /** How long a resolved access token is remembered (0 turns the cache off). */
  contextCacheMs: number;
  clock: () => number;
  /** Where the failure windows live: this process (the default) or Redis (ADR 38). */
  limiters: LimiterFactory;
}

export const DEFAULT_AUTH_OPTIONS: AuthServiceOptions = {
  accountFailureLimit: 5,
  ipFailureLimit: 20,
  failureWindowMs: 15 * 60 * 1000,
  rotationGraceSeconds: 30,
  contextCacheMs: 5000,
  clock: Date.now,
  limiters: memoryLimiters,
};

const SESSION_MAX_AGE_SECONDS = DEFAULT_COOKIE_LIFE_DAYS * 24 * 3600;

/** Sign-in, sessions with rotating refresh tokens, logout and password change. */
export class AuthService {
  private readonly accountFailures: WindowLimiter;
  private readonly ipFailures: WindowLimiter;
  private readonly contexts: AuthContextCache;
  private mfa: MfaService | undefined;
  private peers: ((forgotten: ForgottenTokens) => void) | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly tokens: TokenService,
    private readonly options: AuthServiceOptions = DEFAULT_AUTH_OPTIONS,
  ) {
    this.accountFailures = options.limiters(
      'sign-in-account',
      options.accountFailureLimit,
      options.failureWindowMs,
      options.clock,
    );
    this.contexts = new AuthContextCache(options.contextCacheMs, options.clock);
    this.ipFailures = options.limiters(
      'sign-in-ip',
      options.ipFailureLimit,
      options.failureWindowMs,
      options.clock,
    );
  }

  /** Plugs in the second factors; without them password sign-ins never ask for a code. */
  attachMfa(mfa: MfaService): void {
    this.mfa = mfa;
  }

  private nowSeconds(): number {
    return Math.floor(this.options.clock() / 1000);
  }

  /**
   * Password sign-in. Unknown users and wrong passwords get the same answer in the same time. A
   * user with a second factor gets the MFA step instead of tokens.
   */
  async login(userName: string, password: string, meta: ClientMeta): Promise<LoginOutcome> {
    const accountKey = userName.trim().toLowerCase();
    const attempt = await this.takeAttempt(accountKey, meta.ip);
    let user: UserRecord | undefined;
    let valid: boolean;
    try {
      user = await findUserByName(this.db, accountKey);
      valid = user?.password_hash
        ? await verifyPassword(user.password_hash, password)
        : await verifyAgainstDummy(password);
    } catch (error) {
      await attempt.withdraw();
      throw error;
    }
    // A wrong password keeps its place in both windows: it is the recorded failure.
    if (!user || !valid)
      throw badRequest(SERVER_MESSAGES.incorrectCredentials, ERROR_CODES.incorrectCredentials);
    if (!user.verified) {
      await attempt.withdraw();
      throw badRequest(SERVER_MESSAGES.accountNotVerified, ERROR_CODES.accountNotVerified);
    }
    await attempt.succeed();
    const challenge = await this.mfa?.challenge(user);
    if (challenge) return { kind: 'mfa', challenge };
    const issued = await transactionWithRetry(this.db, async (trx) => {
      return this.startSession(trx, user, meta);
    });
    return { kind: 'tokens', issued };
  }

  /**
   * The second step of an MFA sign-in: the code of the step's session. Wrong codes count against
   * the account like wrong passwords, so a stolen password does not buy unlimited guesses.
   */
  async completeMfaLogin(
    userName: string,
    session: string,
    code: string,
    meta: ClientMeta,
  ): Promise<IssuedTokens> {
    const accountKey = userName.trim().toLowerCase();
    if (!this.mfa)
      throw badRequest(SERVER_MESSAGES.mfaSessionInvalid, ERROR_CODES.mfaSessionMissing);
    const attempt = await this.takeAttempt(accountKey, meta.ip);
    let user: UserRecord;
    try {
      user = await this.mfa.verify(accountKey, session, code);
    } catch (error) {
      // Only a wrong code is a failure; an expired step or a burnt challenge is not a guess.
      const wrongCode =
        error instanceof AppError && error.errorCode === ERROR_CODES.verificationCodeIncorrect;
      if (!wrongCode) await attempt.withdraw();
      throw error;
    }
    await attempt.succeed();
    return transactionWithRetry(this.db, async (trx) => this.startSession(trx, user, meta));
  }

  /**
   * Takes a place for one sign-in attempt in the account's window and, when `ip` is given, in the
   * IP's, before the attempt is checked; 429 when either is full. Checking first and recording
   * after the password hash (which takes tens of milliseconds) let every parallel guess through;
   * taken up front, at most the limit's number are ever checked in a window. A place that turns
   * out not to be a failure is given back (`withdraw`) or, on success, the account's window is
   * cleared as before (`succeed`). The windows live in this process or in Redis (ADR 3, ADR 38).
   */
  private async takeAttempt(accountKey: string, ip?: string): Promise<SignInAttempt> {
    const ipPlace = ip === undefined ? undefined : await this.ipFailures.take(ip);
    if (ip !== undefined && ipPlace === undefined) throw tooManyRequests();
    const releaseIp = async () => {
      if (ip !== undefined && ipPlace !== undefined)
        await this.ipFailures.giveBack(ip, ipPlace.ticket);
    };
    const accountPlace = await this.accountFailures.take(accountKey);
    if (accountPlace === undefined) {
      await releaseIp();
      throw tooManyRequests();
    }
    return {
      withdraw: async () => {
        await this.accountFailures.giveBack(accountKey, accountPlace.ticket);
        await releaseIp();
      },
      succeed: async () => {
        await this.accountFailures.reset(accountKey);
        await releaseIp();
      },
    };
  }

  /** Drops the remembered identity of a user's tokens, so a changed profile shows at once. */
  forgetUser(userId: string): void {
    this.dropUser(userId);
  }

  /** Tells the other instances which remembered tokens to drop too (REDIS_URL, ADR 38). */
  setPeers(peers: ((forgotten: ForgottenTokens) => void) | undefined): void {
    this.peers = peers;
  }

  /** What another instance revoked or changed: dropped here as well, not passed on again. */
  forgetFromPeer(forgotten: ForgottenTokens): void {
    if (forgotten.userId !== undefined) this.contexts.forgetUser(forgotten.userId);
    if (forgotten.sessionId !== undefined) this.contexts.forgetSession(forgotten.sessionId);
  }

  private dropUser(userId: string): void {
    this.contexts.forgetUser(userId);
    this.peers?.({ userId });
  }

  private dropSession(sessionId: string): void {
    this.contexts.forgetSession(sessionId);
    this.peers?.({ sessionId });
  }

  /** Ends every session of a user (password reset, account changes by others). */
  async revokeAllSessions(userId: string, reason: string): Promise<void> {
    await revokeUserSessions(this.db, userId, reason, this.nowSeconds());
    this.dropUser(userId);
  }

  /**
   * Starts a session for an account an external identity provider vouched for (social sign-in);
   * the caller has verified the provider's answer and linked the identity to this user.
   */
  async loginWithIdentity(userId: string, meta: ClientMeta): Promise<LoginOutcome> {
    const user = await findUserById(this.db, userId);
    if (!user) throw new AppError(401, ERROR_CODES.refreshFailed, SERVER_MESSAGES.refreshFailed);
    // A provider's sign-in replaces the password, never the second factor.
    const challenge = await this.mfa?.challenge(user);
    if (challenge) return { kind: 'mfa', challenge };
    const issued = await transactionWithRetry(this.db, async (trx) =>
      this.startSession(trx, user, meta),
    );
    return { kind: 'tokens', issued };
  }

  /**
   * Exchanges a refresh token for new tokens and rotates it. Replaying a rotated token revokes the
   * whole family (RFC 9700 §4.14.2), except within a short grace window where two tabs refreshing
   * together get an access token without a new refresh token.
   */
  async refresh(rawToken: string): Promise<IssuedTokens> {
    const now = this.nowSeconds();
    const tokenHash = hashRefreshToken(rawToken);
    const found = await findRefreshToken(this.db, tokenHash);
    if (
      !found ||
      found.revoked_at !== null ||
      found.session_expires_at <= now ||
      found.expires_at <= now
    ) {
      throw new AppError(401, ERROR_CODES.refreshFailed, SERVER_MESSAGES.refreshFailed);
    }
    const user = await findUserById(this.db, found.user_id);
    if (!user) throw new AppError(401, ERROR_CODES.refreshFailed, SERVER_MESSAGES.refreshFailed);

    const rotatedNow = found.rotated_at === null && (await claimRotation(this.db, tokenHash, now));
    if (!rotatedNow) {
      const rotatedAt = found.rotated_at ?? now;
      if (now - rotatedAt > this.options.rotationGraceSeconds) {
        await revokeSession(this.db, found.session_id, 'refresh_token_reuse', now);
        this.dropSession(found.session_id);
        throw new AppError(401, ERROR_CODES.refreshFailed, SERVER_MESSAGES.refreshFailed);
      }
      return this.issue(user, found.session_id, undefined, now);
    }
    const refreshToken = newRefreshToken();
    await insertRefreshToken(this.db, {
      token_hash: hashRefreshToken(refreshToken),
      session_id: found.session_id,
      issued_at: now,
      expires_at: Math.min(now + REFRESH_TOKEN_TTL_SECONDS, found.session_expires_at),
      rotated_at: null,
    });
    return this.issue(user, found.session_id, refreshToken, now);
  }

  /** Resolves an access token to a live session; undefined when forged, expired or revoked. */
  async authenticate(accessToken: string): Promise<AuthContext | undefined> {
    const cached = this.contexts.get(accessToken);
    if (cached) return cached;
    const generation = this.contexts.currentGeneration();
    const context = await this.resolve(accessToken);
    if (context) this.contexts.set(accessToken, context, generation);
    return context;
  }

  private async resolve(accessToken: string): Promise<AuthContext | undefined> {
    const claims = await this.tokens.verifyAccessToken(accessToken);
    if (!claims) return undefined;
    const session = await findSession(this.db, claims.sessionId);
    const now = this.nowSeconds();
    if (
      !session ||
      session.revoked_at !== null ||
      session.expires_at <= now ||
      session.user_id !== claims.userId
    ) {
      return undefined;
    }
    const user = await findUserById(this.db, claims.userId);
    if (!user) return undefined;
    return {
      user: await this.toAuthUser(user),
      sessionId: session.session_id,
      expiresAt: claims.expiresAt,
    };
  }

  /** Ends one session, or every session of its user. */
  async logout(target: { sessionId: string; userId: string }, all: boolean): Promise<void> {
    const now = this.nowSeconds();
    if (all) {
      await revokeUserSessions(this.db, target.userId, 'logout_all', now);
      this.dropUser(target.userId);
    } else {
      await revokeSession(this.db, target.sessionId, 'logout', now);
      this.dropSession(target.sessionId);
    }
  }

  /** Ends the session a refresh token belongs to (logout without a valid access token). */
  async logoutByRefreshToken(rawToken: string, all: boolean): Promise<void> {
    const found = await findRefreshToken(this.db, hashRefreshToken(rawToken));
    if (found) await this.logout({ sessionId: found.session_id, userId: found.user_id }, all);
  }

  /**
   * Changes the caller's password, revokes every session of the user (this one included) and
   * starts a fresh session for the caller.
   */
  async changePassword(
    context: AuthContext,
    current: string,
    next: string,
    meta: ClientMeta,
  ): Promise<IssuedTokens> {
    const user = await findUserById(this.db, context.user.userId);
    if (!user?.password_hash)
      throw badRequest('Error, this operation is not supported for oauth-only deployments', 100052);
    const readHash = user.password_hash;
    const attempt = await this.takeAttempt(user.user_name);
    if (!(await verifyPassword(readHash, current)))
      throw badRequest(SERVER_MESSAGES.currentPasswordWrong, ERROR_CODES.currentPasswordWrong);
    // The right password is no failure; as before, it does not clear the account's window either.
    await attempt.withdraw();
    if (current === next)
      throw badRequest(SERVER_MESSAGES.passwordSameAsOld, ERROR_CODES.passwordPolicy);
    assertNotCommon(next, user.user_name);
    const passwordHash = await hashPassword(next);
    const issued = await transactionWithRetry(this.db, async (trx) => {
      const now = this.nowSeconds();
      // Only over the hash that was checked: a change that committed meanwhile (another tab, a
      // reset) means `current` is no longer the password, as a sequential request would find.
      if (!(await replacePasswordHash(trx, user.user_id, readHash, passwordHash, now)))
        throw badRequest(SERVER_MESSAGES.currentPasswordWrong, ERROR_CODES.currentPasswordWrong);
      await revokeUserSessions(trx, user.user_id, 'password_changed', now);
      return this.startSession(trx, user, meta);
    });
    // After commit only (the body may run again, ADR 37): a lookup that ran during the
    // transaction may have cached an old session, and other instances are told once.
    this.dropUser(user.user_id);
    return issued;
  }

  private async startSession(
    db: Kysely<Database>,
    user: UserRecord,
    meta: ClientMeta,
  ): Promise<IssuedTokens> {
    const now = this.nowSeconds();
    const sessionId = randomUUID();
    const sessionExpiresAt = now + SESSION_MAX_AGE_SECONDS;
    await insertSession(db, {
      session_id: sessionId,
      user_id: user.user_id,
      created_at: now,
      expires_at: sessionExpiresAt,
      revoked_at: null,
      revoked_reason: null,
      user_agent: meta.userAgent?.slice(0, 512) ?? null,
      ip: meta.ip.slice(0, 64),
    });
    const refreshToken = newRefreshToken();
    await insertRefreshToken(db, {
      token_hash: hashRefreshToken(refreshToken),
      session_id: sessionId,
      issued_at: now,
      expires_at: now + REFRESH_TOKEN_TTL_SECONDS,
      rotated_at: null,
    });
    return this.issue(user, sessionId, refreshToken, now, db);
  }

  private async issue(
    user: UserRecord,
    sessionId: string,
    refreshToken: string | undefined,
    now: number,
    db: Kysely<Database> = this.db,
  ): Promise<IssuedTokens> {
    const authUser = await this.toAuthUser(user, db);
    const access = await this.tokens.signAccessToken(user.user_id, sessionId, now);
    const idToken = await this.tokens.signIdToken(
      { userId: user.user_id, email: user.user_name, roles: authUser.roles },
      now,
    );
    return {
      user: authUser,
      sessionId,
      accessToken: access.token,
      refreshToken,
      idToken,
      expiresAt: access.expiresAt,
    };
  }

  private async toAuthUser(user: UserRecord, db: Kysely<Database> = this.db): Promise<AuthUser> {
    const roles = user.roles.filter(isRole);
    const effectiveRoles: Role[] = user.super_admin
      ? ['super_admin', ...roles.filter((r) => r !== 'super_admin')]
      : roles;
    const permissions = (await findPermissionsOfRoles(db, effectiveRoles)) as Permission[];
    return {
      userId: user.user_id,
      userName: user.user_name,
      name: user.name,
      superAdmin: user.super_admin === 1,
      roles: effectiveRoles,
      permissions,
      emailUser: user.password_hash !== null,
      mfa: user.mfa === 1,
    };
  }
}

/** Refuses passwords from the common-password list or built from the user's own e-mail. */
export function assertNotCommon(password: string, userName: string): void {
  const local = userName.split('@')[0]?.toLowerCase() ?? '';
  if (isCommonPassword(password) || (local.length >= 4 && password.toLowerCase().includes(local))) {
    throw badRequest(SERVER_MESSAGES.passwordTooCommon, ERROR_CODES.passwordPolicy);
  }
}
