import type { DestinationStream } from 'pino';
import { pino, type Logger } from 'pino';

/**
 * Query parameters whose values are secrets, never written to the log with the request's URL:
 * one-time codes (account deletion), the social sign-in's authorization code and state, a signed
 * blob URL's signature (a firmware download or upload needs nothing else), a phone's push token,
 * and the Apple sign-in's `user` (the person's name and address).
 */
const SECRET_QUERY_PARAMS = new Set([
  'verification_code',
  'code',
  'state',
  's',
  'mobile_device_token',
  'user',
]);

/** A request URL as the log shows it: the values of secret query parameters replaced. */
export function loggableUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const params = url
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      let name = pair.slice(0, equals);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A name that does not decode is kept as sent; its value is hidden below all the same.
        return `${pair.slice(0, equals)}=[redacted]`;
      }
      return SECRET_QUERY_PARAMS.has(name.toLowerCase())
        ? `${pair.slice(0, equals)}=[redacted]`
        : pair;
    });
  return `${url.slice(0, query)}?${params.join('&')}`;
}

/** What Fastify's request log records of a request (its own serializer, with the URL redacted). */
interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** The process logger: JSON lines on stdout (or `destination`), secrets redacted. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'fleetdeck' },
    serializers: {
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: typeof req.url === 'string' ? loggableUrl(req.url) : req.url,
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.password',
        '*.newpassword',
        '*.refreshtoken',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
export type { Logger };
