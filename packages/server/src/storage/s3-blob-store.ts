import { createHash, createHmac } from 'node:crypto';
import { pipeline as pipelineCallback, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  BlobTooLargeError,
  isSafeBlobKey,
  type BlobDigest,
  type BlobRange,
  type BlobStore,
} from './blob-store.js';

/** Where and how to reach the bucket (parsed from the S3_* variables by config/env.ts). */
export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  /** A non-AWS endpoint (MinIO, Ceph, R2…), e.g. `http://127.0.0.1:9000`; AWS when undefined. */
  endpoint: string | undefined;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key`. */
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
  /** Prepended to every key (`prefix/images/…`), so one bucket can hold several installs. */
  prefix: string | undefined;
  /** Multipart part size in bytes (S3's minimum is 5 MiB); tests lower it to exercise multipart. */
  partSize?: number;
  /** How long the store may stay silent; S3_TIMEOUTS unless a test shortens them. */
  timeouts?: S3Timeouts;
}

/** The waits of one request to the object store, in milliseconds. */
export interface S3Timeouts {
  /** For the TCP (and TLS) connection to open. */
  connectMs: number;
  /** For the store to answer or take more bytes, once connected (between any two packets). */
  idleMs: number;
}

/**
 * The SDK waits forever by default: an endpoint that accepts and never answers held an image
 * upload (and every later one) for good. S3 and MinIO answer within a second; 10 s of silence
 * means the store is not coming back for this request. The SDK arms its idle timer 3 s into a
 * try and tries 3 times, so a silent store fails a request after about 40 s, and one that
 * refuses connections at once.
 */
export const S3_TIMEOUTS: S3Timeouts = { connectMs: 5_000, idleMs: 10_000 };

/** S3 refuses presigned URLs valid for longer than a week. */
export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;
const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

/** Counts and hashes bytes as they pass, and stops the stream past the cap. */
function digestingLimiter(maxBytes: number): {
  transform: Transform;
  result: () => BlobDigest;
  overflowed: () => boolean;
} {
  const md5 = createHash('md5');
  const sha256 = createHash('sha256');
  let size = 0;
  let overflow = false;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) {
        overflow = true;
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
    overflowed: () => overflow,
  };
}

/**
 * The SDK's timeouts come as a bare `TimeoutError`; they get the errno of a connection that timed
 * out, so the error handler answers 503 storageFailed (the store cannot be reached) and not 500.
 */
function unreachable(error: unknown): unknown {
  if (!(error instanceof Error) || error.name !== 'TimeoutError') return error;
  return Object.assign(
    new Error(`the object store did not answer: ${error.message}`, { cause: error }),
    {
      code: 'ETIMEDOUT',
    },
  );
}

/** RFC 3986 encoding, as SigV4 canonical requests want it (encodeURIComponent leaves !'()*). */
function rfc3986(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** A file name safe inside a Content-Disposition header (as the local blob route does it). */
function dispositionName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 128);
  return safe || 'firmware.bin';
}

/** `20240102T030405Z` and `20240102` for a SigV4 signature. */
function amzDates(epochSeconds: number): { amzDate: string; dateStamp: string } {
  const amzDate = new Date(epochSeconds * 1000).toISOString().replace(/[-:]|\.\d{3}/g, '');
  return { amzDate, dateStamp: amzDate.slice(0, 8) };
}

/** Whether a bucket can be a DNS label (virtual-hosted style); dotted names break TLS wildcards. */
function isVirtualHostable(bucket: string): boolean {
  return /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(bucket);
}

/**
 * Blobs in an S3-compatible bucket (ARCHITECTURE §1, the `S3_*` switch). Writes are multipart
 * uploads straight to the final key: S3 makes an object visible only when the upload completes,
 * and an upload that fails (or outgrows its cap) is aborted, so no half-written object is ever
 * served. Devices and browsers get presigned URLs and talk to the bucket directly.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly prefix: string;
  /** Where object URLs start: `http://127.0.0.1:9000` + `/bucket` (path style), or a bucket host. */
  /** The object store's origin, for the dashboard's connect-src. */
  get externalOrigin(): string {
    return this.objectBase.origin;
  }

  private readonly objectBase: { origin: string; host: string; path: string };

  constructor(private readonly options: S3BlobStoreOptions) {
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle,
      credentials: {
        accessKeyId: options.accessKeyId,
        secretAccessKey: options.secretAccessKey,
      },
      // The SDK's default adds CRC checksums and aws-chunked bodies that many S3-compatible
      // stores do not understand; we hash every blob ourselves.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: {
        connectionTimeout: (options.timeouts ?? S3_TIMEOUTS).connectMs,
        socketTimeout: (options.timeouts ?? S3_TIMEOUTS).idleMs,
      },
    });
    this.prefix = options.prefix ? `${options.prefix.replace(/^\/+|\/+$/g, '')}/` : '';
    this.objectBase = this.objectBaseUrl();
  }

  private objectBaseUrl(): { origin: string; host: string; path: string } {
    const { bucket, region, endpoint, forcePathStyle } = this.options;
    const base = new URL(endpoint ?? `https://s3.${region}.amazonaws.com`);
    const basePath = base.pathname.replace(/\/+$/, '');
    if (forcePathStyle || !isVirtualHostable(bucket))
      return { origin: base.origin, host: base.host, path: `${basePath}/${rfc3986(bucket)}` };
    base.hostname = `${bucket}.${base.hostname}`;
    return { origin: base.origin, host: base.host, path: basePath };
  }

  private objectKey(key: string): string {
    if (!isSafeBlobKey(key)) throw new Error(`unsafe blob key ${JSON.stringify(key)}`);
    return this.prefix + key;
  }

  async put(key: string, source: Readable, maxBytes: number): Promise<BlobDigest> {
    const objectKey = this.objectKey(key);
    const { transform, result, overflowed } = digestingLimiter(maxBytes);
    // The callback form destroys the source when the limiter fails; the upload sees the error.
    const body = pipelineCallback(source, transform, () => undefined);
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.options.bucket,
        Key: objectKey,
        Body: body,
        ContentType: 'application/octet-stream',
      },
      partSize: this.options.partSize ?? DEFAULT_PART_SIZE,
      queueSize: 2,
    });
    try {
      await upload.done();
    } catch (error) {
      // lib-storage reports a failed AbortMultipartUpload instead of the cause; the cap wins.
      if (overflowed()) throw new BlobTooLargeError(maxBytes);
      throw unreachable(error);
    }
    return result();
  }

  async digest(key: string): Promise<BlobDigest> {
    const { transform, result } = digestingLimiter(Number.MAX_SAFE_INTEGER);
    await pipeline(this.read(key), transform, async (chunks: AsyncIterable<Buffer>) => {
      for await (const chunk of chunks) void chunk;
    });
    return result();
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }),
      );
      return head.ContentLength;
    } catch (error) {
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)
        return undefined;
      throw unreachable(error);
    }
  }

  read(key: string, range?: BlobRange): Readable {
    const objectKey = this.objectKey(key);
    const client = this.client;
    const bucket = this.options.bucket;
    // The interface is synchronous; the GetObject starts when the stream is first read.
    async function* chunks(): AsyncGenerator<Buffer> {
      try {
        const object = await client.send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: objectKey,
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        if (!(object.Body instanceof Readable))
          throw new Error('S3 answered without a body stream');
        for await (const chunk of object.Body) yield chunk as Buffer;
      } catch (error) {
        throw unreachable(error);
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  async delete(key: string): Promise<void> {
    await this.client
      .send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }))
      .catch((error: unknown) => {
        throw unreachable(error);
      });
  }

  downloadUrl(key: string, fileName: string, expiresAt: number): string {
    return this.presign('GET', key, expiresAt, {
      'response-content-disposition': `attachment; filename="${dispositionName(fileName)}"`,
      'x-id': 'GetObject',
    });
  }

  /**
   * S3 cannot cap the size of a presigned PUT (only an exact, signed Content-Length), so
   * `maxBytes` is not enforced here: ImageService checks the size once the upload arrived.
   */
  uploadUrl(key: string, expiresAt: number, _maxBytes: number): string {
    return this.presign('PUT', key, expiresAt, { 'x-id': 'PutObject' });
  }

  /**
   * A SigV4 query-string signature (what @aws-sdk/s3-request-presigner makes; the unit test
   * holds the two equal). Done here because BlobStore URLs are synchronous and the SDK's
   * presigner is not. The signing time is the start of the current hour, so every offer of the
   * same hour carries the same URL (as with the local store, the URL stays cacheable).
   */
  presign(
    method: 'GET' | 'PUT',
    key: string,
    expiresAt: number,
    params: Record<string, string>,
    now = Math.floor(Date.now() / 1000),
  ): string {
    const signedAt = Math.min(now - (now % 3600), expiresAt - 1);
    const expiresIn = Math.max(1, Math.min(MAX_PRESIGN_SECONDS, expiresAt - signedAt));
    const { amzDate, dateStamp } = amzDates(signedAt);
    const scope = `${dateStamp}/${this.options.region}/s3/aws4_request`;
    const { origin, host, path: basePath } = this.objectBase;
    const path = `${basePath}/${this.objectKey(key).split('/').map(rfc3986).join('/')}`;
    const query: Record<string, string> = {
      ...params,
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Content-Sha256': UNSIGNED_PAYLOAD,
      'X-Amz-Credential': `${this.options.accessKeyId}/${scope}`,
      'X-Amz-Date': amzDate,
      'X-Amz-Expires': String(expiresIn),
      'X-Amz-SignedHeaders': 'host',
    };
    const canonicalQuery = Object.keys(query)
      .sort()
      .map((name) => `${rfc3986(name)}=${rfc3986(query[name] ?? '')}`)
      .join('&');
    const canonicalRequest = [
      method,
      path,
      canonicalQuery,
      `host:${host}`,
      '',
      'host',
      UNSIGNED_PAYLOAD,
    ].join('\n');
    const stringToSign = [
      'AWS4-HMAC-SHA256',
      amzDate,
      scope,
      createHash('sha256').update(canonicalRequest).digest('hex'),
    ].join('\n');
    let signingKey: Buffer = Buffer.from(`AWS4${this.options.secretAccessKey}`);
    for (const part of [dateStamp, this.options.region, 's3', 'aws4_request'])
      signingKey = createHmac('sha256', signingKey).update(part).digest();
    const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
    return `${origin}${path}?${canonicalQuery}&X-Amz-Signature=${signature}`;
  }
}
