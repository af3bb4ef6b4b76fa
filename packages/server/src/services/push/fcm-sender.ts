import { createPrivateKey, sign } from 'node:crypto';
import type { FcmCredentials } from './push-credentials.js';
import type { PushDelivery, SendOutcome } from './push-sender.js';

const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const REQUEST_TIMEOUT_MS = 10_000;

export interface FcmSenderOptions {
  /** Base URL of the FCM API (https://fcm.googleapis.com; tests point at a stand-in). */
  apiUrl: string;
  /** Google's OAuth token endpoint (https://oauth2.googleapis.com/token). */
  tokenUrl: string;
  clock?: () => number;
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/**
 * FCM HTTP v1: a short-lived OAuth access token from the service account (a JWT signed with its
 * RSA key, exchanged at the token endpoint and cached until shortly before it expires), then
 * `POST /v1/projects/<id>/messages:send` with the token as bearer.
 */
export class FcmSender {
  private readonly tokens = new Map<string, { token: string; expiresAt: number }>();
  private readonly clock: () => number;

  constructor(private readonly options: FcmSenderOptions) {
    this.clock = options.clock ?? Date.now;
  }

  private async accessToken(account: FcmCredentials): Promise<string> {
    const cached = this.tokens.get(account.client_email);
    if (cached && cached.expiresAt > this.clock() + 60_000) return cached.token;
    const iat = Math.floor(this.clock() / 1000);
    const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
    const claims = base64url(
      JSON.stringify({
        iss: account.client_email,
        scope: FCM_SCOPE,
        aud: this.options.tokenUrl,
        iat,
        exp: iat + 3600,
      }),
    );
    const signature = sign(
      'RSA-SHA256',
      Buffer.from(`${header}.${claims}`),
      createPrivateKey(account.private_key),
    ).toString('base64url');
    const response = await fetch(this.options.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion: `${header}.${claims}.${signature}`,
      }).toString(),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (!response.ok) throw new TokenError(response.status, await response.text());
    const body = (await response.json()) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string') throw new TokenError(502, 'no access_token');
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in : 3600;
    this.tokens.set(account.client_email, {
      token: body.access_token,
      expiresAt: this.clock() + lifetime * 1000,
    });
    return body.access_token;
  }

  /** Sends one notification. */
  async send(delivery: PushDelivery): Promise<SendOutcome> {
    const account = delivery.credentials;
    if (account.kind !== 'fcm') return { result: 'failed', reason: 'not FCM credentials' };
    let bearer: string;
    try {
      bearer = await this.accessToken(account);
    } catch (error) {
      if (
        error instanceof TokenError &&
        error.status >= 400 &&
        error.status < 500 &&
        error.status !== 429
      )
        return { result: 'failed', reason: `OAuth token refused (${error.status})` };
      return { result: 'retry', reason: `OAuth token: ${String(error)}` };
    }
    const url = `${this.options.apiUrl}/v1/projects/${encodeURIComponent(account.project_id)}/messages:send`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          message: {
            token: delivery.deviceToken,
            notification: { title: delivery.message.title, body: delivery.message.body },
            data: delivery.message.data,
            android: { priority: 'high' },
          },
        }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      return { result: 'retry', reason: String(error) };
    }
    if (response.ok) {
      await response.body?.cancel();
      return { result: 'sent' };
    }
    const text = await response.text();
    if (response.status === 401) {
      // A revoked or expired token: fetch a new one on the retry.
      this.tokens.delete(account.client_email);
      return { result: 'retry', reason: 'FCM 401' };
    }
    if (response.status === 404 || text.includes('UNREGISTERED'))
      return { result: 'invalid_token', reason: `FCM ${response.status}` };
    if (response.status === 429 || response.status >= 500)
      return { result: 'retry', reason: `FCM ${response.status}` };
    return { result: 'failed', reason: `FCM ${response.status}: ${text.slice(0, 200)}` };
  }

  /** Nothing pooled beyond fetch's own agent. */
  async close(): Promise<void> {}
}

class TokenError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`token endpoint answered ${status}: ${detail.slice(0, 200)}`);
  }
}
