import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { MAX_PRESIGN_SECONDS, S3BlobStore, type S3BlobStoreOptions } from './s3-blob-store.js';

const base: S3BlobStoreOptions = {
  bucket: 'fleet-blobs',
  region: 'eu-central-1',
  endpoint: undefined,
  forcePathStyle: false,
  accessKeyId: 'AKIAEXAMPLE123',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  prefix: undefined,
};

/** The URL the AWS SDK's own presigner makes for the same request, time and lifetime. */
async function sdkUrl(
  options: S3BlobStoreOptions,
  command: GetObjectCommand | PutObjectCommand,
  signedAt: number,
  expiresIn: number,
): Promise<string> {
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return getSignedUrl(client, command, { expiresIn, signingDate: new Date(signedAt * 1000) });
}

/** Query parameters as a sorted list, so parameter order does not matter. */
const paramsOf = (url: string) => {
  const parsed = new URL(url);
  return {
    origin: parsed.origin,
    pathname: parsed.pathname,
    query: [...parsed.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b)),
  };
};

describe('S3BlobStore presigned URLs', () => {
  const now = Date.UTC(2031, 4, 17, 10, 42, 7) / 1000;
  const hour = now - (now % 3600);

  const cases: [string, S3BlobStoreOptions][] = [
    ['AWS, virtual-hosted', base],
    ['AWS, path style, with a prefix', { ...base, forcePathStyle: true, prefix: 'site-a/prod' }],
    [
      'a MinIO endpoint with a port',
      { ...base, endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, region: 'us-east-1' },
    ],
    [
      'a custom endpoint, virtual-hosted',
      { ...base, endpoint: 'https://objects.example.net', forcePathStyle: false },
    ],
  ];

  it.each(cases)('signs a download exactly as the AWS SDK presigner does (%s)', async (_, o) => {
    const store = new S3BlobStore(o);
    const expiresAt = now + 24 * 3600;
    const ours = store.downloadUrl('images/AbC_12-x', 'fw v2 (final).bin', expiresAt);
    const mine = store.presign(
      'GET',
      'images/AbC_12-x',
      expiresAt,
      {
        'response-content-disposition': 'attachment; filename="fw_v2__final_.bin"',
        'x-id': 'GetObject',
      },
      now,
    );
    const sdk = await sdkUrl(
      o,
      new GetObjectCommand({
        Bucket: o.bucket,
        Key: `${o.prefix ? `${o.prefix}/` : ''}images/AbC_12-x`,
        ResponseContentDisposition: 'attachment; filename="fw_v2__final_.bin"',
      }),
      hour,
      expiresAt - hour,
    );
    expect(paramsOf(mine)).toEqual(paramsOf(sdk));
    // downloadUrl() is the same call at the real clock: same shape, and a 64-hex signature.
    expect(new URL(ours).pathname).toBe(new URL(sdk).pathname);
    expect(new URL(ours).searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('signs an upload exactly as the AWS SDK presigner does', async () => {
    const o = { ...base, endpoint: 'http://127.0.0.1:9000', forcePathStyle: true };
    const store = new S3BlobStore(o);
    const expiresAt = now + 3600;
    const mine = store.presign('PUT', 'uploads/u1', expiresAt, { 'x-id': 'PutObject' }, now);
    const sdk = await sdkUrl(
      o,
      new PutObjectCommand({ Bucket: o.bucket, Key: 'uploads/u1' }),
      hour,
      expiresAt - hour,
    );
    expect(paramsOf(mine)).toEqual(paramsOf(sdk));
  });

  it('gives the same URL all hour long, so offers stay cacheable', () => {
    const store = new S3BlobStore(base);
    const expiresAt = hour + 25 * 3600;
    const sign = (at: number) => store.presign('GET', 'images/a', expiresAt, {}, at);
    expect(sign(hour + 5)).toBe(sign(hour + 3599));
    expect(sign(hour + 3600)).not.toBe(sign(hour + 3599));
  });

  it('never asks S3 for more than a week, and expires past dates at once', () => {
    const store = new S3BlobStore(base);
    const far = new URL(store.presign('GET', 'images/a', now + 30 * 24 * 3600, {}, now));
    expect(far.searchParams.get('X-Amz-Expires')).toBe(String(MAX_PRESIGN_SECONDS));
    const past = new URL(store.presign('GET', 'images/a', now - 60, {}, now));
    const signedAt = Date.parse(
      (past.searchParams.get('X-Amz-Date') ?? '').replace(
        /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/,
        '$1-$2-$3T$4:$5:$6Z',
      ),
    );
    const expires = Number(past.searchParams.get('X-Amz-Expires'));
    expect(signedAt / 1000 + expires).toBe(now - 60);
  });

  it('refuses keys that are not safe relative paths', () => {
    const store = new S3BlobStore(base);
    expect(() => store.downloadUrl('../etc/passwd', 'x.bin', now + 60)).toThrow(/unsafe/);
  });
});
