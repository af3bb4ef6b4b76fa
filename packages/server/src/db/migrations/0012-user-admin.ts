import type { Kysely } from 'kysely';

/**
 * User administration: the Add User profile (kept beside `users`, whose phone_number is the MFA
 * phone), per-user custom data, the e-mail templates and the verified sender addresses.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_profiles')
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.primaryKey().references('users.user_id').onDelete('cascade'),
    )
    .addColumn('first_name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('city', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('phone_number', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('geo_region', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    // YYYY-MM-DD as entered; a calendar date, not an instant.
    .addColumn('registration_date', 'varchar(10)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'varchar(64)')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_custom_data')
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.notNull().references('users.user_id').onDelete('cascade'),
    )
    .addColumn('data_key', 'varchar(64)', (c) => c.notNull())
    // JSON text of the value.
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_custom_data_pk', ['user_id', 'data_key'])
    .execute();

  await db.schema
    .createTable('message_templates')
    .addColumn('template_type', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('message_subject', 'varchar(200)', (c) => c.notNull())
    .addColumn('message_text', 'text', (c) => c.notNull())
    // '' = the deployment's MAIL_FROM.
    .addColumn('from_email_address', 'varchar(320)', (c) => c.notNull().defaultTo(''))
    .addColumn('from_user_name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'varchar(64)')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sender_addresses')
    .addColumn('email', 'varchar(320)', (c) => c.primaryKey())
    .addColumn('requested_by', 'varchar(64)')
    .addColumn('requested_at', 'bigint', (c) => c.notNull())
    // null until the address's owner confirmed the code sent to it.
    .addColumn('verified_at', 'bigint')
    .execute();
}

/** Drops the four tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'sender_addresses',
    'message_templates',
    'user_custom_data',
    'user_profiles',
  ])
    await db.schema.dropTable(table).execute();
}
