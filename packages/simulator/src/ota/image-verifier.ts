import { createHash, createPublicKey, verify, type Hash, type KeyObject } from 'node:crypto';
import { otaManifestText, type OtaUrlPayload } from '@fleetdeck/contract';

/**
 * What a node checks before it would boot a downloaded image: size, MD5 (the spec's field),
 * SHA-256, and the install's Ed25519 signature over the manifest (`otaManifestText`), which ties
 * the hash to the image id, type, model, version and size the offer claims.
 */

/** Size and digests of a downloaded image. */
export interface ImageDigest {
  size: number;
  md5: string;
  sha256: string;
}

/** Hashes an image as it streams in, so nothing but the current chunk is held in memory. */
export class ImageHasher {
  private md5: Hash = createHash('md5');
  private sha256: Hash = createHash('sha256');
  private bytes = 0;

  /** Bytes hashed so far. */
  get size(): number {
    return this.bytes;
  }

  /** Adds the next chunk. */
  update(chunk: Uint8Array): void {
    this.md5.update(chunk);
    this.sha256.update(chunk);
    this.bytes += chunk.length;
  }

  /** Starts over (a server that ignored a Range request sends the image from byte 0 again). */
  reset(): void {
    this.md5 = createHash('md5');
    this.sha256 = createHash('sha256');
    this.bytes = 0;
  }

  /** The digests of everything hashed; the hasher cannot be used afterwards. */
  digest(): ImageDigest {
    return {
      size: this.bytes,
      md5: this.md5.digest('hex'),
      sha256: this.sha256.digest('hex'),
    };
  }
}

/** The install's public key is not an Ed25519 SPKI key. */
export class SigningKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SigningKeyError';
  }
}

/** Parses the SPKI PEM of `GET /v1/otaimage/signing_key` (or accepts a ready key object). */
export function parseSigningKey(key: string | KeyObject): KeyObject {
  let parsed: KeyObject;
  try {
    parsed = typeof key === 'string' ? createPublicKey(key) : key;
  } catch (error) {
    throw new SigningKeyError(
      `OTA signing key is not a PEM public key (${(error as Error).message})`,
    );
  }
  if (parsed.type !== 'public' || parsed.asymmetricKeyType !== 'ed25519') {
    throw new SigningKeyError(
      `OTA signing key must be an Ed25519 public key, not ${parsed.asymmetricKeyType ?? parsed.type}`,
    );
  }
  return parsed;
}

/** The verdict on an image: fine, or the reason a node reports with `failed`. */
export type ImageVerdict = { ok: true } | { ok: false; reason: string };

const ED25519_SIGNATURE_BYTES = 64;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Decodes strict base64 (Buffer.from would silently skip garbage characters). */
function decodeSignature(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (!BASE64.test(trimmed)) return undefined;
  return Buffer.from(trimmed, 'base64');
}

/**
 * Checks a downloaded image against its offer, cheapest and most telling check first, so the
 * reason names the first thing that is wrong.
 */
export function verifyImage(
  offer: OtaUrlPayload,
  image: ImageDigest,
  key: KeyObject,
): ImageVerdict {
  if (image.size !== offer.file_size) {
    return {
      ok: false,
      reason: `Image size mismatch: received ${image.size} bytes, expected ${offer.file_size}`,
    };
  }
  if (image.md5 !== offer.file_md5.trim().toLowerCase()) {
    return { ok: false, reason: 'MD5 mismatch' };
  }
  if (image.sha256 !== offer.sha256.trim().toLowerCase()) {
    return { ok: false, reason: 'SHA-256 mismatch' };
  }
  const signature = decodeSignature(offer.signature);
  if (!signature) return { ok: false, reason: 'Signature invalid: not base64' };
  if (signature.length !== ED25519_SIGNATURE_BYTES) {
    return {
      ok: false,
      reason: `Signature invalid: ${signature.length} bytes, an Ed25519 signature has ${ED25519_SIGNATURE_BYTES}`,
    };
  }
  const manifest = otaManifestText({
    ota_image_id: offer.ota_image_id,
    type: offer.type,
    model: offer.model,
    fw_version: offer.fw_version,
    file_size: offer.file_size,
    sha256: image.sha256,
  });
  let valid: boolean;
  try {
    valid = verify(null, Buffer.from(manifest, 'utf8'), key, signature);
  } catch {
    valid = false;
  }
  return valid ? { ok: true } : { ok: false, reason: 'Signature invalid' };
}
