import type { Kysely } from 'kysely';

/**
 * Self-service accounts (docs/adr/0011-self-service-accounts-and-mfa.md): per-user second-factor
 * state (a phone number awaiting its code, the authenticator-app secret sealed with SecretBox, the
 * last accepted TOTP step), hashed one-use recovery codes, and the short-lived sessions of the MFA
 * step of a sign-in (stored hashed, single use, bound to one user).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_mfa')
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.primaryKey().references('users.user_id').onDelete('cascade'),
    )
    // users.phone_number holds the verified number; a new one waits here for its code.
    .addColumn('pending_phone_number', 'varchar(32)')
    .addColumn('totp_secret_sealed', 'text')
    .addColumn('totp_pending_sealed', 'text')
    .addColumn('totp_enabled_at', 'bigint')
    // The newest 30-second step a code was accepted for: the same code never works twice.
    .addColumn('totp_last_step', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('mfa_recovery_codes')
    .addColumn('code_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.notNull().references('users.user_id').onDelete('cascade'),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('mfa_recovery_codes_user_idx')
    .on('mfa_recovery_codes')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('mfa_challenges')
    .addColumn('challenge_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.notNull().references('users.user_id').onDelete('cascade'),
    )
    .addColumn('method', 'varchar(8)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('consumed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('mfa_challenges_user_idx')
    .on('mfa_challenges')
    .columns(['user_id', 'created_at'])
    .execute();
}

/** Drops the three tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mfa_challenges').execute();
  await db.schema.dropTable('mfa_recovery_codes').execute();
  await db.schema.dropTable('user_mfa').execute();
}
