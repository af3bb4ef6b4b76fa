import type { IdentityProviderType } from '@fleetdeck/contract';
import { importPKCS8, SignJWT } from 'jose';
import * as oidc from 'openid-client';

/** Public issuers (or base URLs) of the providers; a provider record may override them. */
export const DEFAULT_ISSUERS: Record<IdentityProviderType, string> = {
  Google: 'https://accounts.google.com',
  SignInWithApple: 'https://appleid.apple.com',
  GitHub: 'https://github.com',
};

/** What a provider said about the person who signed in. */
export interface ProviderIdentity {
  /** The issuer (OIDC `iss`, or GitHub's base URL): with `subject` the identity's key. */
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
}

/** A provider's settings as the sign-in needs them (secrets opened). */
export interface ProviderSettings {
  type: IdentityProviderType;
  clientId: string;
  /** client_secret, or Apple's private key (PEM). */
  secret: string;
  keyId: string | undefined;
  teamId: string | undefined;
  issuer: string;
}

/** The values one sign-in keeps between the authorisation request and the callback. */
export interface SignInChecks {
  state: string;
  codeVerifier: string;
  nonce: string | undefined;
}

/** A failure the provider's answer caused (bad token, wrong nonce…): refused, never thrown on. */
export class ProviderRefusal extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderRefusal';
  }
}

function isLoopback(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return (
    protocol === 'http:' &&
    (hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]')
  );
}

const DISCOVERY_TTL_MS = 10 * 60 * 1000;
const TIMEOUT_MS = 10_000;

/**
 * Talks to the providers: OpenID Connect (Google, Apple) through openid-client with discovery,
 * PKCE, state, nonce and ID-token validation against the provider's JWKS; GitHub as plain OAuth 2.0
 * (authorisation code with PKCE, then its user and e-mails API).
 */
export class ProviderClients {
  private readonly discovered = new Map<string, { at: number; metadata: oidc.ServerMetadata }>();

  /** The provider URL the browser is sent to. */
  async authorizationUrl(
    settings: ProviderSettings,
    callbackUrl: string,
    checks: SignInChecks,
  ): Promise<URL> {
    const codeChallenge = await oidc.calculatePKCECodeChallenge(checks.codeVerifier);
    if (settings.type === 'GitHub') {
      const url = new URL(`${settings.issuer}/login/oauth/authorize`);
      url.search = new URLSearchParams({
        client_id: settings.clientId,
        redirect_uri: callbackUrl,
        scope: 'read:user user:email',
        state: checks.state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
        allow_signup: 'true',
      }).toString();
      return url;
    }
    const config = await this.configuration(settings);
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: callbackUrl,
      scope: settings.type === 'SignInWithApple' ? 'openid email name' : 'openid email profile',
      state: checks.state,
      nonce: checks.nonce ?? '',
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
      // Apple sends the code as a form POST whenever e-mail or name is asked for.
      ...(settings.type === 'SignInWithApple' ? { response_mode: 'form_post' } : {}),
    });
  }

  /** Exchanges the code and returns who signed in; throws ProviderRefusal when anything is off. */
  async complete(
    settings: ProviderSettings,
    callbackUrl: string,
    params: URLSearchParams,
    checks: SignInChecks,
  ): Promise<ProviderIdentity> {
    if (settings.type === 'GitHub')
      return this.completeGitHub(settings, callbackUrl, params, checks);
    const config = await this.configuration(settings);
    const current = new URL(callbackUrl);
    current.search = params.toString();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        ...(checks.nonce ? { expectedNonce: checks.nonce } : {}),
        idTokenExpected: true,
      });
    } catch (error) {
      throw new ProviderRefusal(error instanceof Error ? error.message : String(error), {
        cause: error,
      });
    }
    const claims = tokens.claims();
    if (!claims) throw new ProviderRefusal('no ID token');
    const email = typeof claims.email === 'string' ? claims.email : undefined;
    // Apple sends "true"/"false" as strings.
    const verified = claims.email_verified === true || claims.email_verified === 'true';
    return {
      issuer: claims.iss,
      subject: claims.sub,
      email,
      emailVerified: email !== undefined && verified,
      name: typeof claims.name === 'string' ? claims.name : undefined,
    };
  }

  private async configuration(settings: ProviderSettings): Promise<oidc.Configuration> {
    const metadata = await this.metadata(settings.issuer);
    const secret =
      settings.type === 'SignInWithApple' ? await appleClientSecret(settings) : settings.secret;
    const config = new oidc.Configuration(
      metadata,
      settings.clientId,
      { client_secret: secret },
      oidc.ClientSecretPost(secret),
    );
    config.timeout = TIMEOUT_MS / 1000;
    // Plain http only for a provider on this machine (a local IdP or a test stand-in).
    if (isLoopback(settings.issuer)) oidc.allowInsecureRequests(config);
    // openid-client trusts an ID token from the token endpoint on TLS alone; we also check its
    // signature against the provider's JWKS (ADR 12), so a token not signed by the provider fails.
    oidc.enableNonRepudiationChecks(config);
    return config;
  }

  private async metadata(issuer: string): Promise<oidc.ServerMetadata> {
    const cached = this.discovered.get(issuer);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.metadata;
    try {
      const config = await oidc.discovery(new URL(issuer), 'discovery', undefined, undefined, {
        timeout: TIMEOUT_MS / 1000,
        ...(isLoopback(issuer) ? { execute: [oidc.allowInsecureRequests] } : {}),
      });
      const metadata = config.serverMetadata();
      this.discovered.set(issuer, { at: Date.now(), metadata });
      return metadata;
    } catch (error) {
      throw new ProviderRefusal(`discovery of ${issuer} failed`, { cause: error });
    }
  }

  private async completeGitHub(
    settings: ProviderSettings,
    callbackUrl: string,
    params: URLSearchParams,
    checks: SignInChecks,
  ): Promise<ProviderIdentity> {
    if (params.get('state') !== checks.state) throw new ProviderRefusal('state mismatch');
    const code = params.get('code');
    if (!code) throw new ProviderRefusal('no code');
    const tokenResponse = await fetchJson(`${settings.issuer}/login/oauth/access_token`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: settings.clientId,
        client_secret: settings.secret,
        code,
        redirect_uri: callbackUrl,
        code_verifier: checks.codeVerifier,
      }).toString(),
    });
    const accessToken = (tokenResponse as { access_token?: unknown }).access_token;
    if (typeof accessToken !== 'string' || accessToken === '')
      throw new ProviderRefusal('GitHub gave no access token');
    const api =
      settings.issuer === DEFAULT_ISSUERS.GitHub
        ? 'https://api.github.com'
        : `${settings.issuer}/api/v3`;
    const headers = {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${accessToken}`,
      'user-agent': 'Fleetdeck',
    };
    const user = (await fetchJson(`${api}/user`, { headers })) as {
      id?: unknown;
      name?: unknown;
      login?: unknown;
    };
    if (typeof user.id !== 'number' && typeof user.id !== 'string')
      throw new ProviderRefusal('GitHub user has no id');
    const emails = await fetchJson(`${api}/user/emails`, { headers });
    const list = Array.isArray(emails)
      ? (emails as { email?: unknown; primary?: unknown; verified?: unknown }[])
      : [];
    const verified = list.filter((e) => typeof e.email === 'string' && e.verified === true);
    const chosen = verified.find((e) => e.primary === true) ?? verified[0];
    const fallback = list.find((e) => typeof e.email === 'string' && e.primary === true);
    const email = (chosen ?? fallback)?.email as string | undefined;
    return {
      issuer: settings.issuer,
      subject: String(user.id),
      email,
      emailVerified: chosen !== undefined,
      name:
        typeof user.name === 'string' && user.name
          ? user.name
          : typeof user.login === 'string'
            ? user.login
            : undefined,
    };
  }
}

async function fetchJson(url: string, init: RequestInit): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new ProviderRefusal(`request to ${url} failed`, { cause: error });
  }
  if (!response.ok) throw new ProviderRefusal(`${url} answered ${response.status}`);
  try {
    return await response.json();
  } catch (error) {
    throw new ProviderRefusal(`${url} answered no JSON`, { cause: error });
  }
}

/**
 * Sign in with Apple's client secret: a short-lived ES256 JWT signed with the team's key
 * (iss team id, sub client id, aud Apple's issuer, kid key id).
 */
export async function appleClientSecret(settings: ProviderSettings): Promise<string> {
  if (!settings.teamId || !settings.keyId)
    throw new ProviderRefusal('Apple team or key id missing');
  let key: Awaited<ReturnType<typeof importPKCS8>>;
  try {
    key = await importPKCS8(settings.secret, 'ES256');
  } catch (error) {
    throw new ProviderRefusal('Apple private key is not a PKCS#8 EC key', { cause: error });
  }
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: settings.keyId })
    .setIssuer(settings.teamId)
    .setSubject(settings.clientId)
    .setAudience(settings.issuer)
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .sign(key);
}
