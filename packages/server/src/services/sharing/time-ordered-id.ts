import { randomBytes } from 'node:crypto';

/**
 * A 32-hex-digit id that starts with the creation time in milliseconds, so id order is age order
 * on both dialects and keyset pages need no second column; 80 random bits keep ids unguessable.
 */
export function timeOrderedId(now: number = Date.now()): string {
  return now.toString(16).padStart(12, '0') + randomBytes(10).toString('hex');
}
