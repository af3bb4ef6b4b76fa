import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify, type JWK } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { getOrCreateSecret } from '../../repositories/secret.repository.js';

type SigningKey = Awaited<ReturnType<typeof importJWK>>;

const ALGORITHM = 'EdDSA';
const ACCESS_AUDIENCE = 'fleetdeck-api';
const ID_AUDIENCE = 'fleetdeck-id';
const ACCESS_TYP = 'at+jwt';

/** What a valid access token says. */
export interface AccessClaims {
  userId: string;
  sessionId: string;
  expiresAt: number;
}

/**
 * Signs and verifies JWTs with the install's own Ed25519 key, generated on first start and kept in
 * the database (never a fixed secret). Access tokens carry `typ: at+jwt` and their own audience, so
 * an id token can never pass as an access token (RFC 8725 §3.11).
 */
export class TokenService {
  private constructor(
    private readonly privateKey: SigningKey,
    private readonly publicKey: SigningKey,
    private readonly keyId: string,
    private readonly issuer: string,
    private readonly accessTtlSeconds: number,
  ) {}

  /** Loads the install's signing key, creating it on first use. */
  static async create(
    db: Kysely<Database>,
    issuer: string,
    accessTtlSeconds: number,
  ): Promise<TokenService> {
    const stored = await getOrCreateSecret(
      db,
      'jwt_signing_key',
      async () => {
        const { privateKey } = await generateKeyPair(ALGORITHM, {
          crv: 'Ed25519',
          extractable: true,
        });
        const jwk = await exportJWK(privateKey);
        return JSON.stringify({ ...jwk, kid: randomBytes(8).toString('hex') });
      },
      Math.floor(Date.now() / 1000),
    );
    const jwk = JSON.parse(stored) as JWK & { kid: string };
    const { d: _private, ...publicJwk } = jwk;
    const privateKey = await importJWK(jwk, ALGORITHM);
    const publicKey = await importJWK(publicJwk, ALGORITHM);
    return new TokenService(privateKey, publicKey, jwk.kid, issuer, accessTtlSeconds);
  }

  /** Access-token lifetime in seconds. */
  get accessTtl(): number {
    return this.accessTtlSeconds;
  }

  /** Signs an access token for one session. */
  async signAccessToken(
    userId: string,
    sessionId: string,
    now: number,
  ): Promise<{ token: string; expiresAt: number }> {
    const expiresAt = now + this.accessTtlSeconds;
    const token = await new SignJWT({ sid: sessionId, token_use: 'access' })
      .setProtectedHeader({ alg: ALGORITHM, typ: ACCESS_TYP, kid: this.keyId })
      .setSubject(userId)
      .setIssuer(this.issuer)
      .setAudience(ACCESS_AUDIENCE)
      .setIssuedAt(now)
      .setNotBefore(now - 5)
      .setExpirationTime(expiresAt)
      .setJti(randomBytes(12).toString('base64url'))
      .sign(this.privateKey);
    return { token, expiresAt };
  }

  /** Signs an id token describing the user (for API clients that read identity from it). */
  async signIdToken(
    user: { userId: string; email: string; roles: string[] },
    now: number,
  ): Promise<string> {
    return new SignJWT({ email: user.email, user_roles: user.roles, token_use: 'id' })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT', kid: this.keyId })
      .setSubject(user.userId)
      .setIssuer(this.issuer)
      .setAudience(ID_AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + this.accessTtlSeconds)
      .sign(this.privateKey);
  }

  /** Verifies an access token; undefined for anything forged, expired or of the wrong kind. */
  async verifyAccessToken(token: string): Promise<AccessClaims | undefined> {
    if (token.length > 4096) return undefined;
    try {
      const { payload } = await jwtVerify(token, this.publicKey, {
        algorithms: [ALGORITHM],
        issuer: this.issuer,
        audience: ACCESS_AUDIENCE,
        typ: ACCESS_TYP,
        requiredClaims: ['sub', 'exp', 'iat', 'sid'],
        clockTolerance: 5,
      });
      if (
        payload.token_use !== 'access' ||
        typeof payload.sid !== 'string' ||
        !payload.sub ||
        !payload.exp
      ) {
        return undefined;
      }
      return { userId: payload.sub, sessionId: payload.sid, expiresAt: payload.exp };
    } catch {
      return undefined;
    }
  }
}

/** A new opaque refresh token (256 random bits). */
export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Refresh tokens are stored only as SHA-256 hashes. */
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
