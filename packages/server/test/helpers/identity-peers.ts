import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person the stand-in providers know. */
export interface PeerAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

/**
 * A real OpenID Provider (`oidc-provider`) standing in for Google or Apple: discovery, JWKS,
 * PKCE-checked code flow and signed ID tokens. The login step completes at once as `nextSubject`.
 */
export interface OidcPeer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, PeerAccount>;
  nextSubject: string;
  close: () => Promise<void>;
}

/** Starts an OpenID Provider on a free loopback port. */
export async function startOidcPeer(redirectUris: string[]): Promise<OidcPeer> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const peer: OidcPeer = {
    issuer,
    clientId: 'fleetdeck-test-client',
    clientSecret: randomBytes(16).toString('hex'),
    accounts: new Map(),
    nextSubject: '',
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
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
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
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
    // No consent screen: the test's person always agrees.
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.url?.startsWith('/interaction/')) {
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
