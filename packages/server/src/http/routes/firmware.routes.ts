import {
  ArchiveImageQuerySchema,
  CreateImageBodySchema,
  CreateImageResponseSchema,
  CreatePackageImageBodySchema,
  ImageIdQuerySchema,
  ImageListQuerySchema,
  ImageListSchema,
  MESSAGES,
  OTA_PATHS,
  PackageUploadQuerySchema,
  PackageUploadResponseSchema,
  SERVER_MESSAGES,
  SigningKeySchema,
  SuccessBodySchema,
} from '@fleetdeck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { OtaImageRow } from '../../repositories/ota-image.repository.js';
import type { AuthService } from '../../services/auth/auth.service.js';
import type { ImageService } from '../../services/firmware/image.service.js';
import { authOf, requireAuth } from '../plugins/auth.plugin.js';
import { toOtaImage } from '../presenters/ota.presenter.js';

export interface FirmwareRoutesOptions {
  auth: AuthService;
  images: ImageService;
}

/**
 * Firmware images (`admin/otaimage`, with the spec's `/otaimage` paths as aliases): base64 and
 * upload-URL creation, list with filters and keyset paging, archive, delete, and the public key
 * devices verify manifests with.
 */
export const firmwareRoutes: FastifyPluginAsyncZod<FirmwareRoutesOptions> = async (
  app,
  { auth, images },
) => {
  const created = (row: OtaImageRow) => ({
    status: 'success' as const,
    description: MESSAGES.firmwareImageAdded,
    ota_image_id: row.ota_image_id,
    image_url: images.downloadUrl(row),
  });
  // Base64 grows a file by a third; the cap is checked on Content-Length before reading (413).
  const base64BodyLimit = Math.ceil((images.maxBytes * 4) / 3) + 64 * 1024;

  for (const path of [OTA_PATHS.image, OTA_PATHS.imageAlias]) {
    app.post(
      path,
      {
        preValidation: requireAuth(auth, 'firmware.write'),
        bodyLimit: base64BodyLimit,
        schema: {
          tags: ['firmware'],
          summary: 'Add a firmware image sent as base64 (.bin or .zip)',
          body: CreateImageBodySchema,
          response: { 200: CreateImageResponseSchema },
        },
      },
      async (request) =>
        created(await images.createFromBase64(request.body, authOf(request).user.userId)),
    );

    app.get(
      path,
      {
        preValidation: requireAuth(auth, 'firmware.read'),
        schema: {
          tags: ['firmware'],
          summary: 'Images, newest first (keyset paging), filtered by id, name, type, model, text',
          querystring: ImageListQuerySchema,
          response: { 200: ImageListSchema },
        },
      },
      async (request) => {
        const page = await images.list(request.query);
        const now = Math.floor(Date.now() / 1000);
        return {
          ota_images: page.rows.map((row) => toOtaImage(row, images.downloadUrl(row, now))),
          total: page.total,
          ...(page.nextId ? { next_id: page.nextId } : {}),
        };
      },
    );

    app.put(
      path,
      {
        preValidation: requireAuth(auth, 'firmware.write'),
        schema: {
          tags: ['firmware'],
          summary: 'Archive or unarchive an image',
          querystring: ArchiveImageQuerySchema,
          response: { 200: SuccessBodySchema },
        },
      },
      async (request) => {
        await images.setArchived(request.query.ota_image_id, request.query.archive);
        return {
          status: 'success' as const,
          description: request.query.archive
            ? SERVER_MESSAGES.imageArchivedDone
            : SERVER_MESSAGES.imageUnarchivedDone,
        };
      },
    );
  }

  for (const path of [
    OTA_PATHS.image,
    OTA_PATHS.imageAlias,
    OTA_PATHS.package,
    OTA_PATHS.packageAlias,
  ]) {
    app.delete(
      path,
      {
        preValidation: requireAuth(auth, 'firmware.write'),
        schema: {
          tags: ['firmware'],
          summary: 'Delete an image (refused while an active job uses it)',
          querystring: ImageIdQuerySchema,
          response: { 200: SuccessBodySchema },
        },
      },
      async (request) => {
        await images.delete(request.query.ota_image_id);
        return { status: 'success' as const, description: SERVER_MESSAGES.imageDeleted };
      },
    );
  }

  for (const path of [OTA_PATHS.packageUpload, OTA_PATHS.packageUploadAlias]) {
    app.get(
      path,
      {
        preValidation: requireAuth(auth, 'firmware.write'),
        schema: {
          tags: ['firmware'],
          summary: 'A signed URL that takes one raw PUT of an image file',
          querystring: PackageUploadQuerySchema,
          response: { 200: PackageUploadResponseSchema },
        },
      },
      async (request) => {
        const upload = await images.createUploadUrl(
          request.query.file_name,
          authOf(request).user.userId,
        );
        return {
          status: 'success' as const,
          url: upload.url,
          file_path: upload.filePath,
          expires_at: upload.expiresAt,
          max_bytes: images.maxBytes,
        };
      },
    );
  }

  for (const path of [OTA_PATHS.package, OTA_PATHS.packageAlias]) {
    app.post(
      path,
      {
        preValidation: requireAuth(auth, 'firmware.write'),
        schema: {
          tags: ['firmware'],
          summary: 'Add an image from a file uploaded to a signed upload URL',
          body: CreatePackageImageBodySchema,
          response: { 200: CreateImageResponseSchema },
        },
      },
      async (request) => created(await images.createFromUpload(request.body)),
    );
  }

  app.get(
    OTA_PATHS.signingKey,
    {
      preValidation: requireAuth(auth, 'firmware.read'),
      schema: {
        tags: ['firmware'],
        summary: 'The Ed25519 public key that signs image manifests',
        response: { 200: SigningKeySchema },
      },
    },
    async () => ({ algorithm: 'Ed25519' as const, public_key: images.publicKeyPem }),
  );
};
