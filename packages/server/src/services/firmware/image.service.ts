import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  ERROR_CODES,
  SERVER_MESSAGES,
  type CreateImageBody,
  type CreatePackageImageBody,
  type ImageFields,
  type ImageListQuery,
} from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import {
  completeUpload,
  deleteImageIfUnused,
  deleteUpload,
  restoreUpload,
  findImage,
  findUploadByKey,
  insertImage,
  insertUpload,
  listImages,
  setImageArchived,
  staleUploads,
  takeUpload,
  type OtaImageRow,
} from '../../repositories/ota-image.repository.js';
import { BlobTooLargeError, type BlobDigest, type BlobStore } from '../../storage/blob-store.js';
import type { ImageSigner } from './image-signer.js';

/** Signed download URLs in image answers and OTA offers stay valid this long (RainMaker: 24 h). */
export const IMAGE_URL_TTL_SECONDS = 24 * 3600;
/** An upload URL must be used within this time. */
const UPLOAD_URL_TTL_SECONDS = 3600;
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const ZIP_EMPTY_MAGIC = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

const nowSeconds = () => Math.floor(Date.now() / 1000);
/** A 22-character URL-safe random id. */
export const newOtaId = () => randomBytes(16).toString('base64url');

/** 413 with the failure body. */
const tooLarge = () =>
  new AppError(413, ERROR_CODES.payloadTooLarge, SERVER_MESSAGES.imageTooLarge);

/** Whether a file name is a zip package (else a .bin image). */
const isZipName = (fileName: string) => fileName.toLowerCase().endsWith('.zip');

/**
 * Firmware images: upload (base64 or through a signed upload URL), digests and a signed
 * manifest, listing, archive and delete. Blobs live in the BlobStore; rows in `ota_images`.
 */
export class ImageService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: BlobStore,
    private readonly signer: ImageSigner,
    /** The largest image accepted, in bytes. */
    readonly maxBytes: number,
  ) {}

  /** The install's public key for manifest signatures. */
  get publicKeyPem(): string {
    return this.signer.publicKeyPem;
  }

  /** POST /otaimage: the image arrives base64-encoded in the JSON body. */
  async createFromBase64(body: CreateImageBody, userId: string): Promise<OtaImageRow> {
    const text = body.base64_fwimage.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1)
      throw badRequest(SERVER_MESSAGES.invalidBase64, ERROR_CODES.otaImageInvalid);
    const bytes = Buffer.from(text, 'base64');
    if (bytes.length === 0)
      throw badRequest(SERVER_MESSAGES.emptyImage, ERROR_CODES.otaImageInvalid);
    if (bytes.length > this.maxBytes) throw tooLarge();
    const fileName = body.file_name ?? `${body.image_name.replace(/\s+/g, '_')}.bin`;
    checkFileName(fileName);
    if (isZipName(fileName)) checkZipHeader(bytes);
    const otaImageId = newOtaId();
    const blobKey = `images/${otaImageId}`;
    const digest = await this.store.put(blobKey, Readable.from([bytes]), this.maxBytes);
    return this.record(otaImageId, blobKey, fileName, body, digest, userId);
  }

  /** GET /otaimage/package/upload: a signed URL that takes one PUT of the raw file. */
  async createUploadUrl(
    fileName: string,
    userId: string,
  ): Promise<{ url: string; filePath: string; expiresAt: number }> {
    const now = nowSeconds();
    const filePath = newOtaId();
    const blobKey = `uploads/${filePath}`;
    await insertUpload(this.db, { filePath, fileName, blobKey, userId, now });
    const expiresAt = now + UPLOAD_URL_TTL_SECONDS;
    return { url: this.store.uploadUrl(blobKey, expiresAt, this.maxBytes), filePath, expiresAt };
  }

  /** The raw PUT to an upload URL (already verified by its signature). */
  async receiveUpload(
    blobKey: string,
    body: Readable,
    declaredLength: number | undefined,
  ): Promise<BlobDigest> {
    const upload = await findUploadByKey(this.db, blobKey);
    if (!upload) throw notFound(SERVER_MESSAGES.uploadUrlInvalid, ERROR_CODES.uploadInvalid);
    if (declaredLength !== undefined && declaredLength > this.maxBytes) throw tooLarge();
    try {
      const digest = await this.store.put(blobKey, body, this.maxBytes);
      await completeUpload(this.db, blobKey, digest.size, nowSeconds());
      return digest;
    } catch (error) {
      if (error instanceof BlobTooLargeError) throw tooLarge();
      throw error;
    }
  }

  /**
   * POST /otaimage/package: an uploaded file becomes an image. Whether the upload arrived is
   * read from the store itself, so this works the same for uploads the store took directly
   * (an S3 presigned PUT) as for the local upload route.
   */
  async createFromUpload(body: CreatePackageImageBody): Promise<OtaImageRow> {
    // Taken, not read: of several requests naming the same upload at once, one makes the image
    // and the others find no upload (before, each made an image of the one file, and deleting
    // one image deleted the others' file).
    const upload = await takeUpload(this.db, body.file_path);
    if (!upload) throw badRequest(SERVER_MESSAGES.uploadNotFound, ERROR_CODES.uploadInvalid);
    let used = false;
    try {
      const size = await this.store.size(upload.blob_key);
      if (size === undefined)
        throw badRequest(SERVER_MESSAGES.uploadNotFound, ERROR_CODES.uploadInvalid);
      if (size > this.maxBytes) {
        await this.store.delete(upload.blob_key);
        used = true;
        throw tooLarge();
      }
      const digest = await this.store.digest(upload.blob_key);
      if (digest.size === 0)
        throw badRequest(SERVER_MESSAGES.emptyImage, ERROR_CODES.otaImageInvalid);
      if (isZipName(upload.file_name)) {
        const head = await readHead(this.store, upload.blob_key);
        checkZipHeader(head);
      }
      const row = await this.record(
        newOtaId(),
        upload.blob_key,
        upload.file_name,
        body,
        digest,
        upload.user_id,
      );
      used = true;
      return row;
    } finally {
      // Refused (not uploaded yet, empty, not a zip…): the upload stays usable for a retry, and
      // the sweep still removes it when it expires.
      if (!used) await restoreUpload(this.db, upload);
    }
  }

  /**
   * GET admin/otaimage. Without `archived` the list shows active images, but a lookup by id finds
   * the image archived or not: a details page opened from the archived list needs it.
   */
  list(query: ImageListQuery) {
    const archived = query.archived ?? (query.ota_image_id === undefined ? false : undefined);
    return listImages(
      this.db,
      {
        archived,
        otaImageId: query.ota_image_id,
        imageName: query.image_name || undefined,
        type: query.type || undefined,
        model: query.model || undefined,
        contains: query.contains || undefined,
        faultImage: query.fault_image,
      },
      query.start_id,
      query.num_records,
    );
  }

  /** One image, or 404. */
  async get(otaImageId: string): Promise<OtaImageRow> {
    const row = await findImage(this.db, otaImageId);
    if (!row) throw notFound(SERVER_MESSAGES.imageNotFound, ERROR_CODES.otaImageNotFound);
    return row;
  }

  /** A signed download URL for the image, valid for IMAGE_URL_TTL_SECONDS. */
  downloadUrl(row: Pick<OtaImageRow, 'blob_key' | 'file_name'>, now = nowSeconds()): string {
    // Rounded to the hour so every offer of the same hour carries the same URL (cacheable).
    const expiresAt = Math.ceil((now + IMAGE_URL_TTL_SECONDS) / 3600) * 3600;
    return this.store.downloadUrl(row.blob_key, row.file_name, expiresAt);
  }

  /** PUT admin/otaimage?archive=. */
  async setArchived(otaImageId: string, archived: boolean): Promise<void> {
    if (!(await setImageArchived(this.db, otaImageId, archived)))
      throw notFound(SERVER_MESSAGES.imageNotFound, ERROR_CODES.otaImageNotFound);
  }

  /** DELETE /otaimage: refused while an active job uses the image. */
  async delete(otaImageId: string): Promise<void> {
    const row = await this.get(otaImageId);
    const outcome = await deleteImageIfUnused(this.db, otaImageId);
    if (outcome === 'in-use')
      throw badRequest(SERVER_MESSAGES.imageInUse, ERROR_CODES.otaImageInUse);
    if (outcome === 'missing')
      throw notFound(SERVER_MESSAGES.imageNotFound, ERROR_CODES.otaImageNotFound);
    await this.store.delete(row.blob_key);
  }

  /** Removes uploads that never became images (and their files). */
  async purgeStaleUploads(): Promise<number> {
    const stale = await staleUploads(this.db, nowSeconds() - 2 * UPLOAD_URL_TTL_SECONDS);
    for (const upload of stale) {
      await this.store.delete(upload.blob_key);
      await deleteUpload(this.db, upload.file_path);
    }
    return stale.length;
  }

  private async record(
    otaImageId: string,
    blobKey: string,
    fileName: string,
    fields: ImageFields,
    digest: BlobDigest,
    userId: string,
  ): Promise<OtaImageRow> {
    const manifest = {
      ota_image_id: otaImageId,
      type: fields.type,
      model: fields.model ?? '',
      fw_version: fields.fw_version ?? '',
      file_size: digest.size,
      sha256: digest.sha256,
    };
    const row: OtaImageRow = {
      ota_image_id: otaImageId,
      image_name: fields.image_name,
      type: fields.type,
      model: manifest.model,
      fw_version: manifest.fw_version,
      fault_id: fields.fault_id ?? null,
      file_name: fileName,
      blob_key: blobKey,
      file_size: digest.size,
      file_md5: digest.md5,
      file_sha256: digest.sha256,
      signature: this.signer.sign(manifest),
      is_package: isZipName(fileName) ? 1 : 0,
      archived: 0,
      uploaded_by: userId,
      upload_timestamp: nowSeconds(),
    };
    try {
      await insertImage(this.db, row);
    } catch (error) {
      await this.store.delete(blobKey);
      throw error;
    }
    return row;
  }
}

function checkFileName(fileName: string): void {
  if (/[/\\\0]/.test(fileName) || !/\.(bin|zip)$/i.test(fileName))
    throw badRequest(SERVER_MESSAGES.invalidFileType, ERROR_CODES.otaImageInvalid);
}

function checkZipHeader(head: Buffer): void {
  const magic = head.subarray(0, 4);
  if (!magic.equals(ZIP_MAGIC) && !magic.equals(ZIP_EMPTY_MAGIC))
    throw badRequest(SERVER_MESSAGES.invalidZip, ERROR_CODES.otaImageInvalid);
}

async function readHead(store: BlobStore, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of store.read(key, { start: 0, end: 3 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
