import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { getOrCreateSecret } from '../../repositories/secret.repository.js';

const VERSION = 'v1';
const KEY_NAME = 'settings_encryption_key';

/**
 * Encrypts settings secrets at rest (identity-provider client secrets, push credentials, SMTP
 * passwords) with AES-256-GCM under a per-install key kept in `system_secrets`. A sealed value is
 * `v1.<iv>.<tag>.<ciphertext>` in base64url, so a tampered or truncated value fails to open.
 * The optional context (e.g. a table and row id) is bound as associated data: a sealed value
 * copied into another row does not open there.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /** Loads (or creates on first use) the install's settings key. */
  static async create(db: Kysely<Database>): Promise<SecretBox> {
    const encoded = await getOrCreateSecret(
      db,
      KEY_NAME,
      () => Promise.resolve(randomBytes(32).toString('base64')),
      Math.floor(Date.now() / 1000),
    );
    return new SecretBox(Buffer.from(encoded, 'base64'));
  }

  /** A box over a given 32-byte key (tests). */
  static fromKey(key: Buffer): SecretBox {
    if (key.length !== 32) throw new Error('SecretBox key must be 32 bytes');
    return new SecretBox(key);
  }

  seal(plaintext: string, context = ''): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** Opens a sealed value; throws when it was altered, sealed under another key or context. */
  open(sealed: string, context = ''): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) {
      throw new Error('Not a sealed secret');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(body, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }
}

/** Shows the last four characters of a secret, enough to recognise it, never enough to use it. */
export function maskSecret(secret: string): string {
  if (secret.length <= 4) return '••••';
  return `••••${secret.slice(-4)}`;
}
