import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ERROR_CODES, SERVER_MESSAGES, type ImageList, type OtaImage } from '@fleetdeck/contract';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobTooLargeError } from '../src/storage/blob-store.js';
import { S3_TIMEOUTS, S3BlobStore, type S3BlobStoreOptions } from '../src/storage/s3-blob-store.js';
import { storageFailureOf } from '../src/storage/storage-errors.js';
import { SilentPeer } from './helpers/tcp-relay.js';
import { apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

const BUCKET = 'fleetdeck-test';
/** s3rver's built-in account. */
const ACCESS_KEY = 'S3RVER';
const MIB = 1024 * 1024;

/** Deterministic pseudo-random bytes standing in for a firmware image. */
function imageBytes(size: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A stream of `bytes` in 64 KiB chunks, as a request body would arrive. */
function chunked(bytes: Buffer): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 64 * 1024) chunks.push(bytes.subarray(i, i + 64 * 1024));
  return Readable.from(chunks);
}

describe('S3BlobStore against an S3-compatible server (s3rver)', () => {
  let s3rver: S3rver;
  let server: http.Server;
  /** `METHOD path?query status` of every request the S3 server answered. */
  const requests: string[] = [];
  let directory: string;
  let endpoint: string;
  let options: S3BlobStoreOptions;
  let store: S3BlobStore;
  /** A plain client for looking into the bucket behind the store's back. */
  let client: S3Client;

  /** Every key in the bucket under a prefix. */
  const keysUnder = async (prefix: string): Promise<string[]> => {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
    return (listed.Contents ?? []).map((object) => object.Key ?? '');
  };

  beforeAll(async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-s3rver-'));
    s3rver = new S3rver({
      silent: true,
      directory,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    await s3rver.configureBuckets();
    // s3rver's handler in our own HTTP server, so the tests can see the requests it answered.
    const handler = s3rver.callback();
    server = http.createServer((request, response) => {
      response.on('finish', () =>
        requests.push(`${request.method} ${request.url} ${response.statusCode}`),
      );
      handler(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    options = {
      bucket: BUCKET,
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      accessKeyId: ACCESS_KEY,
      secretAccessKey: ACCESS_KEY,
      prefix: 'install-a',
      // S3's smallest part, so a 6 MiB blob goes through a real multipart upload.
      partSize: 5 * MIB,
    };
    store = new S3BlobStore(options);
    client = new S3Client({
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
      requestChecksumCalculation: 'WHEN_REQUIRED',
    });
  });

  afterAll(async () => {
    client.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it('puts a blob with its digests, reads it back whole and by range, and deletes it', async () => {
    const bytes = imageBytes(100_000);
    const digest = await store.put('images/one', chunked(bytes), 1 * MIB);
    expect(digest).toEqual({ size: bytes.length, md5: md5(bytes), sha256: sha256(bytes) });
    expect(await keysUnder('install-a/images/')).toEqual(['install-a/images/one']);

    expect(await store.digest('images/one')).toEqual(digest);
    expect(await store.size('images/one')).toBe(bytes.length);
    expect((await readAll(store.read('images/one'))).equals(bytes)).toBe(true);
    const middle = await readAll(store.read('images/one', { start: 1000, end: 1999 }));
    expect(middle.equals(bytes.subarray(1000, 2000))).toBe(true);
    const head = await readAll(store.read('images/one', { start: 0, end: 3 }));
    expect(head.equals(bytes.subarray(0, 4))).toBe(true);

    await store.delete('images/one');
    expect(await store.size('images/one')).toBeUndefined();
    expect(await keysUnder('install-a/images/one')).toEqual([]);
    await expect(store.delete('images/one')).resolves.toBeUndefined();
  });

  it('answers undefined for the size of a blob that is not there, and fails reading it', async () => {
    expect(await store.size('images/never-written')).toBeUndefined();
    await expect(readAll(store.read('images/never-written'))).rejects.toThrow();
  });

  it('streams a blob larger than one part through a multipart upload', async () => {
    const bytes = imageBytes(6 * MIB + 123, 7);
    const digest = await store.put('images/big', chunked(bytes), 8 * MIB);
    expect(digest).toEqual({ size: bytes.length, md5: md5(bytes), sha256: sha256(bytes) });
    expect(await store.size('images/big')).toBe(bytes.length);
    expect(await store.digest('images/big')).toEqual(digest);
    const tail = await readAll(store.read('images/big', { start: 6 * MIB, end: 6 * MIB + 122 }));
    expect(tail.equals(bytes.subarray(6 * MIB))).toBe(true);
    await store.delete('images/big');
  });

  it('refuses a stream past maxBytes and leaves nothing under the key', async () => {
    await expect(store.put('images/small-over', chunked(imageBytes(2000)), 1000)).rejects.toThrow(
      BlobTooLargeError,
    );
    expect(await store.size('images/small-over')).toBeUndefined();
    expect(await keysUnder('install-a/images/small-over')).toEqual([]);
  });

  it('refuses a multipart stream past maxBytes after a part went up, aborts it, and shows no object', async () => {
    const bytes = imageBytes(8 * MIB, 3);
    // A slow client: the first part is uploaded before the stream outgrows the cap.
    async function* slowly() {
      yield* chunked(bytes.subarray(0, 6 * MIB));
      await new Promise((resolve) => setTimeout(resolve, 300));
      yield* chunked(bytes.subarray(6 * MIB));
    }
    requests.length = 0;
    await expect(store.put('images/big-over', Readable.from(slowly()), 6.5 * MIB)).rejects.toThrow(
      BlobTooLargeError,
    );
    const objectPath = `/${BUCKET}/install-a/images/big-over`;
    expect(requests).toContainEqual(expect.stringMatching(`^POST ${objectPath}\\?uploads`));
    expect(requests).toContainEqual(
      expect.stringMatching(`^PUT ${objectPath}\\?partNumber=1&.* 200$`),
    );
    // AbortMultipartUpload is sent; s3rver does not implement it (405), real stores drop the parts.
    expect(requests).toContainEqual(expect.stringMatching(`^DELETE ${objectPath}\\?uploadId=`));
    expect(requests).not.toContainEqual(expect.stringMatching(`^POST ${objectPath}\\?uploadId=`));
    expect(await store.size('images/big-over')).toBeUndefined();
    expect(await keysUnder('install-a/images/big-over')).toEqual([]);
  });

  it('keeps the earlier object when a replacing put fails', async () => {
    const before = imageBytes(500, 9);
    await store.put('images/kept', chunked(before), 1000);
    await expect(store.put('images/kept', chunked(imageBytes(5000)), 1000)).rejects.toThrow(
      BlobTooLargeError,
    );
    const failing = new Readable({
      read() {
        this.push(imageBytes(100));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(store.put('images/kept', failing, 1000)).rejects.toThrow('client went away');
    expect((await readAll(store.read('images/kept'))).equals(before)).toBe(true);
    await store.delete('images/kept');
  });

  it('gives download URLs that work with plain fetch and HTTP Range, and refuse when expired or forged', async () => {
    const bytes = imageBytes(40_000, 5);
    await store.put('images/dl', chunked(bytes), MIB);
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    const url = store.downloadUrl('images/dl', 'fw v1.bin', expiresAt);
    expect(url.startsWith(`${endpoint}/${BUCKET}/install-a/images/dl?`)).toBe(true);

    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-disposition')).toBe('attachment; filename="fw_v1.bin"');
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);

    const ranged = await fetch(url, { headers: { range: 'bytes=100-1099' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-1099/${bytes.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(100, 1100))).toBe(true);

    const expired = await fetch(store.downloadUrl('images/dl', 'fw.bin', expiresAt - 7200));
    expect(expired.status).toBe(403);
    await expired.body?.cancel();
    // s3rver checks the access key and the lifetime of a SigV4 URL but not the signature
    // itself (its source says so); the unit test holds our signatures equal to the AWS SDK's.
    const forged = await fetch(url.replace(`Credential=${ACCESS_KEY}`, 'Credential=FORGED'));
    expect(forged.status).toBe(403);
    await forged.body?.cancel();
    await store.delete('images/dl');
  });

  it('gives upload URLs that take one raw PUT from plain fetch', async () => {
    const bytes = imageBytes(30_000, 11);
    const url = store.uploadUrl('uploads/raw', Math.floor(Date.now() / 1000) + 600, MIB);
    const put = await fetch(url, {
      method: 'PUT',
      body: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(put.status, await put.text()).toBe(200);
    expect(await store.size('uploads/raw')).toBe(bytes.length);
    expect(await store.digest('uploads/raw')).toEqual({
      size: bytes.length,
      md5: md5(bytes),
      sha256: sha256(bytes),
    });
    await store.delete('uploads/raw');
  });

  describe('the app with S3_* set', () => {
    let app: TestServer;
    let token: string;

    const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      app.app.inject({
        method,
        url,
        headers: { authorization: token },
        ...(payload ? { payload } : {}),
      });

    const imageById = async (id: string): Promise<OtaImage> => {
      const response = await call('GET', `/v1/admin/otaimage?ota_image_id=${id}`);
      expect(response.statusCode, response.body).toBe(200);
      const image = response.json<ImageList>().ota_images[0];
      if (!image) throw new Error(`image ${id} not listed`);
      return image;
    };

    beforeAll(async () => {
      app = await createTestServer('sqlite', {
        env: {
          S3_BUCKET: BUCKET,
          S3_ENDPOINT: endpoint,
          S3_ACCESS_KEY_ID: ACCESS_KEY,
          S3_SECRET_ACCESS_KEY: ACCESS_KEY,
          S3_PREFIX: 'app',
          OTA_IMAGE_MAX_MB: '1',
        },
      });
      token = (await apiLogin(app.app)).accesstoken;
    });
    afterAll(async () => {
      await app.close();
    });

    it('keeps a base64 image in the bucket and hands out a presigned image_url that serves it', async () => {
      expect(app.services.blobStore).toBeInstanceOf(S3BlobStore);
      const bytes = imageBytes(70_000, 21);
      const created = await call('POST', '/v1/admin/otaimage', {
        image_name: 'AC main',
        type: 'Air Conditioner',
        fw_version: '2.1.0',
        base64_fwimage: bytes.toString('base64'),
      });
      expect(created.statusCode, created.body).toBe(200);
      const { ota_image_id: id } = created.json<{ ota_image_id: string }>();
      expect(await keysUnder(`app/images/${id}`)).toEqual([`app/images/${id}`]);

      const image = await imageById(id);
      expect(image.file_sha256).toBe(sha256(bytes));
      expect(image.image_url.startsWith(`${endpoint}/${BUCKET}/app/images/${id}?`)).toBe(true);
      const download = await fetch(image.image_url);
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
      const ranged = await fetch(image.image_url, { headers: { range: 'bytes=0-15' } });
      expect(ranged.status).toBe(206);
      expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(0, 16))).toBe(true);

      const removed = await call('DELETE', `/v1/admin/otaimage?ota_image_id=${id}`);
      expect(removed.statusCode, removed.body).toBe(200);
      expect(await keysUnder(`app/images/${id}`)).toEqual([]);
    });

    it('takes an upload straight into the bucket through the upload URL and makes it an image', async () => {
      const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), imageBytes(9000, 4)]);
      const ticket = await call('GET', '/v1/admin/otaimage/package/upload?file_name=x.zip');
      expect(ticket.statusCode, ticket.body).toBe(200);
      const { url, file_path: filePath } = ticket.json<{ url: string; file_path: string }>();
      expect(url.startsWith(`${endpoint}/${BUCKET}/app/uploads/`)).toBe(true);

      const put = await fetch(url, { method: 'PUT', body: zip });
      expect(put.status, await put.text()).toBe(200);

      const created = await call('POST', '/v1/admin/otaimage/package', {
        file_path: filePath,
        image_name: 'washer pkg',
        type: 'Washing Machine',
      });
      expect(created.statusCode, created.body).toBe(200);
      const image = await imageById(created.json<{ ota_image_id: string }>().ota_image_id);
      expect(image).toMatchObject({
        package: true,
        file_size: zip.length,
        file_md5: md5(zip),
        file_sha256: sha256(zip),
      });
      const download = await fetch(image.image_url);
      expect(Buffer.from(await download.arrayBuffer()).equals(zip)).toBe(true);
    });

    it('refuses an upload that arrived larger than the cap, and removes it from the bucket', async () => {
      const ticket = await call('GET', '/v1/admin/otaimage/package/upload?file_name=huge.bin');
      const { url, file_path: filePath } = ticket.json<{ url: string; file_path: string }>();
      const put = await fetch(url, { method: 'PUT', body: imageBytes(MIB + 10) });
      expect(put.status).toBe(200);
      const key = `app/uploads/${filePath}`;
      expect(await keysUnder(key)).toEqual([key]);

      const created = await call('POST', '/v1/admin/otaimage/package', {
        file_path: filePath,
        image_name: 'too big',
        type: 'Refrigerator',
      });
      expect(created.statusCode).toBe(413);
      expect(await keysUnder(key)).toEqual([]);
    });

    it('lets the dashboard upload to the object store (CSP connect-src names it)', async () => {
      const response = await app.app.inject({ method: 'GET', url: '/healthz' });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toMatch(new RegExp(`connect-src 'self' ${new URL(endpoint).origin}(;|$)`));
    });

    it('refuses to make an image of an upload that never arrived', async () => {
      const ticket = await call('GET', '/v1/admin/otaimage/package/upload?file_name=none.bin');
      const { file_path: filePath } = ticket.json<{ file_path: string }>();
      const created = await call('POST', '/v1/admin/otaimage/package', {
        file_path: filePath,
        image_name: 'missing',
        type: 'Refrigerator',
      });
      expect(created.statusCode).toBe(400);
    });
  });

  it('finds objects other clients wrote under its prefix', async () => {
    await client.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: 'install-a/probe', Body: Buffer.from('x') }),
    );
    expect(await store.size('probe')).toBe(1);
    await store.delete('probe');
  });
});

/**
 * An object store that accepts connections and never answers (a hung MinIO, a proxy that lost
 * its upstream). The SDK waits forever by default; the store's requests must fail within their
 * idle wait, and the API with the storage failure (503), not hang.
 */
describe('S3BlobStore against an endpoint that never answers', () => {
  let silent: SilentPeer;

  beforeAll(async () => {
    silent = new SilentPeer();
    await silent.open();
  });
  afterAll(async () => {
    await silent?.close();
  });

  const storeOptions = (): S3BlobStoreOptions => ({
    bucket: BUCKET,
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${silent.port}`,
    forcePathStyle: true,
    accessKeyId: ACCESS_KEY,
    secretAccessKey: ACCESS_KEY,
    prefix: undefined,
    timeouts: { connectMs: 500, idleMs: 500 },
  });

  it('fails every kind of request as a storage failure once the idle wait has passed, each try', async () => {
    const store = new S3BlobStore(storeOptions());
    const attempts = [
      () => store.size('images/a'),
      () => store.digest('images/a'),
      () => store.delete('images/a'),
      () => store.put('images/a', Readable.from([Buffer.from('firmware')]), MIB),
    ];
    for (const attempt of attempts) {
      const started = Date.now();
      const failure = await attempt().then(
        () => undefined,
        (error: unknown) => error,
      );
      // Three tries of 0.5 s each, and the SDK's short back-off between them.
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(storageFailureOf(failure), String(failure)).toBe('io');
    }
  }, 30_000);

  it('answers an image upload with 503 storageFailed in about 40 s (3 tries of 3 + 10 s), not never', async () => {
    const app = await createTestServer('sqlite', {
      env: {
        S3_BUCKET: BUCKET,
        S3_ENDPOINT: `http://127.0.0.1:${silent.port}`,
        S3_ACCESS_KEY_ID: ACCESS_KEY,
        S3_SECRET_ACCESS_KEY: ACCESS_KEY,
      },
    });
    try {
      const { accesstoken } = await apiLogin(app.app);
      const accepted = silent.accepted;
      const started = Date.now();
      const response = await app.app.inject({
        method: 'POST',
        url: '/v1/admin/otaimage',
        headers: { authorization: accesstoken },
        payload: {
          image_name: 'AC main',
          type: 'Air Conditioner',
          fw_version: '2.1.0',
          base64_fwimage: imageBytes(1000).toString('base64'),
        },
      });
      const elapsed = Date.now() - started;
      expect(silent.accepted).toBeGreaterThan(accepted);
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json()).toEqual({
        status: 'failure',
        description: SERVER_MESSAGES.storageFailed,
        error_code: ERROR_CODES.storageFailed,
      });
      expect(elapsed).toBeGreaterThanOrEqual(S3_TIMEOUTS.idleMs);
      // The SDK arms the idle timer 3 s into each try.
      expect(elapsed).toBeLessThan(3 * (S3_TIMEOUTS.idleMs + 3_000) + 5_000);
    } finally {
      await app.close();
    }
  }, 60_000);
});
