import { sql, type Kysely, type Selectable } from 'kysely';
import { lockImageRow } from '../db/dialect.js';
import type { Database, OtaImagesTable } from '../db/schema.js';
import { atOrOlderThan } from './keyset.js';
import { transactionWithRetry } from '../db/transaction-retry.js';

export type OtaImageRow = Selectable<OtaImagesTable>;

/** Filters of the image list (all optional). */
export interface ImageFilter {
  /** Only archived (true) or only active (false) images; undefined: both. */
  archived?: boolean;
  otaImageId?: string;
  imageName?: string;
  type?: string;
  model?: string;
  /** Lower-case substring of name, type or model. */
  contains?: string;
  faultImage?: boolean;
}

/** Escapes LIKE wildcards so a search matches literally. */
function likeLiteral(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function filtered(db: Kysely<Database>, filter: ImageFilter) {
  let query = db.selectFrom('ota_images');
  if (filter.archived !== undefined) query = query.where('archived', '=', filter.archived ? 1 : 0);
  if (filter.otaImageId) query = query.where('ota_image_id', '=', filter.otaImageId);
  if (filter.imageName) query = query.where('image_name', '=', filter.imageName);
  if (filter.type) query = query.where('type', '=', filter.type);
  if (filter.model) query = query.where('model', '=', filter.model);
  if (filter.faultImage !== undefined)
    query = query.where('fault_id', filter.faultImage ? 'is not' : 'is', null);
  if (filter.contains) {
    const pattern = likeLiteral(filter.contains);
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(image_name)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(type)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(model)`, 'like', sql`${pattern} escape '\\'`),
      ]),
    );
  }
  return query;
}

/**
 * One page of images, newest first, keyset on (upload_timestamp, ota_image_id): `startId` is the
 * first image of the page (inclusive); the answer's nextId the first of the next page.
 */
export async function listImages(
  db: Kysely<Database>,
  filter: ImageFilter,
  startId: string | undefined,
  limit: number,
): Promise<{ rows: OtaImageRow[]; total: number; nextId?: string }> {
  let page = filtered(db, filter).selectAll();
  if (startId) {
    const start = await db
      .selectFrom('ota_images')
      .select(['upload_timestamp', 'ota_image_id'])
      .where('ota_image_id', '=', startId)
      .executeTakeFirst();
    if (!start) return { rows: [], total: await countImages(db, filter) };
    page = page.where(
      atOrOlderThan('upload_timestamp', 'ota_image_id', {
        time: Number(start.upload_timestamp),
        id: start.ota_image_id,
      }),
    );
  }
  const rows = await page
    .orderBy('upload_timestamp', 'desc')
    .orderBy('ota_image_id', 'desc')
    .limit(limit + 1)
    .execute();
  const next = rows.length > limit ? rows.pop() : undefined;
  return {
    rows,
    total: await countImages(db, filter),
    ...(next ? { nextId: next.ota_image_id } : {}),
  };
}

async function countImages(db: Kysely<Database>, filter: ImageFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One image by id, archived or not. */
export function findImage(
  db: Kysely<Database>,
  otaImageId: string,
): Promise<OtaImageRow | undefined> {
  return db
    .selectFrom('ota_images')
    .selectAll()
    .where('ota_image_id', '=', otaImageId)
    .executeTakeFirst();
}

/** Stores a new image. */
export async function insertImage(db: Kysely<Database>, row: OtaImageRow): Promise<void> {
  await db.insertInto('ota_images').values(row).execute();
}

/** Sets the archived flag; false when there is no such image. */
export async function setImageArchived(
  db: Kysely<Database>,
  otaImageId: string,
  archived: boolean,
): Promise<boolean> {
  const result = await db
    .updateTable('ota_images')
    .set({ archived: archived ? 1 : 0 })
    .where('ota_image_id', '=', otaImageId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Deletes the image row unless an active job uses it; says which happened. The image's row is
 * locked first, so a job being created with it at the same moment either commits before the
 * check below (and is found) or finds the image gone.
 */
export async function deleteImageIfUnused(
  db: Kysely<Database>,
  otaImageId: string,
): Promise<'deleted' | 'in-use' | 'missing'> {
  return transactionWithRetry(db, async (trx) => {
    if (!(await lockImageRow(trx, otaImageId, 'update')).exists) return 'missing';
    const activeJob = await trx
      .selectFrom('ota_jobs')
      .select('ota_job_id')
      .where('ota_image_id', '=', otaImageId)
      .where('status', '=', 'active')
      .executeTakeFirst();
    if (activeJob) return 'in-use';
    const result = await trx
      .deleteFrom('ota_images')
      .where('ota_image_id', '=', otaImageId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0 ? 'deleted' : 'missing';
  });
}

/** Records a signed upload URL handed out for `filePath`. */
export async function insertUpload(
  db: Kysely<Database>,
  upload: { filePath: string; fileName: string; blobKey: string; userId: string; now: number },
): Promise<void> {
  await db
    .insertInto('ota_uploads')
    .values({
      file_path: upload.filePath,
      file_name: upload.fileName,
      blob_key: upload.blobKey,
      user_id: upload.userId,
      file_size: null,
      created_at: upload.now,
      completed_at: null,
    })
    .execute();
}

/** The upload behind a blob key (the PUT route finds it by the key it was signed for). */
export function findUploadByKey(db: Kysely<Database>, blobKey: string) {
  return db
    .selectFrom('ota_uploads')
    .selectAll()
    .where('blob_key', '=', blobKey)
    .executeTakeFirst();
}

/** Marks an upload complete with the size that arrived. */
export async function completeUpload(
  db: Kysely<Database>,
  blobKey: string,
  size: number,
  now: number,
): Promise<void> {
  await db
    .updateTable('ota_uploads')
    .set({ file_size: size, completed_at: now })
    .where('blob_key', '=', blobKey)
    .execute();
}

/**
 * Takes an upload for one image: deletes its row and returns it, or undefined when there is none
 * (never handed out, already taken by a request running at the same moment, or expired). Only
 * the request that took it may make an image of its file; on failure it gives the row back
 * (`restoreUpload`).
 */
export async function takeUpload(db: Kysely<Database>, filePath: string) {
  return db
    .deleteFrom('ota_uploads')
    .where('file_path', '=', filePath)
    .returningAll()
    .executeTakeFirst();
}

/** Puts back an upload taken by `takeUpload` that did not become an image. */
export async function restoreUpload(
  db: Kysely<Database>,
  upload: Selectable<Database['ota_uploads']>,
): Promise<void> {
  await db
    .insertInto('ota_uploads')
    .values(upload)
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Forgets an upload (it became an image, or expired). */
export async function deleteUpload(db: Kysely<Database>, filePath: string): Promise<void> {
  await db.deleteFrom('ota_uploads').where('file_path', '=', filePath).execute();
}

/** Uploads older than `before` (epoch seconds) that never became images. */
export function staleUploads(db: Kysely<Database>, before: number) {
  return db
    .selectFrom('ota_uploads')
    .select(['file_path', 'blob_key'])
    .where('created_at', '<', before)
    .limit(500)
    .execute();
}
