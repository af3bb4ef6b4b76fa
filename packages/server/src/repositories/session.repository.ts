import type { Kysely, Transaction } from 'kysely';
import type { Database, RefreshTokensTable, SessionsTable } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Creates a session (a refresh-token family). */
export async function insertSession(db: Db, session: SessionsTable): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

/** Finds a session by id. */
export async function findSession(db: Db, sessionId: string): Promise<SessionsTable | undefined> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
}

/** Revokes one session; returns whether it was live. */
export async function revokeSession(
  db: Db,
  sessionId: string,
  reason: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('session_id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Revokes every live session of a user; returns how many. */
export async function revokeUserSessions(
  db: Db,
  userId: string,
  reason: string,
  now: number,
): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Stores a refresh token by its hash. */
export async function insertRefreshToken(db: Db, token: RefreshTokensTable): Promise<void> {
  await db.insertInto('refresh_tokens').values(token).execute();
}

/** A refresh token with its session. */
export interface RefreshTokenWithSession extends RefreshTokensTable {
  user_id: string;
  session_expires_at: number;
  revoked_at: number | null;
}

/** Finds a refresh token and its session by the token's hash. */
export async function findRefreshToken(
  db: Db,
  tokenHash: string,
): Promise<RefreshTokenWithSession | undefined> {
  return db
    .selectFrom('refresh_tokens as t')
    .innerJoin('sessions as s', 's.session_id', 't.session_id')
    .select([
      't.token_hash',
      't.session_id',
      't.issued_at',
      't.expires_at',
      't.rotated_at',
      's.user_id',
      's.expires_at as session_expires_at',
      's.revoked_at',
    ])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks a token rotated if nobody did yet; false means another request rotated it first. */
export async function claimRotation(db: Db, tokenHash: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ rotated_at: now })
    .where('token_hash', '=', tokenHash)
    .where('rotated_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes tokens and sessions that can no longer be used (housekeeping). */
export async function purgeExpired(db: Db, now: number): Promise<void> {
  await db.deleteFrom('refresh_tokens').where('expires_at', '<', now).execute();
  await db.deleteFrom('sessions').where('expires_at', '<', now).execute();
}
