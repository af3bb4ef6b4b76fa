import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Identity settings and social sign-in (docs/adr/0012-identity-providers-and-social-sign-in.md):
 * identity providers and app clients per user pool, the pool's domain, one app-client backup per
 * pool, social identities (issuer, subject) linked to accounts, and pending OAuth sign-ins.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const idType = isPostgres(db) ? sql`varchar(128) collate "C"` : sql`varchar(128)`;

  await db.schema
    .createTable('identity_providers')
    .addColumn('pool', 'varchar(16)', (c) => c.notNull())
    .addColumn('provider_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(4096)', (c) => c.notNull())
    // client_secret (Google, GitHub) or private_key (Apple), sealed with SecretBox.
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('provider_name', 'varchar(4096)')
    .addColumn('key_id', 'varchar(4096)')
    .addColumn('team_id', 'varchar(4096)')
    .addColumn('callback_urls', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('issuer', 'varchar(512)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('identity_providers_pk', ['pool', 'provider_type'])
    .execute();

  await db.schema
    .createTable('app_clients')
    .addColumn('client_id', idType, (c) => c.primaryKey())
    .addColumn('pool', 'varchar(16)', (c) => c.notNull())
    .addColumn('client_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('callback_urls', 'text', (c) => c.notNull())
    .addColumn('identity_providers', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('app_clients_pool_idx').on('app_clients').column('pool').execute();

  await db.schema
    .createTable('cognito_domains')
    .addColumn('pool', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('domain_name', 'varchar(63)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('app_client_backups')
    .addColumn('pool', 'varchar(16)', (c) => c.primaryKey())
    // The pool's app clients as JSON, exactly as they were.
    .addColumn('app_clients', 'text', (c) => c.notNull())
    .addColumn('client_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('social_identities')
    .addColumn('issuer', 'varchar(512)', (c) => c.notNull())
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.notNull().references('users.user_id').onDelete('cascade'),
    )
    .addColumn('provider_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('email', 'varchar(320)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_login_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('social_identities_pk', ['issuer', 'subject'])
    .execute();
  await db.schema
    .createIndex('social_identities_user_idx')
    .on('social_identities')
    .column('user_id')
    .execute();

  // Pending sign-ins (state → PKCE verifier, nonce, return URL) and, after the provider answered,
  // the one-time code an app redeems. Keys are SHA-256 hashes; rows expire and are used once.
  await db.schema
    .createTable('oauth_requests')
    .addColumn('key_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('pool', 'varchar(16)', (c) => c.notNull())
    .addColumn('provider_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('redirect_uri', 'varchar(1024)', (c) => c.notNull())
    .addColumn('code_verifier', 'varchar(128)')
    .addColumn('nonce', 'varchar(128)')
    .addColumn('app_code_challenge', 'varchar(64)')
    .addColumn('user_id', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('oauth_requests_expires_idx')
    .on('oauth_requests')
    .column('expires_at')
    .execute();
}

/** Drops the identity tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'oauth_requests',
    'social_identities',
    'app_client_backups',
    'cognito_domains',
    'app_clients',
    'identity_providers',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
