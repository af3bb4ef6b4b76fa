import { createHash, randomBytes } from 'node:crypto';
import { ERROR_CODES, MESSAGES, SERVER_MESSAGES, type MfaChallengeKind } from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import QRCode from 'qrcode';
import type { Database } from '../../db/schema.js';
import { badRequest, tooManyRequests } from '../../errors.js';
import {
  advanceTotpStep,
  consumeMfaChallenge,
  countMfaAttempt,
  findMfaChallenge,
  findUserMfa,
  insertMfaChallenge,
  purgeMfaChallenges,
  replaceRecoveryCodes,
  upsertUserMfa,
  useRecoveryCode,
} from '../../repositories/account.repository.js';
import { findUserById, type UserRecord } from '../../repositories/user.repository.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { MessagingService } from '../messaging/messaging.service.js';
import type { VerificationCodes } from '../messaging/verification-codes.js';
import { verifyPassword } from './password.js';
import { memoryLimiters, type LimiterFactory, type WindowLimiter } from './rate-limiter.js';
import { matchTotp, newTotpSecret, otpauthUri } from './totp.js';
import { transactionWithRetry } from '../../db/transaction-retry.js';

/** The MFA step of a sign-in lives this long (NIST 800-63B: out-of-band ≤ 10 minutes). */
export const MFA_CHALLENGE_TTL_SECONDS = 300;
/** Wrong codes one MFA step accepts before it is burnt. */
export const MFA_CHALLENGE_MAX_ATTEMPTS = 5;
export const RECOVERY_CODE_COUNT = 10;
/** Wrong app codes or passwords a signed-in user may enter per window (set-up, removal, MFA off). */
export const PROOF_MAX_WRONG_TRIES = 5;
export const PROOF_WINDOW_MS = 15 * 60 * 1000;

/** What a signed-in user gives to turn MFA off: the password, or a current app code. */
export interface IdentityProof {
  password?: string | undefined;
  code?: string | undefined;
}

/** What a password sign-in of an MFA user answers instead of tokens. */
export interface MfaChallenge {
  session: string;
  challenge: MfaChallengeKind;
  phoneHint: string | undefined;
}

export interface MfaOptions {
  issuer: string;
  clock: () => number;
  /** Where the wrong-try window lives (default: this process; ADR 38). */
  limiters?: LimiterFactory;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A recovery code of two groups of five characters (about 49 bits), e.g. `k7m2p-x9q4r`. */
function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  let out = '';
  for (let i = 0; i < 10; i += 1) {
    out += RECOVERY_ALPHABET[(bytes[i] ?? 0) % RECOVERY_ALPHABET.length];
    if (i === 4) out += '-';
  }
  return out;
}

function normaliseRecoveryCode(code: string): string {
  return code.trim().toLowerCase().replace(/[\s-]/g, '');
}

/**
 * Second factors: SMS codes to the verified phone (RainMaker's `mfa` flag) and an authenticator
 * app (TOTP, RFC 6238) with one-use recovery codes. When an app is set up it is the factor asked
 * for and no SMS goes out. The MFA step of a sign-in is an opaque, hashed, single-use session bound
 * to one user.
 */
export class MfaService {
  private readonly proofTries: WindowLimiter;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
    private readonly messaging: MessagingService,
    private readonly codes: VerificationCodes,
    private readonly options: MfaOptions,
  ) {
    this.proofTries = (options.limiters ?? memoryLimiters)(
      'mfa-proof',
      PROOF_MAX_WRONG_TRIES,
      PROOF_WINDOW_MS,
      options.clock,
    );
  }

  private now(): number {
    return Math.floor(this.options.clock() / 1000);
  }

  private sealContext(userId: string): string {
    return `user_mfa.totp:${userId}`;
  }

  /** Whether an authenticator app is set up for the user. */
  async totpEnabled(userId: string): Promise<boolean> {
    const row = await findUserMfa(this.db, userId);
    return Boolean(row?.totp_secret_sealed);
  }

  /**
   * Starts the MFA step of a sign-in when the user has a second factor; undefined otherwise. For
   * SMS it texts a code bound to this step to the verified phone.
   */
  async challenge(user: UserRecord): Promise<MfaChallenge | undefined> {
    const totp = await this.totpEnabled(user.user_id);
    const sms = user.mfa === 1 && user.phone_number !== null;
    if (!totp && !sms) return undefined;
    const now = this.now();
    const session = randomBytes(32).toString('base64url');
    const hash = sha256(session);
    await purgeMfaChallenges(this.db, now - 86400);
    await insertMfaChallenge(this.db, {
      challenge_hash: hash,
      user_id: user.user_id,
      method: totp ? 'totp' : 'sms',
      created_at: now,
      expires_at: now + MFA_CHALLENGE_TTL_SECONDS,
      attempts: 0,
      consumed_at: null,
    });
    if (totp) return { session, challenge: 'totp', phoneHint: undefined };
    const phone = user.phone_number ?? '';
    const code = await this.codes.issue('mfa_login', hash, MFA_CHALLENGE_TTL_SECONDS);
    await this.messaging.sendSms({
      to: phone,
      text: `Your Fleetdeck sign-in code is ${code}. It expires in 5 minutes. Do not share it.`,
      purpose: 'mfa_login',
      account: user.user_id,
    });
    return { session, challenge: 'sms', phoneHint: phone.slice(-4) };
  }

  /**
   * Checks the code of an MFA step and consumes the step; answers the user to start a session for.
   * Every failure answers without saying whether the user name, the session or the code was wrong,
   * except an expired or used session (the SPA sends the user back to sign in).
   */
  async verify(userName: string, session: string, code: string): Promise<UserRecord> {
    const now = this.now();
    const hash = sha256(session);
    const found = await findMfaChallenge(this.db, hash);
    const user = found ? await findUserById(this.db, found.user_id) : undefined;
    if (
      !found ||
      !user ||
      user.user_name !== userName.trim().toLowerCase() ||
      found.consumed_at !== null ||
      found.expires_at <= now
    ) {
      throw badRequest(SERVER_MESSAGES.mfaSessionInvalid, ERROR_CODES.mfaSessionMissing);
    }
    if (found.attempts >= MFA_CHALLENGE_MAX_ATTEMPTS) {
      throw tooManyRequests(SERVER_MESSAGES.verificationCodeAttempts);
    }
    // The try is counted before the code is checked, so parallel tries get at most the limit.
    const attempts = await countMfaAttempt(this.db, hash, MFA_CHALLENGE_MAX_ATTEMPTS, now);
    if (attempts === undefined) {
      const current = await findMfaChallenge(this.db, hash);
      if (current?.consumed_at === null && current.attempts >= MFA_CHALLENGE_MAX_ATTEMPTS)
        throw tooManyRequests(SERVER_MESSAGES.verificationCodeAttempts);
      throw badRequest(SERVER_MESSAGES.mfaSessionInvalid, ERROR_CODES.mfaSessionMissing);
    }
    const ok =
      found.method === 'totp'
        ? await this.checkAppOrRecoveryCode(user.user_id, code, now)
        : await this.checkSmsCode(hash, code);
    if (!ok) {
      if (attempts >= MFA_CHALLENGE_MAX_ATTEMPTS) {
        await consumeMfaChallenge(this.db, hash, now);
        throw tooManyRequests(SERVER_MESSAGES.verificationCodeAttempts);
      }
      throw badRequest(
        SERVER_MESSAGES.verificationCodeIncorrect,
        ERROR_CODES.verificationCodeIncorrect,
      );
    }
    if (!(await consumeMfaChallenge(this.db, hash, now))) {
      throw badRequest(SERVER_MESSAGES.mfaSessionInvalid, ERROR_CODES.mfaSessionMissing);
    }
    return user;
  }

  private async checkSmsCode(hash: string, code: string): Promise<boolean> {
    const result = await this.codes.consume('mfa_login', hash, code);
    return result.ok;
  }

  private async checkAppOrRecoveryCode(userId: string, code: string, now: number) {
    const trimmed = code.trim();
    if (/^\d{6}$/.test(trimmed)) return this.acceptTotp(userId, trimmed);
    return useRecoveryCode(this.db, userId, sha256(normaliseRecoveryCode(trimmed)), now);
  }

  /** A current app code, never one of a step already used. */
  private async acceptTotp(userId: string, code: string): Promise<boolean> {
    const row = await findUserMfa(this.db, userId);
    if (!row?.totp_secret_sealed) return false;
    const secret = this.box.open(row.totp_secret_sealed, this.sealContext(userId));
    const step = matchTotp(secret, code, this.options.clock(), row.totp_last_step);
    if (step === undefined) return false;
    return advanceTotpStep(this.db, userId, step, this.now());
  }

  /**
   * Runs one check of something a signed-in user typed (an app code, the password). The try is
   * counted before the check, synchronously, so parallel requests cannot slip past the limit; a
   * right one clears the count. The fifth wrong try in the window and every try after it answer
   * 429 (per user, in this process or in Redis, like the sign-in failure limits). Answers what the check
   * found, or undefined for a wrong try (a check answering false or undefined).
   */
  private async tryProof<T>(
    userId: string,
    check: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const place = await this.proofTries.take(userId);
    if (place === undefined) throw tooManyRequests();
    // Whether this try took the last place; parallel tries each know their own.
    const last = place.left === 0;
    const found = await check();
    if (found !== undefined && found !== false) {
      await this.proofTries.reset(userId);
      return found;
    }
    if (last) throw tooManyRequests();
    return undefined;
  }

  /**
   * Step-up check before SMS MFA is turned off (it weakens every later sign-in): the request must
   * carry the account's password or a current code from the authenticator app. Nothing is asked
   * when MFA is already off.
   */
  async confirmTurningOff(userId: string, proof: IdentityProof): Promise<void> {
    const user = await findUserById(this.db, userId);
    if (user?.mfa !== 1) return;
    const { password, code } = proof;
    if (code !== undefined) {
      if (!(await this.tryProof(userId, () => this.acceptTotp(userId, code))))
        throw badRequest(SERVER_MESSAGES.totpCodeInvalid, ERROR_CODES.verificationCodeIncorrect);
      return;
    }
    if (password !== undefined) {
      const hash = user.password_hash;
      const right = await this.tryProof(userId, async () =>
        hash === null ? false : verifyPassword(hash, password),
      );
      if (!right)
        throw badRequest(SERVER_MESSAGES.currentPasswordWrong, ERROR_CODES.currentPasswordWrong);
      return;
    }
    throw badRequest(MESSAGES.mfaOffNeedsProof, ERROR_CODES.credentialsMissing);
  }

  /** Creates a new pending app secret; the app is enabled only after a code confirms it. */
  async beginTotp(userId: string, userName: string) {
    const row = await findUserMfa(this.db, userId);
    if (row?.totp_secret_sealed)
      throw badRequest(SERVER_MESSAGES.totpAlreadyEnabled, ERROR_CODES.invalidRequestBody);
    const secret = newTotpSecret();
    await upsertUserMfa(
      this.db,
      userId,
      { totp_pending_sealed: this.box.seal(secret, this.sealContext(userId)) },
      this.now(),
    );
    const uri = otpauthUri(this.options.issuer, userName, secret);
    const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    return {
      secret,
      otpauthUri: uri,
      qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    };
  }

  /** Enables the pending app secret with a code from the app; answers fresh recovery codes. */
  async confirmTotp(userId: string, code: string): Promise<string[]> {
    const row = await findUserMfa(this.db, userId);
    if (row?.totp_secret_sealed)
      throw badRequest(SERVER_MESSAGES.totpAlreadyEnabled, ERROR_CODES.invalidRequestBody);
    if (!row?.totp_pending_sealed)
      throw badRequest(SERVER_MESSAGES.totpNotStarted, ERROR_CODES.invalidRequestBody);
    const secret = this.box.open(row.totp_pending_sealed, this.sealContext(userId));
    const step = await this.tryProof(userId, () =>
      Promise.resolve(matchTotp(secret, code, this.options.clock(), null)),
    );
    if (step === undefined)
      throw badRequest(SERVER_MESSAGES.totpCodeInvalid, ERROR_CODES.verificationCodeIncorrect);
    const recovery = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const now = this.now();
    await transactionWithRetry(this.db, async (trx) => {
      await upsertUserMfa(
        trx,
        userId,
        {
          totp_secret_sealed: row.totp_pending_sealed,
          totp_pending_sealed: null,
          totp_enabled_at: now,
          totp_last_step: step,
        },
        now,
      );
      await replaceRecoveryCodes(
        trx,
        userId,
        recovery.map((value) => sha256(normaliseRecoveryCode(value))),
        now,
      );
    });
    return recovery;
  }

  /** Removes the app (and its recovery codes) after a current code from it. */
  async disableTotp(userId: string, code: string): Promise<void> {
    const row = await findUserMfa(this.db, userId);
    if (!row?.totp_secret_sealed)
      throw badRequest(SERVER_MESSAGES.totpNotEnabled, ERROR_CODES.invalidRequestBody);
    if (!(await this.tryProof(userId, () => this.acceptTotp(userId, code))))
      throw badRequest(SERVER_MESSAGES.totpCodeInvalid, ERROR_CODES.verificationCodeIncorrect);
    const now = this.now();
    await transactionWithRetry(this.db, async (trx) => {
      await upsertUserMfa(
        trx,
        userId,
        { totp_secret_sealed: null, totp_pending_sealed: null, totp_enabled_at: null },
        now,
      );
      await replaceRecoveryCodes(trx, userId, [], now);
    });
  }
}
