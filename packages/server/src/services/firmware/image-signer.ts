import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  type KeyObject,
} from 'node:crypto';
import { otaManifestText, type OtaManifest } from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { getOrCreateSecret } from '../../repositories/secret.repository.js';

const SECRET_NAME = 'ota_signing_key';

/**
 * Signs image manifests with this install's Ed25519 key, generated on first use and kept in
 * `system_secrets`. Devices verify with the public key (GET /v1/otaimage/signing_key), so an image
 * altered anywhere between upload and flash is refused.
 */
export class ImageSigner {
  private constructor(
    private readonly privateKey: KeyObject,
    /** SPKI PEM of the public key. */
    readonly publicKeyPem: string,
  ) {}

  /** Loads (or creates) the install's signing key. */
  static async create(db: Kysely<Database>): Promise<ImageSigner> {
    const pem = await getOrCreateSecret(
      db,
      SECRET_NAME,
      () => {
        const { privateKey } = generateKeyPairSync('ed25519');
        return Promise.resolve(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
      },
      Math.floor(Date.now() / 1000),
    );
    const privateKey = createPrivateKey(pem);
    const publicKeyPem = createPublicKey(privateKey).export({ format: 'pem', type: 'spki' });
    return new ImageSigner(privateKey, publicKeyPem.toString());
  }

  /** Base64 Ed25519 signature of the manifest's canonical text. */
  sign(manifest: OtaManifest): string {
    return sign(null, Buffer.from(otaManifestText(manifest), 'utf8'), this.privateKey).toString(
      'base64',
    );
  }
}
