import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Firmware images, staged uploads, OTA jobs, one execution per (job, node) and each execution's
 * status history (ARCHITECTURE §6). Job counts are always derived from the executions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const idType = isPostgres(db) ? sql`varchar(64) collate "C"` : sql`varchar(64)`;

  await db.schema
    .createTable('ota_images')
    .addColumn('ota_image_id', idType, (c) => c.primaryKey())
    .addColumn('image_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('model', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('fw_version', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('fault_id', 'varchar(64)')
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('blob_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('file_size', 'bigint', (c) => c.notNull())
    .addColumn('file_md5', 'varchar(32)', (c) => c.notNull())
    .addColumn('file_sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('signature', 'varchar(128)', (c) => c.notNull())
    .addColumn('is_package', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('uploaded_by', 'varchar(64)')
    .addColumn('upload_timestamp', 'bigint', (c) => c.notNull())
    .execute();
  // Newest first, keyset by (upload_timestamp, ota_image_id) within archived / not archived.
  await db.schema
    .createIndex('ota_images_list_idx')
    .on('ota_images')
    .columns(['archived', 'upload_timestamp', 'ota_image_id'])
    .execute();

  await db.schema
    .createTable('ota_uploads')
    .addColumn('file_path', idType, (c) => c.primaryKey())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('blob_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('file_size', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .execute();

  await db.schema
    .createTable('ota_jobs')
    .addColumn('ota_job_id', idType, (c) => c.primaryKey())
    .addColumn('ota_job_name', 'varchar(64)', (c) => c.notNull())
    // No foreign key: a job's history outlives a deleted (inactive) image.
    .addColumn('ota_image_id', idType, (c) => c.notNull())
    .addColumn('description', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('force_push', 'integer', (c) => c.notNull())
    .addColumn('groups', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('nodes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('total_count', 'integer', (c) => c.notNull())
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'varchar(64)')
    .addColumn('request_key', 'varchar(128)')
    .addColumn('triggered_timestamp', 'bigint', (c) => c.notNull())
    .addColumn('cancelled_timestamp', 'bigint')
    .addColumn('finished_timestamp', 'bigint')
    .execute();
  await db.schema
    .createIndex('ota_jobs_list_idx')
    .on('ota_jobs')
    .columns(['archived', 'triggered_timestamp', 'ota_job_id'])
    .execute();
  await db.schema.createIndex('ota_jobs_image_idx').on('ota_jobs').column('ota_image_id').execute();
  await db.schema.createIndex('ota_jobs_status_idx').on('ota_jobs').column('status').execute();
  // A retried creation with the same Idempotency-Key finds the job it made (QUALITY R4).
  await db.schema
    .createIndex('ota_jobs_request_key_idx')
    .on('ota_jobs')
    .columns(['created_by', 'request_key'])
    .unique()
    .execute();

  await db.schema
    .createTable('ota_executions')
    .addColumn('ota_job_id', idType, (c) =>
      c.notNull().references('ota_jobs.ota_job_id').onDelete('cascade'),
    )
    .addColumn('node_id', idType, (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('additional_info', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('status_timestamp', 'bigint', (c) => c.notNull())
    .addColumn('ts_source', 'varchar(8)', (c) => c.notNull().defaultTo('CLOUD'))
    .addColumn('offered_at', 'bigint')
    .addColumn('offer_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('ota_executions_pk', ['ota_job_id', 'node_id'])
    .execute();
  // Summary counts (job, status) and "what is pending for this node" (node, status).
  await db.schema
    .createIndex('ota_executions_job_status_idx')
    .on('ota_executions')
    .columns(['ota_job_id', 'status'])
    .execute();
  await db.schema
    .createIndex('ota_executions_node_idx')
    .on('ota_executions')
    .columns(['node_id', 'status'])
    .execute();

  await db.schema
    .createTable('ota_execution_history')
    .addColumn('ota_job_id', idType, (c) =>
      c.notNull().references('ota_jobs.ota_job_id').onDelete('cascade'),
    )
    .addColumn('node_id', idType, (c) => c.notNull())
    // Hash of (status, node ts, info): the same report delivered twice is stored once.
    .addColumn('entry_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('additional_info', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('ts_source', 'varchar(8)', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('ota_execution_history_pk', ['ota_job_id', 'node_id', 'entry_key'])
    .execute();
}

/** Drops the OTA tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ota_execution_history').execute();
  await db.schema.dropTable('ota_executions').execute();
  await db.schema.dropTable('ota_jobs').execute();
  await db.schema.dropTable('ota_uploads').execute();
  await db.schema.dropTable('ota_images').execute();
}
