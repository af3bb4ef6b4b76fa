import type { Kysely } from 'kysely';

/**
 * Send caps per account (S3): each outgoing message records the account it was sent on behalf of,
 * and one lock row per capped key (a recipient, an account) serialises the count-then-insert of
 * concurrent sends. Expired verification codes are purged by expiry, so that column is indexed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox_messages').addColumn('account_id', 'varchar(64)').execute();
  await db.schema
    .createIndex('outbox_messages_account_idx')
    .on('outbox_messages')
    .columns(['account_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('send_quota_locks')
    .addColumn('lock_key', 'varchar(400)', (c) => c.primaryKey())
    .addColumn('locked_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('verification_codes_expires_idx')
    .on('verification_codes')
    .column('expires_at')
    .execute();
}

/** Drops the lock table, the column and the indexes. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('verification_codes_expires_idx').execute();
  await db.schema.dropTable('send_quota_locks').execute();
  await db.schema.dropIndex('outbox_messages_account_idx').execute();
  await db.schema.alterTable('outbox_messages').dropColumn('account_id').execute();
}
