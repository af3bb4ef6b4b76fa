import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a signed blob URL allows: one method on one key until a time, with an optional cap. */
export interface SignedUrlClaims {
  method: 'GET' | 'PUT';
  key: string;
  /** Epoch seconds. */
  expiresAt: number;
  /** PUT only: the most bytes the upload may carry. */
  maxBytes?: number;
}

/**
 * HMAC-SHA256 signatures for blob URLs, with a per-install secret. The signature covers the
 * method, the key, the expiry and the size cap, so none of them can be changed in the URL.
 */
export class UrlSigner {
  constructor(private readonly secret: Buffer) {}

  /** The signature of the claims, base64url. */
  sign(claims: SignedUrlClaims): string {
    return createHmac('sha256', this.secret)
      .update(
        `${claims.method}\n${claims.key}\n${claims.expiresAt}\n${claims.maxBytes ?? ''}`,
        'utf8',
      )
      .digest('base64url');
  }

  /** Whether `signature` is valid for the claims and the URL has not expired at `now`. */
  verify(claims: SignedUrlClaims, signature: string, now: number): boolean {
    if (!Number.isFinite(claims.expiresAt) || claims.expiresAt < now) return false;
    const expected = Buffer.from(this.sign(claims), 'utf8');
    const given = Buffer.from(signature, 'utf8');
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
