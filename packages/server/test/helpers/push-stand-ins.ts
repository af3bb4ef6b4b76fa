import { execFileSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync, verify, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import type { TLSSocket } from 'node:tls';
import path from 'node:path';

/** A self-signed certificate and its key, made with openssl (EC P-256). */
export function selfSignedCertificate(
  subject: string,
  extra: string[] = [],
): { cert: string; key: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-cert-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      subject,
      ...extra,
    ],
    { stdio: 'ignore' },
  );
  const result = { cert: fs.readFileSync(certFile, 'utf8'), key: fs.readFileSync(keyFile, 'utf8') };
  fs.rmSync(dir, { recursive: true, force: true });
  return result;
}

/** A Google service-account JSON with a fresh RSA key (FCM HTTP v1 credentials). */
export function serviceAccount(projectId = 'fleetdeck-test'): { json: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    json: JSON.stringify({
      type: 'service_account',
      project_id: projectId,
      client_email: `push@${projectId}.iam.gserviceaccount.com`,
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      token_uri: 'https://attacker.invalid/token',
    }),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export interface FcmMessage {
  projectId: string;
  bearer: string;
  body: {
    message: {
      token: string;
      notification: { title: string; body: string };
      data: Record<string, string>;
    };
  };
}

/**
 * Stands in for Google: `POST /token` checks the service account's RS256 JWT and issues an access
 * token; `POST /v1/projects/<id>/messages:send` needs that token, records the message and answers
 * 404 UNREGISTERED for tokens starting with `dead`.
 */
export async function startFcmStandIn(servicePublicKey: string) {
  const issued = new Set<string>();
  const messages: FcmMessage[] = [];
  const tokenRequests: Array<{ iss: string; aud: string; scope: string }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'POST' && req.url === '/token') {
        const form = new URLSearchParams(text);
        const [header = '', claims = '', signature = ''] = (form.get('assertion') ?? '').split('.');
        const valid = verify(
          'RSA-SHA256',
          Buffer.from(`${header}.${claims}`),
          createPublicKey(servicePublicKey),
          Buffer.from(signature, 'base64url'),
        );
        if (!valid || form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
          res.writeHead(400).end('{"error":"invalid_grant"}');
          return;
        }
        tokenRequests.push(
          JSON.parse(
            Buffer.from(claims, 'base64url').toString('utf8'),
          ) as (typeof tokenRequests)[number],
        );
        const token = `stand-in-${issued.size + 1}`;
        issued.add(token);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: token, expires_in: 3600, token_type: 'Bearer' }));
        return;
      }
      const match = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(req.url ?? '');
      if (req.method === 'POST' && match) {
        const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        if (!issued.has(bearer)) {
          res.writeHead(401).end('{"error":{"status":"UNAUTHENTICATED"}}');
          return;
        }
        const body = JSON.parse(text) as FcmMessage['body'];
        if (body.message.token.startsWith('dead')) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end('{"error":{"status":"NOT_FOUND","details":[{"errorCode":"UNREGISTERED"}]}}');
          return;
        }
        messages.push({ projectId: decodeURIComponent(match[1] ?? ''), bearer, body });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"name":"projects/fleetdeck-test/messages/1"}');
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    messages,
    tokenRequests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ApnsRequest {
  path: string;
  topic: string | undefined;
  pushType: string | undefined;
  clientFingerprint: string;
  body: { aps: { alert: { title: string; body: string } }; event_type?: string; node_id?: string };
}

/**
 * Stands in for APNs: HTTP/2 over TLS that demands a client certificate signed by (here: equal to)
 * the app's push certificate, records `POST /3/device/<token>` and answers 410 for `dead…` tokens.
 */
export async function startApnsStandIn(clientCertificate: string) {
  const serverCert = selfSignedCertificate('/CN=127.0.0.1', [
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);
  const requests: ApnsRequest[] = [];
  const server = http2.createSecureServer({
    key: serverCert.key,
    cert: serverCert.cert,
    ca: clientCertificate,
    requestCert: true,
    rejectUnauthorized: true,
  });
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const socket = stream.session?.socket as TLSSocket | undefined;
      const peer = socket?.getPeerCertificate();
      const requestPath = String(headers[':path']);
      const token = decodeURIComponent(requestPath.replace(/^\/3\/device\//, ''));
      if (headers[':method'] !== 'POST' || !requestPath.startsWith('/3/device/')) {
        stream.respond({ ':status': 404 });
        stream.end();
        return;
      }
      if (token.startsWith('dead')) {
        stream.respond({ ':status': 410, 'content-type': 'application/json' });
        stream.end('{"reason":"Unregistered"}');
        return;
      }
      requests.push({
        path: requestPath,
        topic: headers['apns-topic'] as string | undefined,
        pushType: headers['apns-push-type'] as string | undefined,
        clientFingerprint: peer?.fingerprint256 ?? '',
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ApnsRequest['body'],
      });
      stream.respond({ ':status': 200, 'apns-id': 'stand-in' });
      stream.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const caFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-apns-')), 'ca.pem');
  fs.writeFileSync(caFile, serverCert.cert);
  return {
    url: `https://127.0.0.1:${port}`,
    caFile,
    requests,
    clientFingerprint: new X509Certificate(clientCertificate).fingerprint256,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Sessions the sender keeps open would hold close() forever.
        setTimeout(resolve, 200).unref();
      }),
  };
}
