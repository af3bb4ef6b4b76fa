import { createHash } from 'node:crypto';
import http2, { type ClientHttp2Session } from 'node:http2';
import type { PushDelivery, SendOutcome } from './push-sender.js';

const REQUEST_TIMEOUT_MS = 10_000;
/** How long close() lets sessions end their streams before it destroys them. */
const CLOSE_GRACE_MS = 2_000;

export interface ApnsSenderOptions {
  /** https://api.push.apple.com (tests point at a local HTTP/2 stand-in). */
  productionUrl: string;
  /** https://api.sandbox.push.apple.com. */
  sandboxUrl: string;
  /** Extra trusted CA certificates (PEM), for stand-ins with their own certificate. */
  ca?: string | undefined;
  /** How long one notification may go unanswered (10 s; tests shorten it). */
  requestTimeoutMs?: number;
}

/**
 * APNs over HTTP/2 with certificate authentication: one pooled TLS session per platform and
 * credential (the client certificate identifies the app), `POST /3/device/<token>`.
 */
export class ApnsSender {
  private readonly sessions = new Map<string, ClientHttp2Session>();

  constructor(private readonly options: ApnsSenderOptions) {}

  private session(delivery: PushDelivery): ClientHttp2Session {
    const credentials = delivery.credentials;
    if (credentials.kind !== 'apns') throw new Error('not APNs credentials');
    const origin =
      delivery.platform === 'APNS' ? this.options.productionUrl : this.options.sandboxUrl;
    const key = `${origin}|${createHash('sha256').update(credentials.certificate).digest('hex')}`;
    const existing = this.sessions.get(key);
    if (existing && !existing.closed && !existing.destroyed) return existing;
    const session = http2.connect(origin, {
      cert: credentials.certificate,
      key: credentials.private_key,
      ...(this.options.ca ? { ca: this.options.ca } : {}),
    });
    session.on('error', () => this.sessions.delete(key));
    session.on('close', () => this.sessions.delete(key));
    // Idle sessions do not keep the process alive.
    session.unref();
    this.sessions.set(key, session);
    return session;
  }

  /** Sends one notification. */
  send(delivery: PushDelivery): Promise<SendOutcome> {
    const credentials = delivery.credentials;
    if (credentials.kind !== 'apns')
      return Promise.resolve({ result: 'failed', reason: 'not APNs credentials' });
    return new Promise<SendOutcome>((resolve) => {
      let session: ClientHttp2Session;
      try {
        session = this.session(delivery);
      } catch (error) {
        resolve({ result: 'retry', reason: String(error) });
        return;
      }
      const headers: http2.OutgoingHttpHeaders = {
        ':method': 'POST',
        ':path': `/3/device/${encodeURIComponent(delivery.deviceToken)}`,
        'content-type': 'application/json',
        'apns-push-type': 'alert',
        'apns-priority': '10',
      };
      if (credentials.topic) headers['apns-topic'] = credentials.topic;
      const request = session.request(headers);
      request.setTimeout(this.options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS, () => {
        request.close(http2.constants.NGHTTP2_CANCEL);
        // A session that let a request go unanswered (one stuck in its TLS handshake with a host
        // that accepted and went silent) is not used again: the retry connects anew. Before, it
        // was kept, and every later notification timed out on it for good.
        session.destroy();
        resolve({ result: 'retry', reason: 'APNs timeout' });
      });
      let status = 0;
      const chunks: Buffer[] = [];
      request.on('response', (responseHeaders) => {
        status = Number(responseHeaders[':status']);
      });
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('error', (error) => resolve({ result: 'retry', reason: String(error) }));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (status === 200) resolve({ result: 'sent' });
        else if (status === 410 || text.includes('BadDeviceToken') || text.includes('Unregistered'))
          resolve({ result: 'invalid_token', reason: `APNs ${status} ${text}` });
        else if (status === 429 || status >= 500)
          resolve({ result: 'retry', reason: `APNs ${status} ${text}` });
        else resolve({ result: 'failed', reason: `APNs ${status} ${text.slice(0, 200)}` });
      });
      request.end(
        JSON.stringify({
          aps: {
            alert: { title: delivery.message.title, body: delivery.message.body },
            sound: 'default',
          },
          ...delivery.message.data,
        }),
      );
    });
  }

  /**
   * Closes every pooled session, destroying those that have not ended within 2 s: a session that
   * never connected never ends by itself, and this runs in the shutdown (app.close() waited on it
   * for good, until the shutdown deadline ended the process with exit 1).
   */
  async close(): Promise<void> {
    const closing = [...this.sessions.values()].map(
      (session) =>
        new Promise<void>((resolve) => {
          // Node emits no 'close' for a session destroyed before it connected: resolve here.
          const timer = setTimeout(() => {
            session.destroy();
            resolve();
          }, CLOSE_GRACE_MS);
          session.close(() => {
            clearTimeout(timer);
            resolve();
          });
        }),
    );
    this.sessions.clear();
    await Promise.all(closing);
  }
}
