import type { Readable } from 'node:stream';

/** Size and digests of a stored blob, computed while it streamed in (or read back). */
export interface BlobDigest {
  size: number;
  md5: string;
  sha256: string;
}

/** A byte range of a blob, inclusive, as HTTP Range asks for it. */
export interface BlobRange {
  start: number;
  end: number;
}

/**
 * Where firmware images and other files live (ARCHITECTURE §1): local disk under DATA_DIR by
 * default. Clients never read the store directly: they get signed, expiring URLs.
 */
export interface BlobStore {
  /**
   * The origin of the URLs this store hands out when it is not this server (an object store),
   * so the dashboard's Content-Security-Policy can let the browser upload there.
   */
  readonly externalOrigin?: string;
  /**
   * Streams `source` into `key`, failing with BlobTooLargeError past `maxBytes`. Nothing is
   * visible under `key` until the whole stream arrived (no half-written file is ever served).
   */
  put(key: string, source: Readable, maxBytes: number): Promise<BlobDigest>;
  /** Reads the blob back to compute its digest (for files that arrived through an upload URL). */
  digest(key: string): Promise<BlobDigest>;
  /** The blob's size, or undefined when there is none. */
  size(key: string): Promise<number | undefined>;
  /** A readable stream of the whole blob or of a range. */
  read(key: string, range?: BlobRange): Readable;
  /** Removes the blob; absent blobs are fine. */
  delete(key: string): Promise<void>;
  /** A URL that downloads the blob until `expiresAt` (epoch seconds), with HTTP Range. */
  downloadUrl(key: string, fileName: string, expiresAt: number): string;
  /** A URL that takes one raw PUT of at most `maxBytes` into `key` until `expiresAt`. */
  uploadUrl(key: string, expiresAt: number, maxBytes: number): string;
}

/** The stream was longer than the store was told to accept. */
export class BlobTooLargeError extends Error {
  constructor(public readonly maxBytes: number) {
    super(`blob larger than ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

/** Keys are relative paths of safe segments: no traversal, no absolute paths, no odd bytes. */
export function isSafeBlobKey(key: string): boolean {
  if (key.length === 0 || key.length > 200) return false;
  return key
    .split('/')
    .every((segment) => /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(segment) && !segment.includes('..'));
}
