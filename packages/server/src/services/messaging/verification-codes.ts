import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { getOrCreateSecret } from '../../repositories/secret.repository.js';

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
  clock: () => number;
}

export const DEFAULT_CODE_OPTIONS: VerificationCodeOptions = { maxAttempts: 5, clock: Date.now };

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
    await db
      .updateTable('verification_codes')
      .set({ consumed_at: now })
      .where('purpose', '=', purpose)
      .where('subject', '=', subject)
      .where('consumed_at', 'is', null)
      .execute();
    await db
      .insertInto('verification_codes')
      .values({
        code_id: codeId,
        purpose,
        subject,
        code_hash: this.hash(codeId, code),
        payload: payload === undefined ? null : JSON.stringify(payload),
        created_at: now,
        expires_at: now + ttlSeconds,
        attempts: 0,
        consumed_at: null,
      })
      .execute();
    return code;
  }

  /**
   * Checks and, when right, consumes the live code. Concurrent checks of the same right code:
   * exactly one wins (the consume is a conditional update).
   */
  async consume<T = unknown>(
    purpose: CodePurpose,
    subject: string,
    code: string,
    db: Kysely<Database> = this.db,
  ): Promise<CodeCheck<T>> {
    const now = this.now();
    const live = await db
      .selectFrom('verification_codes')
      .selectAll()
      .where('purpose', '=', purpose)
      .where('subject', '=', subject)
      .where('consumed_at', 'is', null)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!live) return { ok: false, reason: 'invalid' };
    if (live.expires_at <= now) return { ok: false, reason: 'expired' };
    if (live.attempts >= this.options.maxAttempts) return { ok: false, reason: 'exhausted' };
    const expected = Buffer.from(live.code_hash, 'hex');
    const given = Buffer.from(this.hash(live.code_id, code.trim()), 'hex');
    if (!/^\d{6}$/.test(code.trim()) || !timingSafeEqual(expected, given)) {
      await db
        .updateTable('verification_codes')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('code_id', '=', live.code_id)
        .execute();
      return {
        ok: false,
        reason: live.attempts + 1 >= this.options.maxAttempts ? 'exhausted' : 'invalid',
      };
    }
    const claimed = await db
      .updateTable('verification_codes')
      .set({ consumed_at: now })
      .where('code_id', '=', live.code_id)
      .where('consumed_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return { ok: false, reason: 'invalid' };
    return {
      ok: true,
      payload: live.payload === null ? undefined : (JSON.parse(live.payload) as T),
    };
  }
}
