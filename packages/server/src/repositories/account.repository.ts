import type { Kysely, Transaction } from 'kysely';
import type { Database, MfaChallengesTable, UserMfaTable } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** The second-factor row of a user, if any. */
export async function findUserMfa(db: Db, userId: string): Promise<UserMfaTable | undefined> {
  return db.selectFrom('user_mfa').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Creates or updates the second-factor row of a user. */
export async function upsertUserMfa(
  db: Db,
  userId: string,
  changes: Partial<Omit<UserMfaTable, 'user_id' | 'updated_at'>>,
  now: number,
): Promise<void> {
  const updated = await db
    .updateTable('user_mfa')
    .set({ ...changes, updated_at: now })
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  await db
    .insertInto('user_mfa')
    .values({
      user_id: userId,
      pending_phone_number: null,
      totp_secret_sealed: null,
      totp_pending_sealed: null,
      totp_enabled_at: null,
      totp_last_step: null,
      ...changes,
      updated_at: now,
    })
    .execute();
}

/**
 * Moves the last accepted TOTP step forward, only if it is newer than the stored one; false when
 * another request used this step (or a later one) first.
 */
export async function advanceTotpStep(db: Db, userId: string, step: number, now: number) {
  const result = await db
    .updateTable('user_mfa')
    .set({ totp_last_step: step, updated_at: now })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks the account verified, optionally with a new password hash. */
export async function markUserVerified(db: Db, userId: string, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ verified: 1, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
}

/** Sets the verified phone number (or null) of a user. */
export async function setUserPhone(db: Db, userId: string, phone: string | null, now: number) {
  await db
    .updateTable('users')
    .set({ phone_number: phone, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
}

/** Turns SMS MFA on or off. */
export async function setUserMfa(db: Db, userId: string, on: boolean, now: number) {
  await db
    .updateTable('users')
    .set({ mfa: on ? 1 : 0, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
}

/** Renames a user. */
export async function setUserDisplayName(db: Db, userId: string, name: string, now: number) {
  await db
    .updateTable('users')
    .set({ name, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
}

/** Replaces every recovery code of a user with the given hashes. */
export async function replaceRecoveryCodes(
  db: Db,
  userId: string,
  hashes: readonly string[],
  now: number,
): Promise<void> {
  await db.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
  if (hashes.length === 0) return;
  await db
    .insertInto('mfa_recovery_codes')
    .values(
      hashes.map((code_hash) => ({ code_hash, user_id: userId, created_at: now, used_at: null })),
    )
    .execute();
}

/** Uses a recovery code once; false when unknown, another user's, or already used. */
export async function useRecoveryCode(db: Db, userId: string, hash: string, now: number) {
  const result = await db
    .updateTable('mfa_recovery_codes')
    .set({ used_at: now })
    .where('code_hash', '=', hash)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** How many unused recovery codes a user has left. */
export async function countRecoveryCodes(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('mfa_recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertMfaChallenge(db: Db, row: MfaChallengesTable): Promise<void> {
  await db.insertInto('mfa_challenges').values(row).execute();
}

export async function findMfaChallenge(db: Db, hash: string) {
  return db
    .selectFrom('mfa_challenges')
    .selectAll()
    .where('challenge_hash', '=', hash)
    .executeTakeFirst();
}

/**
 * Counts one try against a live challenge in a single guarded update, so concurrent tries can
 * never push it past `maxAttempts`. Answers the count including this try, or undefined when the
 * challenge has no try left or was used or expired (then the try must not be checked).
 */
export async function countMfaAttempt(
  db: Db,
  hash: string,
  maxAttempts: number,
  now: number,
): Promise<number | undefined> {
  const row = await db
    .updateTable('mfa_challenges')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('challenge_hash', '=', hash)
    .where('attempts', '<', maxAttempts)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('attempts')
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.attempts);
}

/** Consumes a challenge once; false when it was already used. */
export async function consumeMfaChallenge(db: Db, hash: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('mfa_challenges')
    .set({ consumed_at: now })
    .where('challenge_hash', '=', hash)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Drops challenges that ended more than a day ago (housekeeping on each new sign-in). */
export async function purgeMfaChallenges(db: Db, before: number): Promise<void> {
  await db.deleteFrom('mfa_challenges').where('expires_at', '<', before).execute();
}
