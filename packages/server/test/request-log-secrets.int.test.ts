import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

/** Secrets a caller may have to send in a query string, each unlike anything else in a log. */
const SECRETS = {
  verificationCode: '734291',
  authorizationCode: 'AuthzCode-5e0b2c7d',
  state: 'State-91f3aa42',
  signature: 'Sig-0c4f9e1ab27d',
  pushToken: 'PushToken-77ad3f',
  appleUser: 'apple-person@example.com',
  invitationCode: '602817',
};

// ASVS 5.0 V14.2.1 (sensitive data in URLs), V16.2.5 (sensitive data not logged): the request log
// records each URL; one-time codes, signed URL signatures and push tokens travel in query strings.
describe.each(DIALECTS)('the request log keeps query-string secrets out on %s', (dialect) => {
  let server: TestServer;
  let lines: string[];

  beforeAll(async () => {
    lines = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    server = await createTestServer(dialect, { logger: createLogger('info', sink) });
  });

  afterAll(async () => {
    await server.close();
  });

  it('logs the path of each request but not the secrets in its query (ASVS 16.2.5)', async () => {
    const { accesstoken } = await apiLogin(server.app);
    const requests = [
      { method: 'DELETE', url: `/v1/user?verification_code=${SECRETS.verificationCode}` },
      {
        method: 'GET',
        url: `/v1/oauth2/callback?state=${SECRETS.state}&code=${SECRETS.authorizationCode}&user=${encodeURIComponent(SECRETS.appleUser)}`,
      },
      { method: 'GET', url: `/v1/blobs/images/x.bin?e=4102444800&s=${SECRETS.signature}&n=x.bin` },
      {
        method: 'DELETE',
        url: `/v1/user/push_notification/mobile_platform_endpoint?mobile_device_token=${SECRETS.pushToken}`,
      },
      // The invitation mail's link opens the set-password page with its one-time code.
      {
        method: 'GET',
        url: `/set-new-password?user_name=new%40example.com&code=${SECRETS.invitationCode}`,
      },
      // Percent-encoded and upper-case names are the same parameters.
      { method: 'GET', url: `/v1/oauth2/callback?%63ode=${SECRETS.authorizationCode}2&STATE=x` },
    ] as const;
    for (const request of requests) {
      await server.app.inject({ ...request, headers: { authorization: accesstoken } });
    }
    const log = lines.join('');
    for (const secret of Object.values(SECRETS)) {
      expect(log).not.toContain(secret);
      expect(log).not.toContain(encodeURIComponent(secret));
    }
    // The requests are still there to follow, with what is not secret.
    expect(log).toContain('/v1/user?verification_code=[redacted]');
    expect(log).toContain('/v1/blobs/images/x.bin?e=4102444800&s=[redacted]&n=x.bin');
    expect(log).toContain('/v1/oauth2/callback?state=[redacted]&code=[redacted]&user=[redacted]');
  });
});
