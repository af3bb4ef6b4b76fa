import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import Provider from 'oidc-provider';

/** A person the stand-in providers know. */
export interface PeerAccount {
  email?: string;
  /** Apple sends the strings "true" and "false". */
  email_verified?: boolean | 'true' | 'false';
  name?: string;
}

/** How the next ID tokens are spoiled (attack cases): changed claims, or another signing key. */
export interface IdTokenTamper {
  claims?: (claims: JWTPayload) => JWTPayload;
  /** Sign with a key the provider never published (same `kid`, so only the signature is wrong). */
  foreignKey?: boolean;
}

/** Sign in with Apple's client registration: the team key the client secret JWT is signed with. */
export interface AppleTeam {
  teamId: string;
  keyId: string;
  /** The team's private key as the .p8 file holds it (PKCS#8 PEM), for the provider's settings. */
  privateKeyPem: string;
}

/**
 * A real OpenID Provider (`oidc-provider`) standing in for Google or Apple: discovery, JWKS,
 * PKCE-checked code flow and signed ID tokens. The login step completes at once as `nextSubject`.
 */
export interface OidcPeer {
  issuer: string;
  clientId: string;
  /** Google: the client secret. Apple: unused (the client secret is a JWT the server signs). */
  clientSecret: string;
  accounts: Map<string, PeerAccount>;
  nextSubject: string;
  /** Set to spoil the ID tokens of the following token answers; undefined answers them as issued. */
  tamper: IdTokenTamper | undefined;
  /** Apple only: the team key, and the client-secret JWTs the token endpoint verified or refused. */
  apple: (AppleTeam & { verifiedSecrets: number; refusedSecrets: number }) | undefined;
  close: () => Promise<void>;
}

/** Options of a stand-in. `apple` makes it behave like Sign in with Apple. */
export interface OidcPeerOptions {
  apple?: boolean;
}

const readBody = (req: http.IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });

const sendJson = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
};

/**
 * Starts an OpenID Provider on a free loopback port. Like Apple (`apple: true`) it answers with
 * `response_mode=form_post` only, accepts as client secret only an ES256 JWT signed with the team
 * key (iss team id, sub client id, aud issuer, kid key id, short-lived), and puts `email_verified`
 * into the ID token as a string.
 */
export async function startOidcPeer(
  redirectUris: string[],
  options: OidcPeerOptions = {},
): Promise<OidcPeer> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // The token endpoint runs here behind the public one, which can check Apple's client secret and
  // spoil ID tokens on their way out.
  const inner = http.createServer();
  await new Promise<void>((resolve) => inner.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const innerPort = (inner.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;

  const signing = await generateKeyPair('RS256', { extractable: true });
  const kid = randomBytes(6).toString('hex');
  const signingJwk: JWK = {
    ...(await exportJWK(signing.privateKey)),
    kid,
    alg: 'RS256',
    use: 'sig',
  };
  let foreignKey: CryptoKey | undefined;

  let apple: OidcPeer['apple'];
  let applePublicKey: CryptoKey | undefined;
  if (options.apple) {
    const team = await generateKeyPair('ES256', { extractable: true });
    applePublicKey = team.publicKey;
    apple = {
      teamId: 'TEAM4APPLE',
      keyId: 'KEY4APPLE1',
      privateKeyPem: await exportPKCS8(team.privateKey),
      verifiedSecrets: 0,
      refusedSecrets: 0,
    };
  }

  const close = (target: http.Server) =>
    new Promise<void>((resolve) => {
      target.closeAllConnections();
      target.close(() => resolve());
    });
  const peer: OidcPeer = {
    issuer,
    clientId: options.apple ? 'com.fleetdeck.test.web' : 'fleetdeck-test-client',
    clientSecret: randomBytes(16).toString('hex'),
    accounts: new Map(),
    nextSubject: '',
    tamper: undefined,
    apple,
    close: async () => {
      await Promise.all([close(server), close(inner)]);
    },
  };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: peer.clientId,
        client_secret: peer.clientSecret,
        redirect_uris: redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [signingJwk] },
    claims: options.apple
      ? { openid: ['sub'], email: ['email', 'email_verified'], name: ['name'] }
      : { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Put the e-mail claims into the ID token, as Google and Apple do.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
    },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: id, ...(peer.accounts.get(id) ?? {}) }),
    }),
    // No consent screen: the test's person always agrees to what was asked.
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
      const scope = ctx.oidc.params?.scope;
      grant.addOIDCScope(typeof scope === 'string' ? scope : 'openid');
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();
  inner.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    void callback(req, res);
  });

  /** Apple's rule for the client secret: an ES256 JWT of the team key, checked in full. */
  const appleSecretValid = async (secret: string | null): Promise<boolean> => {
    if (!apple || !applePublicKey || !secret) return false;
    try {
      const { protectedHeader } = await jwtVerify(secret, applePublicKey, {
        algorithms: ['ES256'],
        issuer: apple.teamId,
        subject: peer.clientId,
        audience: issuer,
        maxTokenAge: '180d',
        requiredClaims: ['iat', 'exp'],
      });
      return protectedHeader.kid === apple.keyId;
    } catch {
      return false;
    }
  };

  const spoil = async (idToken: string, tamper: IdTokenTamper): Promise<string> => {
    const header = decodeProtectedHeader(idToken);
    const claims = tamper.claims ? tamper.claims(decodeJwt(idToken)) : decodeJwt(idToken);
    foreignKey ??= (await generateKeyPair('RS256')).privateKey;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: header.kid ?? kid })
      .sign(tamper.foreignKey ? foreignKey : signing.privateKey);
  };

  const token = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const form = new URLSearchParams(await readBody(req));
    if (apple) {
      if (!(await appleSecretValid(form.get('client_secret')))) {
        apple.refusedSecrets += 1;
        return sendJson(res, 400, { error: 'invalid_client' });
      }
      apple.verifiedSecrets += 1;
      // Verified: the provider underneath knows this client by its registration secret.
      form.set('client_secret', peer.clientSecret);
    }
    const answer = await fetch(`http://127.0.0.1:${innerPort}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    const body = (await answer.json()) as Record<string, unknown>;
    if (answer.ok && peer.tamper && typeof body.id_token === 'string')
      body.id_token = await spoil(body.id_token, peer.tamper);
    sendJson(res, answer.status, body);
  };

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', issuer);
    if (req.method === 'POST' && url.pathname === '/token') {
      token(req, res).catch((error: unknown) => sendJson(res, 500, { error: String(error) }));
      return;
    }
    // Apple answers the web flow with a form POST whenever e-mail or name is asked for.
    if (apple && url.pathname === '/auth' && url.searchParams.get('response_mode') !== 'form_post')
      return sendJson(res, 400, { error: 'invalid_request', error_description: 'form_post' });
    if (url.pathname.startsWith('/interaction/')) {
      void (async () => {
        try {
          await provider.interactionDetails(req, res);
          await provider.interactionFinished(
            req,
            res,
            { login: { accountId: peer.nextSubject } },
            { mergeWithLastSubmission: false },
          );
        } catch (error) {
          res.statusCode = 500;
          res.end(String(error));
        }
      })();
      return;
    }
    void callback(req, res);
  });
  return peer;
}

/** A GitHub user of the stand-in. */
export interface GitHubAccount {
  id: number;
  login: string;
  name: string | null;
  emails: { email: string; primary: boolean; verified: boolean }[];
}

/**
 * A small HTTP server standing in for GitHub (Enterprise layout): OAuth authorize and
 * access_token with PKCE, and the REST API's /user and /user/emails under /api/v3.
 */
export interface GitHubPeer {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  nextUser: GitHubAccount | undefined;
  close: () => Promise<void>;
}

/** Starts the GitHub stand-in on a free loopback port. */
export async function startGitHubPeer(): Promise<GitHubPeer> {
  const codes = new Map<
    string,
    { user: GitHubAccount; challenge: string; redirectUri: string; clientId: string }
  >();
  const tokens = new Map<string, GitHubAccount>();
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const peer: GitHubPeer = {
    baseUrl: `http://127.0.0.1:${port}`,
    clientId: 'Iv1.fleetdecktest',
    clientSecret: randomBytes(20).toString('hex'),
    nextUser: undefined,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', peer.baseUrl);
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      if (
        url.searchParams.get('client_id') !== peer.clientId ||
        url.searchParams.get('code_challenge_method') !== 'S256' ||
        !peer.nextUser
      )
        return json(res, 400, { error: 'bad request' });
      const code = randomBytes(10).toString('hex');
      codes.set(code, {
        user: peer.nextUser,
        challenge: url.searchParams.get('code_challenge') ?? '',
        redirectUri,
        clientId: peer.clientId,
      });
      const target = new URL(redirectUri);
      target.searchParams.set('code', code);
      target.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: target.toString() });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const entry = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (
          !entry ||
          form.get('client_secret') !== peer.clientSecret ||
          form.get('client_id') !== entry.clientId ||
          form.get('redirect_uri') !== entry.redirectUri ||
          challenge !== entry.challenge
        )
          return json(res, 200, { error: 'bad_verification_code' });
        const token = `gho_${randomBytes(12).toString('hex')}`;
        tokens.set(token, entry.user);
        json(res, 200, {
          access_token: token,
          token_type: 'bearer',
          scope: 'read:user,user:email',
        });
      });
      return;
    }
    const user = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (url.pathname === '/api/v3/user') {
      if (!user) return json(res, 401, { message: 'Bad credentials' });
      return json(res, 200, { id: user.id, login: user.login, name: user.name });
    }
    if (url.pathname === '/api/v3/user/emails') {
      if (!user) return json(res, 401, { message: 'Bad credentials' });
      return json(res, 200, user.emails);
    }
    json(res, 404, { message: 'Not Found' });
  });
  return peer;
}

/**
 * Follows a browser's redirects from `start` (keeping the peer's cookies) until the location
 * leaves the peer for `stopAt`; returns that location.
 */
export async function followUntil(start: string, stopAt: string): Promise<string> {
  const jar = new Map<string, string>();
  let location = start;
  for (let hop = 0; hop < 15; hop++) {
    if (location.startsWith(stopAt)) return location;
    const response = await fetch(location, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      jar.set(pair.slice(0, index), pair.slice(index + 1));
    }
    const next = response.headers.get('location');
    if (!next) throw new Error(`${location} answered ${response.status}: ${await response.text()}`);
    location = new URL(next, location).toString();
  }
  throw new Error('too many redirects');
}

/** The form a provider's `form_post` answer submits: its action and fields. */
export interface FormPost {
  action: string;
  fields: URLSearchParams;
}

const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * Follows a browser's redirects from `start` (keeping the peer's cookies) until the provider
 * answers with a self-submitting form (`response_mode=form_post`); returns what it would POST.
 */
export async function followToFormPost(start: string): Promise<FormPost> {
  const jar = new Map<string, string>();
  let location = start;
  for (let hop = 0; hop < 15; hop++) {
    const response = await fetch(location, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      jar.set(pair.slice(0, index), pair.slice(index + 1));
    }
    const next = response.headers.get('location');
    if (next) {
      location = new URL(next, location).toString();
      continue;
    }
    const html = await response.text();
    const action = /<form method="post" action="([^"]*)"/.exec(html)?.[1];
    if (response.status !== 200 || action === undefined)
      throw new Error(`${location} answered ${response.status}: ${html}`);
    const fields = new URLSearchParams();
    for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"\/>/g))
      fields.set(unescapeHtml(match[1] ?? ''), unescapeHtml(match[2] ?? ''));
    return { action: unescapeHtml(action), fields };
  }
  throw new Error('too many redirects');
}
