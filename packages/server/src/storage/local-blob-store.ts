import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { OTA_PATHS } from '@fleetdeck/contract';
import {
  BlobTooLargeError,
  isSafeBlobKey,
  type BlobDigest,
  type BlobRange,
  type BlobStore,
} from './blob-store.js';
import type { UrlSigner } from './signed-url.js';

/** Counts and hashes bytes as they pass, and stops the stream past the cap. */
function digestingLimiter(maxBytes: number): { transform: Transform; result: () => BlobDigest } {
  const md5 = createHash('md5');
  const sha256 = createHash('sha256');
  let size = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) {
        callback(new BlobTooLargeError(maxBytes));
        return;
      }
      md5.update(chunk);
      sha256.update(chunk);
      callback(null, chunk);
    },
  });
  return {
    transform,
    result: () => ({ size, md5: md5.digest('hex'), sha256: sha256.digest('hex') }),
  };
}

/**
 * Blobs as files under `<DATA_DIR>/blobs`. Writes go to a temporary file that is renamed into
 * place once complete; downloads and uploads go through HMAC-signed URLs served by the blob
 * routes of this server.
 */
export class LocalBlobStore implements BlobStore {
  private readonly root: string;

  constructor(
    dataDir: string,
    private readonly publicUrl: string,
    private readonly signer: UrlSigner,
  ) {
    this.root = path.join(dataDir, 'blobs');
    fs.mkdirSync(path.join(this.root, '.partial'), { recursive: true });
  }

  private pathOf(key: string): string {
    if (!isSafeBlobKey(key)) throw new Error(`unsafe blob key ${JSON.stringify(key)}`);
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep)) throw new Error('blob key escapes the store');
    return file;
  }

  async put(key: string, source: Readable, maxBytes: number): Promise<BlobDigest> {
    const target = this.pathOf(key);
    const partial = path.join(this.root, '.partial', randomBytes(12).toString('hex'));
    const { transform, result } = digestingLimiter(maxBytes);
    try {
      await pipeline(source, transform, fs.createWriteStream(partial, { flags: 'wx' }));
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      await fs.promises.rename(partial, target);
      return result();
    } catch (error) {
      await fs.promises.rm(partial, { force: true });
      throw error;
    }
  }

  async digest(key: string): Promise<BlobDigest> {
    const { transform, result } = digestingLimiter(Number.MAX_SAFE_INTEGER);
    await pipeline(
      fs.createReadStream(this.pathOf(key)),
      transform,
      async (chunks: AsyncIterable<Buffer>) => {
        for await (const chunk of chunks) void chunk;
      },
    );
    return result();
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const stat = await fs.promises.stat(this.pathOf(key));
      return stat.isFile() ? stat.size : undefined;
    } catch {
      return undefined;
    }
  }

  read(key: string, range?: BlobRange): Readable {
    return fs.createReadStream(
      this.pathOf(key),
      range ? { start: range.start, end: range.end, highWaterMark: 64 * 1024 } : undefined,
    );
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  downloadUrl(key: string, fileName: string, expiresAt: number): string {
    const signature = this.signer.sign({ method: 'GET', key, expiresAt });
    const query = new URLSearchParams({ e: String(expiresAt), s: signature, n: fileName });
    return `${this.publicUrl}${OTA_PATHS.blobs}/${key}?${query.toString()}`;
  }

  uploadUrl(key: string, expiresAt: number, maxBytes: number): string {
    const signature = this.signer.sign({ method: 'PUT', key, expiresAt, maxBytes });
    const query = new URLSearchParams({ e: String(expiresAt), m: String(maxBytes), s: signature });
    return `${this.publicUrl}${OTA_PATHS.blobs}/${key}?${query.toString()}`;
  }
}
