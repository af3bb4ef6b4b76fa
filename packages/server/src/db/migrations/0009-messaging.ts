import type { Kysely } from 'kysely';

/**
 * Outgoing mail and SMS (every message is kept: sent over SMTP or, without SMTP, only here for an
 * operator to read) and one-time verification codes (stored as HMACs, never in clear).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('outbox_messages')
    .addColumn('message_id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('channel', 'varchar(8)', (c) => c.notNull())
    .addColumn('recipient', 'varchar(320)', (c) => c.notNull())
    .addColumn('sender', 'varchar(400)')
    .addColumn('subject', 'varchar(998)')
    .addColumn('body_text', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text')
    .addColumn('purpose', 'varchar(64)', (c) => c.notNull())
    // 'smtp' | 'sms' when a transport took it, 'outbox' when none is configured.
    .addColumn('transport', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .addColumn('error', 'varchar(1000)')
    .execute();
  await db.schema
    .createIndex('outbox_messages_recipient_idx')
    .on('outbox_messages')
    .columns(['recipient', 'created_at'])
    .execute();
  await db.schema
    .createIndex('outbox_messages_created_idx')
    .on('outbox_messages')
    .column('created_at')
    .execute();

  await db.schema
    .createTable('verification_codes')
    .addColumn('code_id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
    .addColumn('subject', 'varchar(320)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('payload', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('consumed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('verification_codes_subject_idx')
    .on('verification_codes')
    .columns(['purpose', 'subject', 'created_at'])
    .execute();
}

/** Drops both tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('verification_codes').execute();
  await db.schema.dropTable('outbox_messages').execute();
}
