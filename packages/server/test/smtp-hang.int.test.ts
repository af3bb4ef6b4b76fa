import type { AddressInfo } from 'node:net';
import { MESSAGES } from '@fleetdeck/contract';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { AppError } from '../src/errors.js';
import { MessagingService } from '../src/services/messaging/messaging.service.js';
import { SilentPeer } from './helpers/tcp-relay.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  apiLogin,
  createTestServer,
  type TestServer,
} from './helpers/test-server.js';
import { INVITED_ENGINEER } from './helpers/accounts.js';

/**
 * An SMTP host that accepts the connection and then says nothing, or stops answering after the
 * mail's final dot. An invite waits for SMTP inside the API request, so the request must fail in
 * seconds with the spec's message, not hang for nodemailer's 30 s greeting or 10 min of silence.
 */
describe('SMTP that hangs', () => {
  let server: TestServer;
  let silent: SilentPeer;
  let token: string;

  beforeAll(async () => {
    silent = new SilentPeer();
    await silent.open();
    server = await createTestServer('sqlite', {
      env: { SMTP_URL: `smtp://127.0.0.1:${silent.port}` },
    });
    token = (await apiLogin(server.app, ADMIN_EMAIL, ADMIN_PASSWORD)).accesstoken;
  });
  afterAll(async () => {
    await server?.close();
    await silent?.close();
  });

  it('fails an invite within the 10 s greeting wait when the host never greets', async () => {
    const started = Date.now();
    const response = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/user2',
      headers: { authorization: token },
      payload: INVITED_ENGINEER,
    });
    const elapsed = Date.now() - started;
    expect(silent.accepted).toBeGreaterThan(0);
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({
      status: 'failure',
      description: MESSAGES.mailDeliveryFailed,
    });
    expect(elapsed).toBeGreaterThanOrEqual(9_000);
    expect(elapsed).toBeLessThan(14_000);
    // nodemailer gives the socket up: nothing stays open behind the failed request.
    await expect.poll(() => silent.openConnections, { timeout: 2_000 }).toBe(0);
  }, 25_000);

  it('fails a send when the host stops answering after the mail data (the socket wait is applied)', async () => {
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream) {
        // Reads the mail and never answers the final dot.
        stream.resume();
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    const messaging = new MessagingService(server.database.db, createLogger('silent'), {
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'ops@fleetdeck.test',
      sendsPerHour: 10,
      smtpTimeouts: { connectionMs: 1_000, greetingMs: 1_000, socketMs: 1_000 },
    });
    try {
      const started = Date.now();
      const failure = await messaging
        .sendMail({ to: 'late@fleetdeck.test', subject: 's', text: 't', purpose: 'test' })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(failure).toBeInstanceOf(AppError);
      expect((failure as AppError).message).toBe(MESSAGES.mailDeliveryFailed);
      const [recorded] = await messaging.listOutbox(1, 'email');
      expect(recorded?.error).toMatch(/timeout/i);
    } finally {
      await messaging.close();
      await new Promise<void>((resolve) => smtp.close(resolve));
    }
  }, 15_000);
});
