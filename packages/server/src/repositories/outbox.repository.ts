import type { Kysely, Transaction } from 'kysely';
import type { Database, OutboxMessagesTable } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Locks one row per key for the rest of the transaction (PostgreSQL row locks; SQLite runs one
 * transaction at a time anyway). Keys are taken in sorted order so two sends never deadlock.
 */
export async function lockSendKeys(db: Db, keys: readonly string[], now: number): Promise<void> {
  for (const key of [...keys].sort()) {
    await db
      .insertInto('send_quota_locks')
      .values({ lock_key: key, locked_at: now })
      .onConflict((oc) => oc.column('lock_key').doUpdateSet({ locked_at: now }))
      .execute();
  }
}

/** Messages to one recipient created after `since`. */
export async function countSentTo(db: Db, recipient: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('outbox_messages')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('recipient', '=', recipient)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Messages sent on behalf of one account after `since`. */
export async function countSentFor(db: Db, accountId: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('outbox_messages')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('account_id', '=', accountId)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertOutboxMessage(db: Db, row: OutboxMessagesTable): Promise<void> {
  await db.insertInto('outbox_messages').values(row).execute();
}

/** Records the delivery (or its error) of one message. */
export async function markOutboxDelivery(
  db: Db,
  messageId: string,
  error: string | null,
  now: number,
): Promise<void> {
  await db
    .updateTable('outbox_messages')
    .set(error === null ? { delivered_at: now } : { error: error.slice(0, 1000) })
    .where('message_id', '=', messageId)
    .execute();
}

/** The newest messages first, optionally of one channel. */
export async function listOutboxMessages(db: Db, limit: number, channel?: 'email' | 'sms') {
  let query = db
    .selectFrom('outbox_messages')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('message_id', 'desc')
    .limit(limit);
  if (channel) query = query.where('channel', '=', channel);
  return query.execute();
}
