import type { Kysely, Transaction } from 'kysely';
import type { Database, VerificationCodesTable } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Voids every live code of a purpose and subject (a new one replaces them). */
export async function voidLiveCodes(
  db: Db,
  purpose: string,
  subject: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('verification_codes')
    .set({ consumed_at: now })
    .where('purpose', '=', purpose)
    .where('subject', '=', subject)
    .where('consumed_at', 'is', null)
    .execute();
}

export async function insertCode(db: Db, row: VerificationCodesTable): Promise<void> {
  await db.insertInto('verification_codes').values(row).execute();
}

/** The newest code of a purpose and subject that is neither used nor voided, if any. */
export async function findLiveCode(
  db: Db,
  purpose: string,
  subject: string,
): Promise<VerificationCodesTable | undefined> {
  return db
    .selectFrom('verification_codes')
    .selectAll()
    .where('purpose', '=', purpose)
    .where('subject', '=', subject)
    .where('consumed_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('code_id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function findCodeById(
  db: Db,
  codeId: string,
): Promise<VerificationCodesTable | undefined> {
  return db
    .selectFrom('verification_codes')
    .selectAll()
    .where('code_id', '=', codeId)
    .executeTakeFirst();
}

/**
 * Counts one try against a live code in a single guarded update, so concurrent tries can never
 * push it past `maxAttempts`. Answers the count including this try, or undefined when the code
 * has no try left or is no longer live (then the try must not be checked).
 */
export async function countCodeAttempt(
  db: Db,
  codeId: string,
  maxAttempts: number,
): Promise<number | undefined> {
  const row = await db
    .updateTable('verification_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('code_id', '=', codeId)
    .where('attempts', '<', maxAttempts)
    .where('consumed_at', 'is', null)
    .returning('attempts')
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.attempts);
}

/** Uses a code once; false when another request used (or a new code voided) it first. */
export async function consumeCode(db: Db, codeId: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('verification_codes')
    .set({ consumed_at: now })
    .where('code_id', '=', codeId)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Drops codes that expired before `before` (housekeeping). */
export async function purgeExpiredCodes(db: Db, before: number): Promise<void> {
  await db.deleteFrom('verification_codes').where('expires_at', '<', before).execute();
}
