import { createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, VerificationCodesTable } from '../../db/schema.js';
import { getOrCreateSecret } from '../../repositories/secret.repository.js';
import {
  consumeCode,
  countCodeAttempt,
  findCodeById,
  findLiveCode,
  insertCode,
  purgeExpiredCodes,
  voidLiveCodes,
} from '../../repositories/verification-code.repository.js';

/** What a code is for; one live code per (purpose, subject) at a time. */
export type CodePurpose =
  | 'sign_up'
  | 'forgot_password'
  | 'mfa_login'
  | 'phone_verify'
  | 'user_delete'
  | 'sender_verify'
  | 'settings_confirm';

export type CodeCheck<T> =
  { ok: true; payload: T | undefined } | { ok: false; reason: 'invalid' | 'expired' | 'exhausted' };

export interface VerificationCodeOptions {
  /** Wrong guesses allowed on one code before it is burnt. */
  maxAttempts: number;
  /** How long the stand-in code of a subject without a code lives (as an account code does). */
  standInTtlSeconds: number;
  clock: () => number;
}

export const DEFAULT_CODE_OPTIONS: VerificationCodeOptions = {
  maxAttempts: 5,
  standInTtlSeconds: 600,
  clock: Date.now,
};

/** Codes are deleted this long after they expired (an invitee still hears "expired" meanwhile). */
const PURGE_AFTER_SECONDS = 7 * 86400;

/** Six decimal digits, as the spec's code fields expect. */
export const CODE_LENGTH = 6;

/**
 * One-time 6-digit codes. Only an HMAC of the code (keyed per install) is stored, so a database
 * leak does not reveal live codes. A code is single use, expires, and is burnt after a few wrong
 * guesses; issuing a new one for the same purpose and subject voids the older ones.
 */
export class VerificationCodes {
  private constructor(
    private readonly db: Kysely<Database>,
    private readonly key: Buffer,
    private readonly options: VerificationCodeOptions,
  ) {}

  static async create(
    db: Kysely<Database>,
    options: Partial<VerificationCodeOptions> = {},
  ): Promise<VerificationCodes> {
    const merged = { ...DEFAULT_CODE_OPTIONS, ...options };
    const key = await getOrCreateSecret(
      db,
      'verification_code_key',
      () => Promise.resolve(randomUUID() + randomUUID()),
      Math.floor(merged.clock() / 1000),
    );
    return new VerificationCodes(db, Buffer.from(key, 'utf8'), merged);
  }

  private now(): number {
    return Math.floor(this.options.clock() / 1000);
  }

  private hash(codeId: string, code: string): string {
    return createHmac('sha256', this.key).update(`${codeId}:${code}`).digest('hex');
  }

  /** Creates a code (voiding older live ones) and returns it in clear, to be sent, never stored. */
  async issue(
    purpose: CodePurpose,
    subject: string,
    ttlSeconds: number,
    payload?: unknown,
    db: Kysely<Database> = this.db,
  ): Promise<string> {
    const now = this.now();
    const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
    const codeId = randomUUID();
    await purgeExpiredCodes(db, now - PURGE_AFTER_SECONDS);
    await voidLiveCodes(db, purpose, subject, now);
    await insertCode(db, {
      code_id: codeId,
      purpose,
      subject,
      code_hash: this.hash(codeId, code),
      payload: payload === undefined ? null : JSON.stringify(payload),
      created_at: now,
      expires_at: now + ttlSeconds,
      attempts: 0,
      consumed_at: null,
    });
    return code;
  }

  /**
   * A live code that matches nothing, for a subject that has none: guesses at a subject without
   * a code (an unknown address) then count, burn and expire exactly like guesses at a real code,
   * so the answers do not tell the two apart.
   */
  private async standIn(
    purpose: CodePurpose,
    subject: string,
    now: number,
    db: Kysely<Database>,
  ): Promise<VerificationCodesTable | undefined> {
    await purgeExpiredCodes(db, now - PURGE_AFTER_SECONDS);
    await insertCode(db, {
      code_id: randomUUID(),
      purpose,
      subject,
      // Random bytes where an HMAC belongs: no code hashes to it.
      code_hash: randomBytes(32).toString('hex'),
      payload: null,
      created_at: now,
      expires_at: now + this.options.standInTtlSeconds,
      attempts: 0,
      consumed_at: null,
    });
    // Parallel guesses may each add one; all of them continue with the newest.
    return findLiveCode(db, purpose, subject);
  }

  /**
   * Checks and, when right, consumes the live code. Each try is counted before the code is
   * compared, in one guarded update, so parallel tries never get more than `maxAttempts`
   * comparisons; concurrent right answers: exactly one wins (the consume is conditional too).
   */
  async consume<T = unknown>(
    purpose: CodePurpose,
    subject: string,
    code: string,
    db: Kysely<Database> = this.db,
  ): Promise<CodeCheck<T>> {
    const now = this.now();
    const live =
      (await findLiveCode(db, purpose, subject)) ?? (await this.standIn(purpose, subject, now, db));
    if (!live) return { ok: false, reason: 'invalid' };
    if (live.expires_at <= now) return { ok: false, reason: 'expired' };
    const max = this.options.maxAttempts;
    if (live.attempts >= max) return { ok: false, reason: 'exhausted' };
    const attempts = await countCodeAttempt(db, live.code_id, max);
    if (attempts === undefined) {
      // Burnt by parallel tries, or used or replaced meanwhile.
      const current = await findCodeById(db, live.code_id);
      return { ok: false, reason: current?.consumed_at === null ? 'exhausted' : 'invalid' };
    }
    const expected = Buffer.from(live.code_hash, 'hex');
    const given = Buffer.from(this.hash(live.code_id, code.trim()), 'hex');
    const right =
      /^\d{6}$/.test(code.trim()) &&
      expected.length === given.length &&
      timingSafeEqual(expected, given);
    if (!right) return { ok: false, reason: attempts >= max ? 'exhausted' : 'invalid' };
    if (!(await consumeCode(db, live.code_id, now))) return { ok: false, reason: 'invalid' };
    return {
      ok: true,
      payload: live.payload === null ? undefined : (JSON.parse(live.payload) as T),
    };
  }
}
