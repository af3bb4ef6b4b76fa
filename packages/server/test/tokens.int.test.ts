import { webcrypto } from 'node:crypto';
import { SignJWT, UnsecuredJWT, base64url, generateKeyPair, importJWK, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

// ASVS 5.0 V9.1/V9.2 (self-contained tokens): every forged or tampered access token is refused.
describe.each(DIALECTS)('forged access tokens on %s', (dialect) => {
  let server: TestServer;
  let valid: string;
  let idToken: string;
  let claims: { sub: string; sid: string; iss: string };
  let realKey: Awaited<ReturnType<typeof importJWK>>;
  let kid: string;

  beforeAll(async () => {
    server = await createTestServer(dialect);
    const login = await apiLogin(server.app);
    valid = login.accesstoken;
    idToken = login.idtoken;
    const payload = JSON.parse(
      Buffer.from(valid.split('.')[1] ?? '', 'base64url').toString(),
    ) as typeof claims;
    claims = { sub: payload.sub, sid: payload.sid, iss: payload.iss };
    const row = await server.database.db
      .selectFrom('system_secrets')
      .select('value')
      .where('name', '=', 'jwt_signing_key')
      .executeTakeFirstOrThrow();
    const jwk = JSON.parse(row.value) as JWK & { kid: string };
    kid = jwk.kid;
    realKey = await importJWK(jwk, 'EdDSA');
  });
  afterAll(async () => {
    await server.close();
  });

  const now = () => Math.floor(Date.now() / 1000);

  /** Signs with the install's real key, so only the claim or header under test is wrong. */
  const signReal = (
    payload: { sub?: string; iss?: string; aud?: string; iat?: number; exp?: number } & Record<
      string,
      unknown
    >,
    header: Record<string, unknown> = {},
  ) =>
    new SignJWT({ sid: claims.sid, token_use: 'access', ...payload })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid, ...header })
      .setSubject(payload.sub ?? claims.sub)
      .setIssuer(payload.iss ?? claims.iss)
      .setAudience(payload.aud ?? 'fleetdeck-api')
      .setIssuedAt(Number(payload.iat ?? now()))
      .setExpirationTime(Number(payload.exp ?? now() + 600))
      .sign(realKey);

  /** Signs header.payload with the real key by hand (for headers jose refuses to produce). */
  const signRaw = async (header: Record<string, unknown>, encodedPayload: string) => {
    const input = `${base64url.encode(JSON.stringify(header))}.${encodedPayload}`;
    const signature = await webcrypto.subtle.sign(
      'Ed25519',
      realKey as webcrypto.CryptoKey,
      new TextEncoder().encode(input),
    );
    return `${input}.${base64url.encode(new Uint8Array(signature))}`;
  };

  const tamper = (token: string, change: (payload: Record<string, unknown>) => void) => {
    const [header, body, signature] = token.split('.');
    const payload = JSON.parse(Buffer.from(body ?? '', 'base64url').toString()) as Record<
      string,
      unknown
    >;
    change(payload);
    return `${header}.${base64url.encode(JSON.stringify(payload))}.${signature}`;
  };

  it('accepts the genuine token (control)', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { authorization: valid },
    });
    expect(response.statusCode).toBe(200);
    const resigned = await signReal({});
    const again = await server.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { authorization: resigned },
    });
    expect(again.statusCode).toBe(200);
  });

  it('refuses at least 30 forged, tampered, expired or misdirected tokens', async () => {
    const otherKey = (await generateKeyPair('EdDSA', { crv: 'Ed25519' })).privateKey;
    const rsaKey = (await generateKeyPair('RS256')).privateKey;
    const publicJwk = JSON.parse(
      (
        await server.database.db
          .selectFrom('system_secrets')
          .select('value')
          .where('name', '=', 'jwt_signing_key')
          .executeTakeFirstOrThrow()
      ).value,
    ) as JWK;
    const publicBytes = new TextEncoder().encode(publicJwk.x ?? '');
    const [validHeader = '', validBody = '', validSig = ''] = valid.split('.');
    const base = () =>
      new SignJWT({ sid: claims.sid, token_use: 'access' })
        .setSubject(claims.sub)
        .setIssuer(claims.iss)
        .setAudience('fleetdeck-api')
        .setIssuedAt()
        .setExpirationTime('10m');

    const forged: Array<[string, string]> = [
      [
        'alg none',
        new UnsecuredJWT({
          sid: claims.sid,
          token_use: 'access',
          sub: claims.sub,
          iss: claims.iss,
          aud: 'fleetdeck-api',
        })
          .setExpirationTime('10m')
          .encode(),
      ],
      [
        'alg none with typ',
        `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt' }))}.${validBody}.`,
      ],
      [
        'HS256 keyed with the public key (alg confusion)',
        await base().setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).sign(publicBytes),
      ],
      [
        'HS256 with a guessed secret',
        await base()
          .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
          .sign(new TextEncoder().encode('secret')),
      ],
      [
        'EdDSA with another key',
        await base().setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid }).sign(otherKey),
      ],
      [
        'RS256 with an attacker key',
        await base().setProtectedHeader({ alg: 'RS256', typ: 'at+jwt' }).sign(rsaKey),
      ],
      ['expired', await signReal({ exp: now() - 60, iat: now() - 4000 })],
      [
        'not yet valid (nbf)',
        await new SignJWT({ sid: claims.sid, token_use: 'access' })
          .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt' })
          .setSubject(claims.sub)
          .setIssuer(claims.iss)
          .setAudience('fleetdeck-api')
          .setIssuedAt()
          .setNotBefore(now() + 3600)
          .setExpirationTime(now() + 7200)
          .sign(realKey),
      ],
      ['wrong audience', await signReal({ aud: 'some-other-api' })],
      ['id-token audience', await signReal({ aud: 'fleetdeck-id' })],
      ['wrong issuer', await signReal({ iss: 'https://evil.example' })],
      ['typ JWT instead of at+jwt', await signReal({}, { typ: 'JWT' })],
      [
        'typ missing',
        await new SignJWT({ sid: claims.sid, token_use: 'access' })
          .setProtectedHeader({ alg: 'EdDSA' })
          .setSubject(claims.sub)
          .setIssuer(claims.iss)
          .setAudience('fleetdeck-api')
          .setIssuedAt()
          .setExpirationTime('10m')
          .sign(realKey),
      ],
      ['token_use id', await signReal({ token_use: 'id' })],
      ['no token_use', await signReal({ token_use: undefined })],
      ['no sid', await signReal({ sid: undefined })],
      ['unknown session id', await signReal({ sid: '00000000-0000-0000-0000-000000000000' })],
      ['session of another subject', await signReal({ sub: 'someone-else' })],
      ['the id token itself', idToken],
      ['payload tampered: sub', tamper(valid, (p) => (p.sub = 'attacker'))],
      ['payload tampered: exp extended', tamper(valid, (p) => (p.exp = Number(p.exp) + 86400))],
      ['payload tampered: sid', tamper(valid, (p) => (p.sid = 'x'))],
      [
        'header tampered: kid',
        `${base64url.encode(JSON.stringify({ alg: 'EdDSA', typ: 'at+jwt', kid: 'other' }))}.${validBody}.${validSig}`,
      ],
      [
        'header tampered: alg HS256',
        `${base64url.encode(JSON.stringify({ alg: 'HS256', typ: 'at+jwt' }))}.${validBody}.${validSig}`,
      ],
      ['signature truncated', valid.slice(0, -6)],
      ['signature removed', `${validHeader}.${validBody}.`],
      [
        'signature of another token',
        `${validHeader}.${validBody}.${(await signReal({ jti: 'other' })).split('.')[2]}`,
      ],
      ['four segments', `${valid}.extra`],
      ['JWE-shaped', 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..aaaa.bbbb.cccc'],
      ['garbage', 'not-a-token'],
      ['payload not JSON', `${validHeader}.${base64url.encode('not json')}.${validSig}`],
      [
        'crit header not understood',
        await signRaw(
          { alg: 'EdDSA', typ: 'at+jwt', crit: ['x-unknown'], 'x-unknown': true },
          validBody,
        ),
      ],
      [
        'signed with the real key but alg none in header',
        await signRaw({ alg: 'none', typ: 'at+jwt' }, validBody),
      ],
      ['oversized', `${valid}${'A'.repeat(5000)}`],
      ['Bearer with garbage', 'Bearer abc.def.ghi'],
    ];
    expect(forged.length).toBeGreaterThanOrEqual(30);
    for (const [name, token] of forged) {
      const response = await server.app.inject({
        method: 'GET',
        url: '/v1/user',
        headers: { authorization: token },
      });
      expect(response.statusCode, name).toBe(401);
      expect(response.json(), name).toMatchObject({
        status: 'failure',
        description: 'Unauthorized',
      });
    }
  });
});
