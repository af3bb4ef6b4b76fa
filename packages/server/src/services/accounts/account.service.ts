import { randomUUID } from 'node:crypto';
import {
  ERROR_CODES,
  MESSAGES,
  SERVER_MESSAGES,
  type UserSettingsUpdate,
} from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { AppError, badRequest, forbidden, tooManyRequests } from '../../errors.js';
import type { Logger } from '../../logger.js';
import {
  findUserMfa,
  markUserVerified,
  setUserDisplayName,
  setUserMfa,
  setUserPhone,
  upsertUserMfa,
} from '../../repositories/account.repository.js';
import {
  findUserById,
  findUserByName,
  insertUser,
  updatePasswordHash,
} from '../../repositories/user.repository.js';
import { assertNotCommon, type AuthService } from '../auth/auth.service.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { memoryLimiters, type LimiterFactory, type WindowLimiter } from '../auth/rate-limiter.js';
import type { MessagingService } from '../messaging/messaging.service.js';
import type { CodeCheck, VerificationCodes } from '../messaging/verification-codes.js';
import { recordUsersCreated } from '../stats/stats-events.js';
import { passwordResetMail, signUpCodeMail, signUpExistingMail } from './account-mails.js';
import { transactionWithRetry } from '../../db/transaction-retry.js';

/** Codes by e-mail and SMS live 10 minutes (NIST 800-63B, ASVS 6.5.5). */
export const ACCOUNT_CODE_TTL_SECONDS = 600;

/**
 * The subject a password-setting code is issued for: the lower-cased user name. Invitations
 * (user administration) issue `forgot_password` codes with this subject, so /set-new-password
 * accepts them.
 */
export function passwordCodeSubject(userName: string): string {
  return userName.trim().toLowerCase();
}

export interface AccountOptions {
  deploymentMode: 'standard' | 'customer';
  publicUrl: string;
  /** Sign-up and reset-code requests one address may make per hour (answered alike for all). */
  requestsPerAddressPerHour: number;
  clock: () => number;
  /** Where the request windows live (default: this process; ADR 38). */
  limiters?: LimiterFactory;
}

/** The settings part of GET /v1/user2. */
export interface AccountProfile {
  phoneNumber: string | null;
  pendingPhoneNumber: string | null;
  totpEnabled: boolean;
}

/**
 * Sign-up with an e-mailed code, password recovery and the user's own settings (name, phone, MFA).
 * Answers never say whether an account exists: the mail work for an existing and for a new address
 * runs after the answer, and both answer the same body after the same password hashing. Codes are
 * keyed by the address, and an address that gets no mail still gets a code (never sent), so wrong
 * guesses, the 429 after five of them and expiry answer alike for every address.
 */
export class AccountService {
  private readonly pending = new Set<Promise<void>>();
  private readonly signUpRequests: WindowLimiter;
  private readonly resetRequests: WindowLimiter;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly auth: AuthService,
    private readonly messaging: MessagingService,
    private readonly codes: VerificationCodes,
    private readonly logger: Logger,
    private readonly options: AccountOptions,
  ) {
    const hour = 3600 * 1000;
    const limiters = options.limiters ?? memoryLimiters;
    this.signUpRequests = limiters(
      'sign-up',
      options.requestsPerAddressPerHour,
      hour,
      options.clock,
    );
    this.resetRequests = limiters(
      'password-reset',
      options.requestsPerAddressPerHour,
      hour,
      options.clock,
    );
  }

  private now(): number {
    return Math.floor(this.options.clock() / 1000);
  }

  private url(path: string): string {
    return new URL(path, this.options.publicUrl).toString();
  }

  /** Runs mail work after the answer; failures are logged (the outbox keeps the message). */
  private later(task: () => Promise<void>, what: string): void {
    const run = task().catch((error: unknown) => {
      this.logger.warn({ err: error instanceof Error ? error.message : error }, what);
    });
    const tracked = run.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /** Waits for mail work still running (shutdown, tests). */
  async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private async limit(limiter: WindowLimiter, userName: string): Promise<void> {
    if ((await limiter.take(userName)) === undefined) throw tooManyRequests();
  }

  /**
   * POST /v1/user {user_name, password}: creates an unverified 'user' account and mails a code.
   * For an address that has an account, the owner gets a notice instead (or, for an unverified
   * sign-up repeated with the same password, a new code), and the caller the same answer.
   */
  async signUp(rawUserName: string, password: string): Promise<void> {
    if (this.options.deploymentMode === 'customer') throw forbidden(SERVER_MESSAGES.signUpDisabled);
    const userName = rawUserName.trim().toLowerCase();
    assertNotCommon(password, userName);
    await this.limit(this.signUpRequests, userName);
    const existing = await findUserByName(this.db, userName);
    if (existing) {
      // Spend the time a new account spends hashing its password.
      const samePassword =
        existing.password_hash !== null && existing.verified === 0
          ? await verifyPassword(existing.password_hash, password)
          : (await hashPassword(password), false);
      if (samePassword) this.later(() => this.sendSignUpCode(userName), 'sign-up code');
      else
        this.later(async () => {
          // A code nobody receives, so guesses at this address count and expire as for a new one.
          await this.codes.issue('sign_up', userName, ACCOUNT_CODE_TTL_SECONDS);
          await this.sendExistingNotice(userName);
        }, 'sign-up notice');
      return;
    }
    const now = this.now();
    const userId = randomUUID();
    const passwordHash = await hashPassword(password);
    try {
      await transactionWithRetry(this.db, async (trx) => {
        await insertUser(
          trx,
          {
            user_id: userId,
            user_name: userName,
            password_hash: passwordHash,
            name: '',
            super_admin: 0,
            verified: 0,
            mfa: 0,
            phone_number: null,
            created_at: now,
            updated_at: now,
            password_changed_at: now,
          },
          ['user'],
        );
        await recordUsersCreated(trx, 1, now);
      });
    } catch (error) {
      // The same address signed up at the same moment: answer as for an existing one.
      if (isUniqueViolation(error)) {
        this.later(() => this.sendExistingNotice(userName), 'sign-up notice');
        return;
      }
      throw error;
    }
    this.later(() => this.sendSignUpCode(userName), 'sign-up code');
  }

  private async sendSignUpCode(userName: string): Promise<void> {
    const code = await this.codes.issue('sign_up', userName, ACCOUNT_CODE_TTL_SECONDS);
    const mail = signUpCodeMail(code, ACCOUNT_CODE_TTL_SECONDS / 60);
    await this.messaging.sendMail({ to: userName, ...mail, purpose: 'sign_up' });
  }

  private async sendExistingNotice(userName: string): Promise<void> {
    const mail = signUpExistingMail(this.url('/login'), this.url('/forgot-password'));
    await this.messaging.sendMail({ to: userName, ...mail, purpose: 'sign_up_existing' });
  }

  /**
   * POST /v1/user {user_name, verification_code}: verifies the account. An unknown or already
   * verified address answers exactly like a wrong code (and its guesses count the same way).
   */
  async confirmSignUp(rawUserName: string, code: string): Promise<void> {
    const userName = rawUserName.trim().toLowerCase();
    const check = await this.codes.consume('sign_up', userName, code);
    if (!check.ok) throw codeRefused(check);
    const user = await findUserByName(this.db, userName);
    if (!user) throw codeRefused({ ok: false, reason: 'invalid' });
    await markUserVerified(this.db, user.user_id, this.now());
  }

  /**
   * PUT /v1/forgotpassword {user_name}: mails a reset code when the account exists; for an unknown
   * address a code is issued all the same and never sent, so later guesses answer alike.
   */
  async requestPasswordReset(rawUserName: string): Promise<void> {
    const userName = passwordCodeSubject(rawUserName);
    await this.limit(this.resetRequests, userName);
    const user = await findUserByName(this.db, userName);
    this.later(async () => {
      const code = await this.codes.issue('forgot_password', userName, ACCOUNT_CODE_TTL_SECONDS);
      if (!user) return;
      const mail = passwordResetMail(
        code,
        ACCOUNT_CODE_TTL_SECONDS / 60,
        this.url(`/set-new-password?user_name=${encodeURIComponent(userName)}`),
      );
      await this.messaging.sendMail({ to: userName, ...mail, purpose: 'forgot_password' });
    }, 'password reset code');
  }

  /**
   * PUT /v1/forgotpassword {user_name, password, verification_code}: sets the new password, marks
   * the address verified (the code proves it; invited users set their first password this way) and
   * ends every session of the user. It signs nobody in: the next sign-in still asks for MFA.
   */
  async resetPassword(rawUserName: string, code: string, password: string): Promise<void> {
    const userName = passwordCodeSubject(rawUserName);
    assertNotCommon(password, userName);
    const check = await this.codes.consume('forgot_password', userName, code);
    if (!check.ok) throw codeRefused(check, MESSAGES.verificationCodeNotValid);
    const user = await findUserByName(this.db, userName);
    if (!user)
      throw codeRefused({ ok: false, reason: 'invalid' }, MESSAGES.verificationCodeNotValid);
    const passwordHash = await hashPassword(password);
    const now = this.now();
    await transactionWithRetry(this.db, async (trx) => {
      await updatePasswordHash(trx, user.user_id, passwordHash, now);
      await markUserVerified(trx, user.user_id, now);
    });
    await this.auth.revokeAllSessions(user.user_id, 'password_reset');
  }

  /** The phone and authenticator-app state of a user. */
  async profile(userId: string): Promise<AccountProfile> {
    const [user, mfa] = await Promise.all([
      findUserById(this.db, userId),
      findUserMfa(this.db, userId),
    ]);
    return {
      phoneNumber: user?.phone_number ?? null,
      pendingPhoneNumber: mfa?.pending_phone_number ?? null,
      totpEnabled: Boolean(mfa?.totp_secret_sealed),
    };
  }

  /** PUT /v1/user2: one of name, phone_number (texts a code), verification_code, mfa. */
  async updateSettings(userId: string, update: UserSettingsUpdate): Promise<string> {
    const now = this.now();
    const user = await findUserById(this.db, userId);
    if (!user) throw badRequest(SERVER_MESSAGES.notFound, ERROR_CODES.notFound);
    if (update.name !== undefined) {
      await setUserDisplayName(this.db, userId, update.name, now);
      this.auth.forgetUser(userId);
      return SERVER_MESSAGES.userUpdated;
    }
    if (update.phone_number !== undefined) {
      const phone = update.phone_number;
      const code = await this.codes.issue('phone_verify', userId, ACCOUNT_CODE_TTL_SECONDS, {
        phone,
      });
      // Capped per number and per account: one account cannot text any number of phones.
      await this.messaging.sendSms({
        to: phone,
        text: `Your Fleetdeck code to verify this phone number is ${code}. It expires in 10 minutes.`,
        purpose: 'phone_verify',
        account: userId,
      });
      await upsertUserMfa(this.db, userId, { pending_phone_number: phone }, now);
      return MESSAGES.phoneNumberAdded;
    }
    if (update.verification_code !== undefined) {
      const mfa = await findUserMfa(this.db, userId);
      const pendingPhone = mfa?.pending_phone_number ?? null;
      if (pendingPhone === null) {
        if (user.phone_number)
          throw badRequest(SERVER_MESSAGES.phoneAlreadyVerified, ERROR_CODES.phoneAlreadyVerified);
        throw badRequest(SERVER_MESSAGES.phoneMissing, ERROR_CODES.phoneMissing);
      }
      const check = await this.codes.consume<{ phone: string }>(
        'phone_verify',
        userId,
        update.verification_code,
      );
      if (!check.ok) throw codeRefused(check);
      const phone = check.payload?.phone ?? pendingPhone;
      await transactionWithRetry(this.db, async (trx) => {
        await setUserPhone(trx, userId, phone, now);
        await upsertUserMfa(trx, userId, { pending_phone_number: null }, now);
      });
      return MESSAGES.phoneNumberVerified;
    }
    const on = update.mfa === true;
    if (on && !user.phone_number)
      throw badRequest(MESSAGES.addPhoneFirst, ERROR_CODES.phoneMissing);
    await setUserMfa(this.db, userId, on, now);
    this.auth.forgetUser(userId);
    return on ? SERVER_MESSAGES.mfaEnabled : SERVER_MESSAGES.mfaDisabled;
  }
}

/** The failure for a refused code: wrong (400), expired (400) or burnt by wrong guesses (429). */
export function codeRefused(
  check: Extract<CodeCheck<unknown>, { ok: false }>,
  wrongMessage: string = SERVER_MESSAGES.verificationCodeIncorrect,
): AppError {
  switch (check.reason) {
    case 'invalid':
      return badRequest(wrongMessage, ERROR_CODES.verificationCodeIncorrect);
    case 'expired':
      return badRequest(
        SERVER_MESSAGES.verificationCodeExpired,
        ERROR_CODES.verificationCodeExpired,
      );
    case 'exhausted':
      return new AppError(
        429,
        ERROR_CODES.verificationCodeAttempts,
        SERVER_MESSAGES.verificationCodeAttempts,
      );
  }
}
