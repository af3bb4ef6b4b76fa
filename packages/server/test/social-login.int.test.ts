import { createHash, randomBytes } from 'node:crypto';
import { SERVER_MESSAGES, type AppClient } from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, hotp, totpStep } from '../src/services/auth/totp.js';

interface Failure {
  status: string;
  description: string;
}
import {
  followToFormPost,
  followUntil,
  startGitHubPeer,
  startOidcPeer,
  type GitHubPeer,
  type IdTokenTamper,
  type OidcPeer,
} from './helpers/identity-peers.js';
import {
  ADMIN_EMAIL,
  DIALECTS,
  apiLogin,
  cookiesOf,
  createTestServer,
  type TestServer,
} from './helpers/test-server.js';

const PUBLIC_URL = 'http://fleetdeck.test';
const CALLBACK = `${PUBLIC_URL}/v1/oauth2/callback`;
const SOCIALAUTH = `${PUBLIC_URL}/socialauth`;
const ALL_PROVIDERS = ['Google', 'GitHub', 'SignInWithApple'];

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const nowSeconds = () => Math.floor(Date.now() / 1000);

// QUALITY S7: social sign-in attack cases, each tagged with its OWASP ASVS 5.0 requirement. All
// are refused: no session cookie, no link, no account.

describe.each(DIALECTS)('social sign-in on %s', (dialect) => {
  let server: TestServer;
  let token: string;
  let google: OidcPeer;
  let apple: OidcPeer;
  let github: GitHubPeer;
  let clientId: string;

  const admin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    server.app.inject({
      method,
      url,
      headers: { authorization: token },
      ...(payload ? { payload } : {}),
    });

  const setCallbackUrls = async (urls: string[], providers = ALL_PROVIDERS) => {
    const response = await admin('PUT', '/v1/admin/cognito_appclient', {
      client_id: clientId,
      callback_urls: urls,
      providers,
    });
    expect(response.statusCode, response.body).toBe(200);
  };

  /** Starts a sign-in; returns the provider URL and the browser-binding cookie. */
  const start = async (query: string) => {
    const response = await server.app.inject({
      method: 'GET',
      url: `/v1/oauth2/authorize?${query}`,
    });
    expect(response.statusCode, response.body).toBe(302);
    const state = cookiesOf(response).get('fd_oauth_state')?.value ?? '';
    return { location: response.headers.location ?? '', state };
  };

  /** The provider's redirect back to Fleetdeck, delivered with the given binding cookie. */
  const deliver = async (callbackUrl: string, stateCookie: string, extraCookie = '') => {
    const url = new URL(callbackUrl);
    const response = await server.app.inject({
      method: 'GET',
      url: `${url.pathname}${url.search}`,
      headers: { cookie: `fd_oauth_state=${stateCookie}${extraCookie ? `; ${extraCookie}` : ''}` },
    });
    expect(response.statusCode, response.body).toBe(303);
    return { location: response.headers.location ?? '', cookies: cookiesOf(response) };
  };

  /** A whole Google sign-in as `subject`; returns where the browser lands and its cookies. */
  const signInWithGoogle = async (subject: string, query = 'identity_provider=Google') => {
    google.nextSubject = subject;
    const begun = await start(query);
    const back = await followUntil(begun.location, CALLBACK);
    return deliver(back, begun.state);
  };

  /**
   * A whole Sign in with Apple as `subject`: Apple answers with a form POST to the callback (no
   * cookie rides along, it is cross-site), which Fleetdeck keeps in a one-minute cookie and turns
   * into a bare GET the browser follows: the one-time code never stands in a URL.
   */
  const signInWithApple = async (subject: string) => {
    apple.nextSubject = subject;
    const begun = await start('identity_provider=SignInWithApple');
    const form = await followToFormPost(begun.location);
    expect(form.action).toBe(CALLBACK);
    const posted = await server.app.inject({
      method: 'POST',
      url: new URL(form.action).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.fields.toString(),
    });
    expect(posted.statusCode, posted.body).toBe(303);
    expect(posted.headers.location).toBe('/v1/oauth2/callback');
    const carried = cookiesOf(posted).get('fd_oauth_return');
    expect(carried?.attributes).toMatch(/Max-Age=60/);
    expect(carried?.attributes).toMatch(/Path=\/v1\/oauth2/);
    expect(carried?.attributes).toMatch(/HttpOnly/);
    const landed = await deliver(
      new URL(posted.headers.location ?? '', PUBLIC_URL).toString(),
      begun.state,
      `fd_oauth_return=${carried?.value ?? ''}`,
    );
    // Read once: the GET clears it.
    expect(landed.cookies.get('fd_oauth_return')?.attributes).toMatch(
      /Max-Age=0|Expires=Thu, 01 Jan 1970/,
    );
    return landed;
  };

  /** Changes the stored pending sign-in of `state` (what an attacker cannot, to test the checks). */
  const tamperPending = (
    state: string,
    values: { code_verifier?: string | null; nonce?: string | null; expires_at?: number },
  ) =>
    server.database.db
      .updateTable('oauth_requests')
      .set(values)
      .where('key_hash', '=', sha256(state))
      .execute();

  /** A Google sign-in whose ID token the provider spoils; answers where the browser lands. */
  const signInWithSpoiledToken = async (subject: string, tamper: IdTokenTamper) => {
    google.tamper = tamper;
    try {
      return await signInWithGoogle(subject);
    } finally {
      google.tamper = undefined;
    }
  };

  const userExists = async (email: string) =>
    (await server.database.db
      .selectFrom('users')
      .select('user_id')
      .where('user_name', '=', email)
      .executeTakeFirst()) !== undefined;

  /** The browser was sent back with a refusal and without a session. */
  const expectRefused = (landed: Awaited<ReturnType<typeof deliver>>) => {
    expect(new URL(landed.location).searchParams.get('error')).toMatch(
      /^(access_denied|invalid_request)$/,
    );
    expect(landed.cookies.get('ATK')?.value ?? '').toBe('');
    expect(landed.cookies.get('RTK')?.value ?? '').toBe('');
  };

  const whoAmI = async (atk: string | undefined) => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { authorization: atk ?? '' },
    });
    return response.statusCode === 200 ? response.json<{ user_name: string }>().user_name : null;
  };

  beforeAll(async () => {
    [google, apple, github] = await Promise.all([
      startOidcPeer([CALLBACK]),
      startOidcPeer([CALLBACK], { apple: true }),
      startGitHubPeer(),
    ]);
    server = await createTestServer(dialect, { env: { PUBLIC_URL } });
    token = (await apiLogin(server.app)).accesstoken;
    const configure = await admin('POST', '/v1/admin/identity_provider', {
      provider_type: 'Google',
      client_id: google.clientId,
      client_secret: google.clientSecret,
      callback_urls: SOCIALAUTH,
      issuer: google.issuer,
    });
    expect(configure.statusCode, configure.body).toBe(200);
    const gh = await admin('POST', '/v1/admin/identity_provider', {
      provider_type: 'GitHub',
      client_id: github.clientId,
      client_secret: github.clientSecret,
      callback_urls: SOCIALAUTH,
      issuer: github.baseUrl,
    });
    expect(gh.statusCode, gh.body).toBe(200);
    const team = apple.apple;
    const configureApple = await admin('POST', '/v1/admin/identity_provider', {
      provider_type: 'SignInWithApple',
      client_id: apple.clientId,
      provider_name: 'SignInWithApple',
      team_id: team?.teamId,
      key_id: team?.keyId,
      private_key: team?.privateKeyPem,
      callback_urls: SOCIALAUTH,
      issuer: apple.issuer,
    });
    expect(configureApple.statusCode, configureApple.body).toBe(200);
    clientId = (await admin('GET', '/v1/admin/cognito_appclient')).json<AppClient[]>()[0]
      ?.client_id as string;
  });
  afterAll(async () => {
    await server.close();
    await Promise.all([google.close(), apple.close(), github.close()]);
  });

  it('needs a domain before a sign-in can start', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/v1/oauth2/authorize?identity_provider=Google',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers.location).toBeUndefined();
    expect(response.json<Failure>().description).toBe(SERVER_MESSAGES.socialDomainMissing);
    const domain = await admin('POST', '/v1/admin/cognito_domain', { domain_name: 'fleet-test' });
    expect(domain.statusCode).toBe(200);
  });

  it('signs a new person in through Google with PKCE, state and nonce and creates an end-user account', async () => {
    google.accounts.set('g-alice', {
      email: 'Alice@Example.com',
      email_verified: true,
      name: 'Alice Example',
    });
    const begun = await start('identity_provider=Google');
    const providerUrl = new URL(begun.location);
    expect(providerUrl.origin).toBe(google.issuer);
    expect(providerUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(providerUrl.searchParams.get('nonce')).toBeTruthy();
    expect(providerUrl.searchParams.get('state')).toBe(begun.state);
    expect(providerUrl.searchParams.get('redirect_uri')).toBe(CALLBACK);

    google.nextSubject = 'g-alice';
    const back = await followUntil(begun.location, CALLBACK);
    const landed = await deliver(back, begun.state);
    // The dashboard gets HttpOnly cookies and nothing secret in the URL.
    expect(landed.location).toBe(SOCIALAUTH);
    expect(landed.cookies.get('ATK')?.attributes).toContain('HttpOnly');
    expect(landed.cookies.get('RTK')?.value).toBeTruthy();
    expect(await whoAmI(landed.cookies.get('ATK')?.value)).toBe('alice@example.com');

    const user = await server.database.db
      .selectFrom('users')
      .innerJoin('user_roles', 'user_roles.user_id', 'users.user_id')
      .select(['users.user_id', 'users.password_hash', 'users.name', 'user_roles.role'])
      .where('users.user_name', '=', 'alice@example.com')
      .execute();
    expect(user).toEqual([
      expect.objectContaining({ role: 'user', password_hash: null, name: 'Alice Example' }),
    ]);
    const identity = await server.database.db
      .selectFrom('social_identities')
      .selectAll()
      .where('subject', '=', 'g-alice')
      .executeTakeFirstOrThrow();
    expect(identity).toMatchObject({ issuer: google.issuer, user_id: user[0]?.user_id });

    // S7 attack: the same callback again (replayed state and code). ASVS 10.1.2.
    const replay = await deliver(back, begun.state);
    expect(replay.location).toContain('error=invalid_request');
    expect(replay.cookies.get('ATK')?.value ?? '').toBe('');

    // A second sign-in finds the linked identity; no second account.
    const second = await signInWithGoogle('g-alice');
    expect(await whoAmI(second.cookies.get('ATK')?.value)).toBe('alice@example.com');
    const count = await server.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_name', '=', 'alice@example.com')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  // S7 attacks: state from another browser (login CSRF), and a state Fleetdeck never issued.
  // ASVS 10.2.1, 10.1.2.
  it('refuses a callback whose state does not match the browser that started the sign-in', async () => {
    google.accounts.set('g-mallory', { email: 'mallory@example.com', email_verified: true });
    google.nextSubject = 'g-mallory';
    const attacker = await start('identity_provider=Google');
    const victim = await start('identity_provider=Google');
    const back = await followUntil(attacker.location, CALLBACK);
    // The attacker's callback URL delivered into the victim's browser (login CSRF).
    const refused = await deliver(back, victim.state);
    expect(refused.location).toBe(
      `${SOCIALAUTH}?error=invalid_request&error_description=${encodeURIComponent(
        SERVER_MESSAGES.oauthStateInvalid,
      ).replace(/%20/g, '+')}`,
    );
    expect(refused.cookies.get('ATK')?.value ?? '').toBe('');
    const forged = await deliver(`${CALLBACK}?code=abc&state=${'x'.repeat(43)}`, 'x'.repeat(43));
    expect(forged.location).toContain('error=invalid_request');
  });

  // S7 attack: the ID token's nonce is not this sign-in's. ASVS 10.5.1.
  it('refuses an ID token whose nonce is not the one the sign-in sent', async () => {
    google.accounts.set('g-nonce', { email: 'nonce@example.com', email_verified: true });
    google.nextSubject = 'g-nonce';
    const begun = await start('identity_provider=Google');
    const back = await followUntil(begun.location, CALLBACK);
    await server.database.db
      .updateTable('oauth_requests')
      .set({ nonce: 'not-the-nonce-the-provider-saw' })
      .where('kind', '=', 'state')
      .where('used_at', 'is', null)
      .execute();
    const refused = await deliver(back, begun.state);
    expect(refused.location.startsWith(`${SOCIALAUTH}?error=access_denied`)).toBe(true);
    expect(new URL(refused.location).searchParams.get('error_description')).toBe(
      SERVER_MESSAGES.socialSignInFailed,
    );
    expect(refused.cookies.get('ATK')?.value ?? '').toBe('');
    const created = await server.database.db
      .selectFrom('users')
      .select('user_id')
      .where('user_name', '=', 'nonce@example.com')
      .executeTakeFirst();
    expect(created).toBeUndefined();
  });

  // S7 attacks: a redirect_uri that is not exactly one of the client's. ASVS 10.4.1.
  it('returns only to the exact callback URLs of the app client', async () => {
    for (const redirect of [
      'https://evil.example/socialauth',
      `${SOCIALAUTH}/`, // trailing slash
      `${SOCIALAUTH}?next=/x`,
      'http://fleetdeck.test.evil.example/socialauth',
      'http://fleetdeck.test/social', // a prefix of the allowed URL
      `${SOCIALAUTH}x`, // the allowed URL is a prefix of it
      'http://fleetdeck.test:8080/socialauth', // another port
      'http://fleetdeck.test:80/socialauth', // the same URL spelled with its port
      'http://fleetdeck.test/SocialAuth', // case of the path
      'HTTP://FLEETDECK.TEST/socialauth', // case of scheme and host
      'https://fleetdeck.test/socialauth', // another scheme
      'http://fleetdeck.test@evil.example/socialauth', // user-info trick
      'http://fleetdeck.test/socialauth/../socialauth',
    ]) {
      const response = await server.app.inject({
        method: 'GET',
        url: `/v1/oauth2/authorize?identity_provider=Google&redirect_uri=${encodeURIComponent(redirect)}`,
      });
      expect(response.statusCode, redirect).toBe(400);
      expect(response.headers.location, redirect).toBeUndefined();
      expect(response.json<Failure>().description).toBe(SERVER_MESSAGES.redirectUriNotAllowed);
    }

    const other = `${PUBLIC_URL}/socialauth-staging`;
    await setCallbackUrls([SOCIALAUTH, other]);
    google.accounts.set('g-bob', { email: 'bob@example.com', email_verified: true });
    const landed = await signInWithGoogle(
      'g-bob',
      `identity_provider=Google&redirect_uri=${encodeURIComponent(other)}`,
    );
    expect(landed.location).toBe(other);

    // S7 attack: removed from the client: refused at the start, and for a sign-in already under
    // way. ASVS 10.4.1.
    google.nextSubject = 'g-bob';
    const underway = await start(
      `identity_provider=Google&redirect_uri=${encodeURIComponent(other)}`,
    );
    await setCallbackUrls([SOCIALAUTH]);
    const refusedStart = await server.app.inject({
      method: 'GET',
      url: `/v1/oauth2/authorize?identity_provider=Google&redirect_uri=${encodeURIComponent(other)}`,
    });
    expect(refusedStart.statusCode).toBe(400);
    const back = await followUntil(underway.location, CALLBACK);
    const refused = await deliver(back, underway.state);
    expect(refused.location.startsWith(other)).toBe(false);
    expect(refused.cookies.get('ATK')?.value ?? '').toBe('');
  });

  it('still asks an account with an authenticator app for its code after a social sign-in', async () => {
    const email = 'second-factor@example.com';
    const password = 'Harbor-Lantern-2031';
    const created = await admin('POST', '/v1/admin/user2', {
      user_name: email,
      password,
      roles: ['service_engineer_role'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const userToken = (await apiLogin(server.app, email, password)).accesstoken;
    const totp = (payload?: object) =>
      server.app.inject({
        method: payload ? 'PUT' : 'POST',
        url: '/v1/user2/totp',
        headers: { authorization: userToken },
        ...(payload ? { payload } : {}),
      });
    const secret = base32Decode((await totp()).json<{ secret: string }>().secret);
    const enabled = await totp({ code: hotp(secret, totpStep(Date.now())) });
    expect(enabled.statusCode, enabled.body).toBe(200);

    google.accounts.set('g-second-factor', { email, email_verified: true });
    const back = await signInWithGoogle('g-second-factor');
    // No session yet: the browser goes to /socialauth?mfa=1 with the step in an HttpOnly cookie.
    expect(back.location).toBe(`${SOCIALAUTH}?mfa=1`);
    expect(back.cookies.get('ATK')?.value ?? '').toBe('');
    const stepCookie = back.cookies.get('fd_oauth_mfa');
    expect(stepCookie?.attributes).toMatch(/HttpOnly/i);
    const readStep = () =>
      server.app.inject({
        method: 'GET',
        url: '/v1/oauth2/mfa_step',
        headers: { cookie: `fd_oauth_mfa=${stepCookie?.value ?? ''}` },
      });
    const stepResponse = await readStep();
    expect(stepResponse.statusCode, stepResponse.body).toBe(200);
    const step = stepResponse.json<{ user_name: string; session: string; challenge: string }>();
    expect(step).toMatchObject({ user_name: email, challenge: 'totp' });
    expect(cookiesOf(stepResponse).get('fd_oauth_mfa')?.value ?? '').toBe('');

    const wrong = await server.app.inject({
      method: 'POST',
      url: '/v1/login2',
      payload: { user_name: email, session: step.session, verification_code: '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    const done = await server.app.inject({
      method: 'POST',
      url: '/v1/login2',
      payload: {
        user_name: email,
        session: step.session,
        verification_code: hotp(secret, totpStep(Date.now()) + 1),
      },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await whoAmI(done.json<{ accesstoken: string }>().accesstoken)).toBe(email);
  });

  // ASVS 6.8.1 (no spoofing through another IdP), 6.3.8 (no user enumeration).
  it('links to an existing account only when the provider verified the e-mail, and refuses without telling whether the account exists', async () => {
    google.accounts.set('g-root-unverified', { email: ADMIN_EMAIL, email_verified: false });
    const refused = await signInWithGoogle('g-root-unverified');
    expect(new URL(refused.location).searchParams.get('error_description')).toBe(
      SERVER_MESSAGES.socialEmailMissing,
    );
    expect(refused.cookies.get('ATK')?.value ?? '').toBe('');
    const notLinked = await server.database.db
      .selectFrom('social_identities')
      .select('subject')
      .where('subject', '=', 'g-root-unverified')
      .executeTakeFirst();
    expect(notLinked).toBeUndefined();

    google.accounts.set('g-nobody-unverified', {
      email: 'fresh@example.com',
      email_verified: false,
    });
    const noAccount = await signInWithGoogle('g-nobody-unverified');
    // The same answer whether or not an account has the address: same place, same words, no
    // cookies either way.
    expect(noAccount.location).toBe(refused.location);
    expect([...noAccount.cookies.keys()]).toEqual([...refused.cookies.keys()]);
    expect(await userExists('fresh@example.com')).toBe(false);

    google.accounts.set('g-root', { email: ADMIN_EMAIL, email_verified: true });
    const linked = await signInWithGoogle('g-root');
    expect(linked.location).toBe(SOCIALAUTH);
    expect(await whoAmI(linked.cookies.get('ATK')?.value)).toBe(ADMIN_EMAIL);
  });

  it('signs in through GitHub (OAuth 2.0 with PKCE and the e-mails API), only with a verified e-mail', async () => {
    github.nextUser = {
      id: 4242,
      login: 'octo',
      name: null,
      emails: [
        { email: 'octo-old@example.com', primary: false, verified: false },
        { email: 'octo@example.com', primary: true, verified: true },
      ],
    };
    const begun = await start('identity_provider=GitHub');
    expect(begun.location.startsWith(`${github.baseUrl}/login/oauth/authorize?`)).toBe(true);
    const back = await followUntil(begun.location, CALLBACK);
    const landed = await deliver(back, begun.state);
    expect(landed.location).toBe(SOCIALAUTH);
    expect(await whoAmI(landed.cookies.get('ATK')?.value)).toBe('octo@example.com');
    const identity = await server.database.db
      .selectFrom('social_identities')
      .selectAll()
      .where('subject', '=', '4242')
      .executeTakeFirstOrThrow();
    expect(identity).toMatchObject({ issuer: github.baseUrl, provider_type: 'GitHub' });

    github.nextUser = {
      id: 777,
      login: 'ghost',
      name: 'Ghost',
      emails: [{ email: 'ghost@example.com', primary: true, verified: false }],
    };
    const second = await start('identity_provider=GitHub');
    const refused = await deliver(await followUntil(second.location, CALLBACK), second.state);
    // S7 attack: a GitHub address GitHub has not verified. ASVS 6.8.1.
    expect(refused.location).toContain('error=access_denied');
    expect(refused.cookies.get('ATK')?.value ?? '').toBe('');
  });

  // S7 attacks: an app redirect without PKCE, its code with a wrong verifier, the code twice.
  // ASVS 10.4.6, 10.4.2.
  it('gives an app on another origin a one-time code it redeems with its PKCE verifier', async () => {
    const appUri = 'myapp://callback';
    await setCallbackUrls([SOCIALAUTH, appUri]);
    const noChallenge = await server.app.inject({
      method: 'GET',
      url: `/v1/oauth2/authorize?identity_provider=Google&redirect_uri=${encodeURIComponent(appUri)}`,
    });
    expect(noChallenge.statusCode).toBe(400);

    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const landed = await signInWithGoogle(
      'g-alice',
      `identity_provider=Google&redirect_uri=${encodeURIComponent(appUri)}&code_challenge=${challenge}&code_challenge_method=S256`,
    );
    expect(landed.cookies.get('ATK')).toBeUndefined();
    const code = new URL(landed.location).searchParams.get('code') ?? '';
    expect(landed.location.startsWith(`${appUri}?code=`)).toBe(true);

    const redeem = (codeVerifier: string) =>
      server.app.inject({
        method: 'POST',
        url: '/v1/oauth2/token',
        payload: {
          grant_type: 'authorization_code',
          code,
          redirect_uri: appUri,
          code_verifier: codeVerifier,
        },
      });
    const wrong = await redeem(randomBytes(32).toString('base64url'));
    expect(wrong.statusCode).toBe(400);
    // A wrong verifier used the code up too.
    expect((await redeem(verifier)).statusCode).toBe(400);

    const again = await signInWithGoogle(
      'g-alice',
      `identity_provider=Google&redirect_uri=${encodeURIComponent(appUri)}&code_challenge=${challenge}&code_challenge_method=S256`,
    );
    const code2 = new URL(again.location).searchParams.get('code') ?? '';
    const ok = await server.app.inject({
      method: 'POST',
      url: '/v1/oauth2/token',
      payload: {
        grant_type: 'authorization_code',
        code: code2,
        redirect_uri: appUri,
        code_verifier: verifier,
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await whoAmI(ok.json<{ accesstoken: string }>().accesstoken)).toBe('alice@example.com');
  });

  it('signs in through Sign in with Apple: form_post return, ES256 client secret, "true" as the verified flag', async () => {
    apple.accounts.set('a-carol', {
      email: 'carol@example.com',
      email_verified: 'true',
      name: 'Carol Apple',
    });
    const begun = await start('identity_provider=SignInWithApple');
    const providerUrl = new URL(begun.location);
    expect(providerUrl.origin).toBe(apple.issuer);
    expect(providerUrl.searchParams.get('response_mode')).toBe('form_post');
    expect(providerUrl.searchParams.get('nonce')).toBeTruthy();
    const verifiedBefore = apple.apple?.verifiedSecrets ?? 0;

    const landed = await signInWithApple('a-carol');
    expect(landed.location).toBe(SOCIALAUTH);
    expect(await whoAmI(landed.cookies.get('ATK')?.value)).toBe('carol@example.com');
    // The stand-in checked the client secret JWT Fleetdeck built from team id, key id and key.
    expect(apple.apple?.verifiedSecrets).toBe(verifiedBefore + 1);
    expect(apple.apple?.refusedSecrets).toBe(0);
    const identity = await server.database.db
      .selectFrom('social_identities')
      .selectAll()
      .where('subject', '=', 'a-carol')
      .executeTakeFirstOrThrow();
    expect(identity).toMatchObject({ issuer: apple.issuer, provider_type: 'SignInWithApple' });
  });

  it('keeps an oversized form POST working through the URL, and ignores a stale carried cookie when the provider returns by GET', async () => {
    const long = await server.app.inject({
      method: 'POST',
      url: '/v1/oauth2/callback',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ state: 's', code: 'c', user: 'u'.repeat(3000) }).toString(),
    });
    expect(long.statusCode).toBe(303);
    expect(new URL(long.headers.location ?? '', PUBLIC_URL).searchParams.get('code')).toBe('c');
    expect(cookiesOf(long).has('fd_oauth_return')).toBe(false);

    // A Google return carries its own query: a left-over Apple cookie does not replace it.
    google.nextSubject = 'g-stale-cookie';
    google.accounts.set('g-stale-cookie', { email: 'stale@example.com', email_verified: true });
    const begun = await start('identity_provider=Google');
    const back = await followUntil(begun.location, CALLBACK);
    const stale = Buffer.from(JSON.stringify({ state: 'other', code: 'other' })).toString(
      'base64url',
    );
    const landed = await deliver(back, begun.state, `fd_oauth_return=${stale}`);
    expect(landed.location).toBe(SOCIALAUTH);
    expect(await whoAmI(landed.cookies.get('ATK')?.value)).toBe('stale@example.com');
  });

  // S7 attack: Apple says "false" for an address of an existing account. ASVS 6.8.1.
  it('never links an Apple identity whose e-mail Apple reports as "false" (unverified)', async () => {
    apple.accounts.set('a-root-unverified', { email: ADMIN_EMAIL, email_verified: 'false' });
    const refused = await signInWithApple('a-root-unverified');
    expectRefused(refused);
    expect(new URL(refused.location).searchParams.get('error_description')).toBe(
      SERVER_MESSAGES.socialEmailMissing,
    );
    const linked = await server.database.db
      .selectFrom('social_identities')
      .select('subject')
      .where('subject', '=', 'a-root-unverified')
      .executeTakeFirst();
    expect(linked).toBeUndefined();
  });

  it('is refused by Apple when the client secret is signed with a key that is not the team key', async () => {
    const otherKey = await startOidcPeer([CALLBACK], { apple: true });
    try {
      const edit = (privateKey: string | undefined) =>
        admin('PUT', '/v1/admin/identity_provider', {
          provider_type: 'SignInWithApple',
          client_id: apple.clientId,
          provider_name: 'SignInWithApple',
          team_id: apple.apple?.teamId,
          key_id: apple.apple?.keyId,
          private_key: privateKey,
          callback_urls: SOCIALAUTH,
          issuer: apple.issuer,
        });
      expect((await edit(otherKey.apple?.privateKeyPem)).statusCode).toBe(200);
      apple.accounts.set('a-dave', { email: 'dave@example.com', email_verified: 'true' });
      const refused = await signInWithApple('a-dave');
      expectRefused(refused);
      expect(apple.apple?.refusedSecrets).toBe(1);
      expect(await userExists('dave@example.com')).toBe(false);
      expect((await edit(apple.apple?.privateKeyPem)).statusCode).toBe(200);
      const landed = await signInWithApple('a-dave');
      expect(await whoAmI(landed.cookies.get('ATK')?.value)).toBe('dave@example.com');
    } finally {
      await otherKey.close();
    }
  });

  // S7 attack: the same subject from another issuer is another person. ASVS 6.8.1, 10.5.2.
  it('keys identities by issuer and subject: Alice’s Google subject at another provider is not Alice', async () => {
    apple.accounts.set('g-alice', { email: 'not-alice@example.com', email_verified: 'true' });
    const landed = await signInWithApple('g-alice');
    expect(await whoAmI(landed.cookies.get('ATK')?.value)).toBe('not-alice@example.com');
    const identities = await server.database.db
      .selectFrom('social_identities')
      .innerJoin('users', 'users.user_id', 'social_identities.user_id')
      .select(['social_identities.issuer', 'users.user_name'])
      .where('subject', '=', 'g-alice')
      .orderBy('users.user_name')
      .execute();
    expect(identities).toEqual([
      { issuer: google.issuer, user_name: 'alice@example.com' },
      { issuer: apple.issuer, user_name: 'not-alice@example.com' },
    ]);
    // Without an e-mail the other provider's "g-alice" gets nothing at all.
    apple.accounts.set('g-alice', {});
    await server.database.db
      .deleteFrom('social_identities')
      .where('issuer', '=', apple.issuer)
      .where('subject', '=', 'g-alice')
      .execute();
    expectRefused(await signInWithApple('g-alice'));
  });

  // S7 attack: a pending sign-in used after it expired. ASVS 10.1.2.
  it('refuses a callback after the pending sign-in expired', async () => {
    google.accounts.set('g-late', { email: 'late@example.com', email_verified: true });
    google.nextSubject = 'g-late';
    const begun = await start('identity_provider=Google');
    const back = await followUntil(begun.location, CALLBACK);
    await tamperPending(begun.state, { expires_at: nowSeconds() - 1 });
    const refused = await deliver(back, begun.state);
    expectRefused(refused);
    expect(new URL(refused.location).searchParams.get('error_description')).toBe(
      SERVER_MESSAGES.oauthStateInvalid,
    );
    expect(await userExists('late@example.com')).toBe(false);
  });

  // S7 attack: an attacker's authorisation code injected into a victim's sign-in (same state and
  // cookie as the victim's): the code is bound to the attacker's PKCE verifier. ASVS 10.2.1, 10.1.2.
  it('refuses a code from another sign-in, because its PKCE verifier does not match', async () => {
    google.accounts.set('g-attacker', { email: 'attacker@example.com', email_verified: true });
    google.nextSubject = 'g-attacker';
    const attacker = await start('identity_provider=Google');
    const attackerBack = new URL(await followUntil(attacker.location, CALLBACK));
    google.accounts.set('g-victim', { email: 'victim@example.com', email_verified: true });
    google.nextSubject = 'g-victim';
    const victim = await start('identity_provider=Google');
    const victimBack = new URL(await followUntil(victim.location, CALLBACK));
    victimBack.searchParams.set('code', attackerBack.searchParams.get('code') ?? '');
    const refused = await deliver(victimBack.toString(), victim.state);
    expectRefused(refused);
    expect(await userExists('attacker@example.com')).toBe(false);
  });

  // S7 attacks: the token request without the PKCE verifier, or with another one. ASVS 10.2.1.
  it('refuses the sign-in when the PKCE verifier is missing or wrong at the token exchange', async () => {
    google.accounts.set('g-pkce', { email: 'pkce@example.com', email_verified: true });
    for (const codeVerifier of [null, randomBytes(32).toString('base64url')]) {
      google.nextSubject = 'g-pkce';
      const begun = await start('identity_provider=Google');
      const back = await followUntil(begun.location, CALLBACK);
      await tamperPending(begun.state, { code_verifier: codeVerifier });
      const refused = await deliver(back, begun.state);
      expectRefused(refused);
      expect(new URL(refused.location).searchParams.get('error_description')).toBe(
        SERVER_MESSAGES.socialSignInFailed,
      );
    }
    expect(await userExists('pkce@example.com')).toBe(false);
  });

  it('accepts an ID token the harness re-signs unchanged with the provider key (the control case)', async () => {
    google.accounts.set('g-control', { email: 'control@example.com', email_verified: true });
    const landed = await signInWithSpoiledToken('g-control', { claims: (claims) => claims });
    expect(await whoAmI(landed.cookies.get('ATK')?.value)).toBe('control@example.com');
  });

  const spoiled: [string, IdTokenTamper][] = [
    // ASVS 6.8.2, 9.1.1: the signature is checked against the provider's published keys.
    ['signed by a key the provider never published', { foreignKey: true }],
    // ASVS 9.2.1: outside its validity time.
    [
      'expired an hour ago',
      {
        claims: (claims) => ({ ...claims, iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 }),
      },
    ],
    // ASVS 10.5.1: the nonce in the ID token is not this sign-in's.
    ['carrying another nonce', { claims: (claims) => ({ ...claims, nonce: 'another-nonce' }) }],
    // ASVS 10.5.4, 9.2.3: meant for another client.
    ['meant for another client', { claims: (claims) => ({ ...claims, aud: 'another-client' }) }],
    // ASVS 10.2.2, 10.5.3: issued in another issuer's name (mix-up).
    [
      'issued in another issuer’s name',
      { claims: (claims) => ({ ...claims, iss: 'https://accounts.google.com' }) },
    ],
  ];
  // S7 attacks: ID tokens that must not be believed.
  it.each(spoiled)('refuses an ID token %s', async (label, tamper) => {
    const email = `spoiled-${label.replace(/\W+/g, '-')}@example.com`.toLowerCase();
    google.accounts.set('g-spoiled', { email, email_verified: true });
    const refused = await signInWithSpoiledToken('g-spoiled', tamper);
    expectRefused(refused);
    expect(new URL(refused.location).searchParams.get('error_description')).toBe(
      SERVER_MESSAGES.socialSignInFailed,
    );
    expect(await userExists(email)).toBe(false);
  });

  // S7 attack: the provider's own error answer never signs anyone in. ASVS 10.1.2.
  it('refuses a callback that carries the provider’s error', async () => {
    google.nextSubject = 'g-alice';
    const begun = await start('identity_provider=Google');
    const back = new URL(await followUntil(begun.location, CALLBACK));
    back.searchParams.set('error', 'access_denied');
    expectRefused(await deliver(back.toString(), begun.state));
  });

  it('keeps a callback URL removed from the app client refused when the provider is edited again', async () => {
    const staging = `${PUBLIC_URL}/socialauth-staging`;
    const client = async () =>
      (await admin('GET', '/v1/admin/cognito_appclient')).json<AppClient[]>()[0];
    const authorizeTo = (redirect: string) =>
      server.app.inject({
        method: 'GET',
        url: `/v1/oauth2/authorize?identity_provider=Google&redirect_uri=${encodeURIComponent(redirect)}`,
      });
    const editGoogle = (secret: string) =>
      admin('PUT', '/v1/admin/identity_provider', {
        provider_type: 'Google',
        client_id: google.clientId,
        client_secret: secret,
        // The editor sends the provider's stored URLs back on every edit.
        callback_urls: [SOCIALAUTH, staging],
        issuer: google.issuer,
      });
    await setCallbackUrls([SOCIALAUTH]);
    // A URL new to the provider is added to the client.
    expect((await editGoogle(google.clientSecret)).statusCode).toBe(200);
    expect((await client())?.callback_urls).toEqual([SOCIALAUTH, staging]);
    expect((await authorizeTo(staging)).statusCode).toBe(302);

    // Removed in Cognito Configurations, together with GitHub; then the Google secret is rotated.
    await setCallbackUrls([SOCIALAUTH], ['Google', 'SignInWithApple']);
    const rotated = await editGoogle('GOCSPX-rotated-secret');
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(await client()).toMatchObject({
      callback_urls: [SOCIALAUTH],
      identity_providers: ['Google', 'SignInWithApple'],
    });
    const refused = await authorizeTo(staging);
    expect(refused.statusCode).toBe(400);
    expect(refused.headers.location).toBeUndefined();
    expect(refused.json<Failure>().description).toBe(SERVER_MESSAGES.redirectUriNotAllowed);
    // The GitHub provider, edited too, does not come back onto the client either.
    const gitHubEdit = await admin('PUT', '/v1/admin/identity_provider', {
      provider_type: 'GitHub',
      client_id: github.clientId,
      callback_urls: SOCIALAUTH,
      issuer: github.baseUrl,
    });
    expect(gitHubEdit.statusCode).toBe(200);
    expect((await client())?.identity_providers).toEqual(['Google', 'SignInWithApple']);

    expect((await editGoogle(google.clientSecret)).statusCode).toBe(200);
    expect((await authorizeTo(staging)).statusCode).toBe(400);
    await setCallbackUrls([SOCIALAUTH]);
  });
});

// ADR 12: customer mode hides social sign-in on the dashboard's login page, but the configured
// providers still sign end users in through the pool's app clients (their apps' callback URLs).
describe.each(DIALECTS)('social sign-in in customer mode on %s', (dialect) => {
  let server: TestServer;
  let token: string;
  let google: OidcPeer;
  const appUri = 'myapp://callback';

  const admin = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    server.app.inject({
      method,
      url,
      headers: { authorization: token },
      ...(payload ? { payload } : {}),
    });
  const authorize = (query: string) =>
    server.app.inject({ method: 'GET', url: `/v1/oauth2/authorize?${query}` });
  const loginPageProviders = async () =>
    (await server.app.inject({ method: 'GET', url: '/v1/deployment_info' })).json<{
      social_providers: string[];
    }>().social_providers;

  beforeAll(async () => {
    google = await startOidcPeer([CALLBACK]);
    server = await createTestServer(dialect, {
      env: { PUBLIC_URL, DEPLOYMENT_MODE: 'customer' },
    });
    token = (await apiLogin(server.app)).accesstoken;
    expect(
      (await admin('POST', '/v1/admin/cognito_domain', { domain_name: 'acme' })).statusCode,
    ).toBe(200);
  });
  afterAll(async () => {
    await server.close();
    await google.close();
  });

  it('refuses a provider that is not configured', async () => {
    const refused = await authorize('identity_provider=Google');
    expect(refused.statusCode).toBe(400);
    expect(refused.headers.location).toBeUndefined();
    expect(refused.json<Failure>().description).toBe(SERVER_MESSAGES.socialProviderUnavailable);
  });

  it('signs an end user in through a configured provider for an app client callback URL, while the login page lists none', async () => {
    const configured = await admin('POST', '/v1/admin/identity_provider', {
      provider_type: 'Google',
      client_id: google.clientId,
      client_secret: google.clientSecret,
      callback_urls: [SOCIALAUTH, appUri],
      issuer: google.issuer,
    });
    expect(configured.statusCode, configured.body).toBe(200);
    expect(await loginPageProviders()).toEqual([]);

    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    google.accounts.set('c-erin', { email: 'erin@example.com', email_verified: true });
    google.nextSubject = 'c-erin';
    const begun = await authorize(
      `identity_provider=Google&redirect_uri=${encodeURIComponent(appUri)}&code_challenge=${challenge}&code_challenge_method=S256`,
    );
    expect(begun.statusCode, begun.body).toBe(302);
    expect(new URL(begun.headers.location ?? '').origin).toBe(google.issuer);
    const state = cookiesOf(begun).get('fd_oauth_state')?.value ?? '';
    const back = new URL(await followUntil(begun.headers.location ?? '', CALLBACK));
    const landed = await server.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: `fd_oauth_state=${state}` },
    });
    expect(landed.statusCode).toBe(303);
    expect(landed.headers.location?.startsWith(`${appUri}?code=`)).toBe(true);
    const redeemed = await server.app.inject({
      method: 'POST',
      url: '/v1/oauth2/token',
      payload: {
        grant_type: 'authorization_code',
        code: new URL(landed.headers.location ?? '').searchParams.get('code'),
        redirect_uri: appUri,
        code_verifier: verifier,
      },
    });
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    const me = await server.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { authorization: redeemed.json<{ accesstoken: string }>().accesstoken },
    });
    expect(me.json<{ user_name: string }>().user_name).toBe('erin@example.com');
    expect(await loginPageProviders()).toEqual([]);
  });

  it('refuses a callback URL that is not on the app client and a provider hidden by "enabled"', async () => {
    const notAllowed = await authorize(
      `identity_provider=Google&redirect_uri=${encodeURIComponent('otherapp://callback')}`,
    );
    expect(notAllowed.statusCode).toBe(400);
    expect(notAllowed.json<Failure>().description).toBe(SERVER_MESSAGES.redirectUriNotAllowed);
    const disabled = await admin('PUT', '/v1/admin/identity_provider', {
      provider_type: 'Google',
      client_id: google.clientId,
      callback_urls: [SOCIALAUTH, appUri],
      issuer: google.issuer,
      enabled: false,
    });
    expect(disabled.statusCode).toBe(200);
    const refused = await authorize('identity_provider=Google');
    expect(refused.statusCode).toBe(400);
    expect(refused.headers.location).toBeUndefined();
  });
});
