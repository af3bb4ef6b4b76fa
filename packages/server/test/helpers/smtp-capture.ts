import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { SmsProvider } from '../../src/services/messaging/messaging.service.js';

/** A mail as the SMTP peer received it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string | undefined;
  /** The authenticated SMTP user, when the client logged in. */
  user: string | undefined;
}

export interface SmtpCapture {
  /** `smtp://user:pass@127.0.0.1:<port>` for SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  /** Resolves with the first mail (received now or later) to `to` that matches. */
  waitForMail: (to: string, match?: (mail: ReceivedMail) => boolean) => Promise<ReceivedMail>;
  close: () => Promise<void>;
}

/** The first run of six digits in a text: the code a verification mail carries. */
export function codeIn(text: string): string {
  const found = /\b(\d{6})\b/.exec(text);
  if (!found?.[1]) throw new Error(`no 6-digit code in: ${text}`);
  return found[1];
}

/**
 * A real SMTP server (the `smtp-server` package) on a free port that requires a login and keeps
 * every mail it receives, parsed. Tests read codes from these mails, never from the database.
 */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const mails: ReceivedMail[] = [];
  const waiters: Array<{
    to: string;
    match: (mail: ReceivedMail) => boolean;
    resolve: (mail: ReceivedMail) => void;
  }> = [];
  const deliver = (mail: ReceivedMail) => {
    mails.push(mail);
    for (const waiter of [...waiters]) {
      if (mail.to.includes(waiter.to) && waiter.match(mail)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(mail);
      }
    }
  };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'fleetdeck' && auth.password === 'smtp-secret') {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          deliver({
            from: parsed.from?.text ?? '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : undefined,
            user: typeof session.user === 'string' ? session.user : undefined,
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://fleetdeck:smtp-secret@127.0.0.1:${port}`,
    mails,
    waitForMail: (to, match = () => true) => {
      const address = to.toLowerCase();
      const found = mails.find((mail) => mail.to.includes(address) && match(mail));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { to: address, match, resolve };
        waiters.push(waiter);
        setTimeout(() => {
          const index = waiters.indexOf(waiter);
          if (index >= 0) {
            waiters.splice(index, 1);
            reject(new Error(`no mail to ${address} within 10 s`));
          }
        }, 10_000).unref();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The stand-in for a paid SMS provider (the one kind of outside service tests may fake): it keeps
 * every text it is asked to send.
 */
export class RecordingSmsProvider implements SmsProvider {
  readonly name = 'test-sms';
  readonly sent: Array<{ to: string; text: string }> = [];

  send(to: string, text: string): Promise<void> {
    this.sent.push({ to, text });
    return Promise.resolve();
  }

  /** The newest text to a number. */
  lastTo(to: string): string | undefined {
    return [...this.sent].reverse().find((sms) => sms.to === to)?.text;
  }
}
