import type { Kysely } from 'kysely';

/** Users, roles and permissions, sessions with refresh-token families, per-install secrets. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('user_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_name', 'varchar(320)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('name', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('super_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('mfa', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('phone_number', 'varchar(32)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('password_changed_at', 'bigint')
    .execute();

  await db.schema
    .createTable('roles')
    .addColumn('role', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('label', 'varchar(128)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('role_permissions')
    .addColumn('role', 'varchar(64)', (c) =>
      c.notNull().references('roles.role').onDelete('cascade'),
    )
    .addColumn('permission', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('role_permissions_pk', ['role', 'permission'])
    .execute();

  await db.schema
    .createTable('user_roles')
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.notNull().references('users.user_id').onDelete('cascade'),
    )
    .addColumn('role', 'varchar(64)', (c) => c.notNull().references('roles.role'))
    .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role'])
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('session_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.notNull().references('users.user_id').onDelete('cascade'),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('revoked_reason', 'varchar(64)')
    .addColumn('user_agent', 'varchar(512)')
    .addColumn('ip', 'varchar(64)')
    .execute();
  await db.schema
    .createIndex('sessions_user_idx')
    .on('sessions')
    .columns(['user_id', 'revoked_at'])
    .execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('token_hash', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('session_id', 'varchar(64)', (c) =>
      c.notNull().references('sessions.session_id').onDelete('cascade'),
    )
    .addColumn('issued_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('rotated_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('refresh_tokens_session_idx')
    .on('refresh_tokens')
    .column('session_id')
    .execute();

  await db.schema
    .createTable('system_secrets')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

/** Drops everything `up` made, newest first. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'system_secrets',
    'refresh_tokens',
    'sessions',
    'user_roles',
    'role_permissions',
    'roles',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
