import { Readable } from 'node:stream';
import { ERROR_CODES, OTA_PATHS, SERVER_MESSAGES } from '@fleetdeck/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { ImageService } from '../../services/firmware/image.service.js';
import { isSafeBlobKey, type BlobStore } from '../../storage/blob-store.js';
import { parseRange } from '../../storage/range.js';
import type { UrlSigner } from '../../storage/signed-url.js';

export interface BlobRoutesOptions {
  store: BlobStore;
  signer: UrlSigner;
  images: ImageService;
}

const invalidDownload = () =>
  new AppError(403, ERROR_CODES.forbidden, SERVER_MESSAGES.downloadUrlInvalid);
const invalidUpload = () =>
  new AppError(403, ERROR_CODES.uploadInvalid, SERVER_MESSAGES.uploadUrlInvalid);

function queryOf(request: FastifyRequest): Record<string, string | undefined> {
  return request.query as Record<string, string | undefined>;
}

/** A file name safe inside a Content-Disposition header. */
function dispositionName(name: string | undefined): string {
  const safe = (name ?? 'firmware.bin').replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 128);
  return safe || 'firmware.bin';
}

/**
 * The local blob store's signed URLs: GET downloads with HTTP Range (streamed from disk in
 * 64 KiB chunks, never buffered whole) and PUT takes one raw upload, streamed to disk with the
 * size cap enforced on the declared length (413 before reading) and on the bytes that arrive.
 * The signature is the authorisation, so devices need no session to fetch an image.
 */
export const blobRoutes: FastifyPluginAsync<BlobRoutesOptions> = async (
  app,
  { store, signer, images },
) => {
  // Uploads arrive raw, of any content type; the route streams them itself.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.get(`${OTA_PATHS.blobs}/*`, { schema: { hide: true } }, async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    const query = queryOf(request);
    const now = Math.floor(Date.now() / 1000);
    if (
      !isSafeBlobKey(key) ||
      !signer.verify({ method: 'GET', key, expiresAt: Number(query.e) }, query.s ?? '', now)
    )
      throw invalidDownload();
    const size = await store.size(key);
    if (size === undefined) throw invalidDownload();
    reply.header('accept-ranges', 'bytes');
    reply.header('cache-control', 'private, max-age=3600');
    reply.header('content-disposition', `attachment; filename="${dispositionName(query.n)}"`);
    reply.type('application/octet-stream');
    const range = parseRange(request.headers.range, size);
    if (range === 'unsatisfiable') {
      reply.header('content-range', `bytes */${size}`);
      throw new AppError(416, ERROR_CODES.invalidQueryParam, 'Range Not Satisfiable');
    }
    if (range) {
      reply.code(206);
      reply.header('content-range', `bytes ${range.start}-${range.end}/${size}`);
      reply.header('content-length', range.end - range.start + 1);
      return reply.send(store.read(key, range));
    }
    reply.header('content-length', size);
    return reply.send(store.read(key));
  });

  app.put(`${OTA_PATHS.blobs}/*`, { schema: { hide: true } }, async (request) => {
    const key = (request.params as { '*': string })['*'];
    const query = queryOf(request);
    const now = Math.floor(Date.now() / 1000);
    const maxBytes = Number(query.m);
    if (
      !isSafeBlobKey(key) ||
      !key.startsWith('uploads/') ||
      !signer.verify(
        { method: 'PUT', key, expiresAt: Number(query.e), maxBytes },
        query.s ?? '',
        now,
      )
    )
      throw invalidUpload();
    const declared = request.headers['content-length'];
    const digest = await images.receiveUpload(
      key,
      request.body instanceof Readable ? request.body : Readable.from([]),
      declared === undefined ? undefined : Number(declared),
    );
    return { status: 'success', description: 'File uploaded', file_size: digest.size };
  });
};
