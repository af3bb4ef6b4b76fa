import { pino, type Logger } from 'pino';

/** The process logger: JSON lines on stdout, secrets redacted. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'fleetdeck' },
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
  });
}
export type { Logger };
