import { createHash, randomBytes } from 'node:crypto';
import { SERVER_MESSAGES, type AppClient } from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, hotp, totpStep } from '../src/services/auth/totp.js';

interface Failure {
  status: string;
  description: string;
}
import {
  followUntil,
  startGitHubPeer,
  startOidcPeer,
  type GitHubPeer,
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

describe.each(DIALECTS)('social sign-in on %s', (dialect) => {
  let server: TestServer;
  let token: string;
  let google: OidcPeer;
  let github: GitHubPeer;
  let clientId: string;

  const admin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    server.app.inject({
      method,
      url,
      headers: { authorization: token },
      ...(payload ? { payload } : {}),
    });

  const setCallbackUrls = async (urls: string[], providers = ['Google', 'GitHub']) => {
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
  const deliver = async (callbackUrl: string, stateCookie: string) => {
    const url = new URL(callbackUrl);
    const response = await server.app.inject({
      method: 'GET',
      url: `${url.pathname}${url.search}`,
      headers: { cookie: `fd_oauth_state=${stateCookie}` },
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

  const whoAmI = async (atk: string | undefined) => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { authorization: atk ?? '' },
    });
    return response.statusCode === 200 ? response.json<{ user_name: string }>().user_name : null;
  };

  beforeAll(async () => {
    [google, github] = await Promise.all([startOidcPeer([CALLBACK]), startGitHubPeer()]);
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
    clientId = (await admin('GET', '/v1/admin/cognito_appclient')).json<AppClient[]>()[0]
      ?.client_id as string;
  });
  afterAll(async () => {
    await server.close();
    await Promise.all([google.close(), github.close()]);
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

    // The same callback again: the state was single use.
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

  it('returns only to the exact callback URLs of the app client', async () => {
    for (const redirect of [
      'https://evil.example/socialauth',
      `${SOCIALAUTH}/`,
      `${SOCIALAUTH}?next=/x`,
      'http://fleetdeck.test.evil.example/socialauth',
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

    // Removed from the client: refused at the start, and also for a sign-in already under way.
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

  it('links to an existing account only when the provider verified the e-mail', async () => {
    google.accounts.set('g-root-unverified', { email: ADMIN_EMAIL, email_verified: false });
    const refused = await signInWithGoogle('g-root-unverified');
    expect(new URL(refused.location).searchParams.get('error_description')).toBe(
      SERVER_MESSAGES.socialEmailUnverified,
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
    expect(new URL(noAccount.location).searchParams.get('error_description')).toBe(
      SERVER_MESSAGES.socialEmailMissing,
    );

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
    expect(refused.location).toContain('error=access_denied');
    expect(refused.cookies.get('ATK')?.value ?? '').toBe('');
  });

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
});
