import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Deployment settings, operations side (docs/adr/0014-deployment-settings-operations.md): the
 * configuration generation every instance polls, terms and licence metadata, the push master
 * switch and event filters, mobile platforms (sealed credentials) and end users' device endpoints.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const idType = isPostgres(db) ? sql`varchar(512) collate "C"` : sql`varchar(512)`;

  // Small named values: config_generation, terms documents, dashboard update acknowledgement.
  await db.schema
    .createTable('deployment_config')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db
    .insertInto('deployment_config' as never)
    .values({ name: 'config_generation', value: '1', updated_at: 0 })
    .execute();

  await db.schema
    .createTable('license_files')
    .addColumn('file_name', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('date_modified', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhook_integrations')
    .addColumn('service_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('endpoint_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_integrations_pk', ['service_name', 'endpoint_name'])
    .execute();

  await db.schema
    .createTable('event_filters')
    .addColumn('event_type', 'varchar(128)', (c) => c.notNull())
    .addColumn('entity_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('entity_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    // JSON array of integration names.
    .addColumn('integrations', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_filters_pk', ['event_type', 'entity_type', 'entity_id'])
    .execute();

  await db.schema
    .createTable('push_platforms')
    .addColumn('platform_application_arn', idType, (c) => c.primaryKey())
    // One application per platform type (GCM, APNS, APNS_SANDBOX).
    .addColumn('platform', 'varchar(16)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(256)', (c) => c.notNull())
    // SecretBox-sealed JSON of the credentials.
    .addColumn('credentials', 'text', (c) => c.notNull())
    // Non-secret attributes (JSON): certificate expiry, FCM project, apns-topic.
    .addColumn('attributes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('push_endpoints')
    .addColumn('platform_endpoint_arn', idType, (c) => c.primaryKey())
    .addColumn('platform_application_arn', idType, (c) =>
      c.notNull().references('push_platforms.platform_application_arn').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.notNull().references('users.user_id').onDelete('cascade'),
    )
    .addColumn('device_token', 'varchar(4096)', (c) => c.notNull())
    // SHA-256 of the token: tokens are long, the unique index stays small.
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('push_endpoints_token_idx')
    .on('push_endpoints')
    .columns(['platform_application_arn', 'token_hash'])
    .unique()
    .execute();
  await db.schema
    .createIndex('push_endpoints_user_idx')
    .on('push_endpoints')
    .column('user_id')
    .execute();
}

/** Drops the deployment-settings tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('push_endpoints').execute();
  await db.schema.dropTable('push_platforms').execute();
  await db.schema.dropTable('event_filters').execute();
  await db.schema.dropTable('webhook_integrations').execute();
  await db.schema.dropTable('license_files').execute();
  await db.schema.dropTable('deployment_config').execute();
}
