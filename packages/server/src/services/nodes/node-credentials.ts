import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Node credentials are 256-bit random secrets, so a fast hash is enough (no guessing attack can
 * profit from a slow one) and keeps 3,000+ authenticated connects per second possible (B2).
 */
export function newNodeSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 hex of a node secret. */
export function hashNodeSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function nodeSecretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashNodeSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** A 12-hex-digit node id, like the MAC-based ids of real firmware. */
export function newNodeId(): string {
  return randomBytes(6).toString('hex').toUpperCase();
}
