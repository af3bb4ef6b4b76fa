/**
 * For OTA tests: a real HTTP server on 127.0.0.1 that serves firmware images with Range support
 * (and can cut a connection mid-body), plus signed offers made with a real Ed25519 key pair.
 * Not part of the build.
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { otaManifestText, type OtaUrlPayload } from '@fleetdeck/contract';

/** How one path is served. */
export interface ServedImage {
  body: Buffer;
  /** The first request for this path sends the full Content-Length but only this many bytes. */
  cutFirstAfter?: number;
  /** Answer Range requests with 200 and the whole image, as a server without Range would. */
  ignoreRange?: boolean;
  /** Answer every request with this status and no image. */
  status?: number;
}

/** A request the server saw. */
export interface SeenRequest {
  path: string;
  range: string | undefined;
}

/** A running image server. */
export interface ImageServer {
  readonly requests: SeenRequest[];
  /** Serves `image` at `path` and returns its URL. */
  serve(path: string, image: ServedImage): string;
  close(): Promise<void>;
}

/** Starts an image server on 127.0.0.1 on a free port. */
export async function startImageServer(): Promise<ImageServer> {
  const images = new Map<string, ServedImage & { served: number }>();
  const requests: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const range = req.headers.range;
    requests.push({ path, range });
    const image = images.get(path);
    if (!image) {
      res.writeHead(404).end();
      return;
    }
    const first = image.served++ === 0;
    if (image.status) {
      res.writeHead(image.status).end();
      return;
    }
    const total = image.body.length;
    const match = range && !image.ignoreRange ? /^bytes=(\d+)-$/.exec(range) : null;
    const start = match?.[1] ? Number(match[1]) : 0;
    if (match && start >= total) {
      res.writeHead(416, { 'content-range': `bytes */${total}` }).end();
      return;
    }
    const part = image.body.subarray(start);
    res.writeHead(match ? 206 : 200, {
      'content-type': 'application/octet-stream',
      'content-length': String(part.length),
      'accept-ranges': 'bytes',
      ...(match ? { 'content-range': `bytes ${start}-${total - 1}/${total}` } : {}),
    });
    if (first && image.cutFirstAfter !== undefined) {
      // Flushed first, then the socket goes: the client sees a body shorter than announced.
      res.write(part.subarray(0, image.cutFirstAfter), () => res.socket?.destroy());
      return;
    }
    res.end(part);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    requests,
    serve(path, image) {
      images.set(path, { ...image, served: 0 });
      return `http://127.0.0.1:${port}${path}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An Ed25519 key pair, as the install has one. */
export function signingKeyPair(): {
  publicKey: KeyObject;
  privateKey: KeyObject;
  publicPem: string;
} {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey,
    privateKey,
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** Hex MD5 and SHA-256 of `body`. */
export function digests(body: Buffer): { md5: string; sha256: string } {
  return {
    md5: createHash('md5').update(body).digest('hex'),
    sha256: createHash('sha256').update(body).digest('hex'),
  };
}

/** The base64 signature the server would publish for this manifest. */
export function signManifest(
  privateKey: KeyObject,
  manifest: Pick<
    OtaUrlPayload,
    'ota_image_id' | 'type' | 'model' | 'fw_version' | 'file_size' | 'sha256'
  >,
): string {
  return sign(null, Buffer.from(otaManifestText(manifest), 'utf8'), privateKey).toString('base64');
}

/** A correct, signed offer for `body` at `url`. */
export function signedOffer(
  privateKey: KeyObject,
  body: Buffer,
  fields: Pick<OtaUrlPayload, 'url' | 'type' | 'model' | 'fw_version'> &
    Partial<Pick<OtaUrlPayload, 'ota_job_id' | 'ota_image_id'>>,
): OtaUrlPayload {
  const { md5, sha256 } = digests(body);
  const manifest = {
    ota_image_id: fields.ota_image_id ?? 'img-1',
    type: fields.type,
    model: fields.model,
    fw_version: fields.fw_version,
    file_size: body.length,
    sha256,
  };
  return {
    ota_job_id: fields.ota_job_id ?? 'job-1',
    url: fields.url,
    file_md5: md5,
    ...manifest,
    signature: signManifest(privateKey, manifest),
  };
}

/** Deterministic pseudo-random image bytes (what is in them does not matter, only that they vary). */
export function imageBytes(size: number, salt = 1): Buffer {
  const body = Buffer.alloc(size);
  let x = salt * 2654435761;
  for (let i = 0; i < size; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    body[i] = x >>> 24;
  }
  return body;
}
