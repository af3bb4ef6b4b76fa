import net from 'node:net';
import { ERROR_CODES, SERVER_MESSAGES } from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

// Bad input of every kind gets the failure body with a description that says what is wrong
// (found by the API audit of 2026-11-28): URLs that do not decode, requests the HTTP parser
// refuses, zod's generic messages without the field's name, text that is not valid Unicode and
// compressed bodies.

/** Sends raw bytes to the server and reads everything it answers until it closes. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => {
      socket.destroy();
      reject(new Error(`no answer to ${JSON.stringify(request.slice(0, 60))}`));
    });
  });
}

/** The status line's code and the JSON body of a raw HTTP answer. */
function parseAnswer(answer: string): { status: number; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body) as unknown };
}

describe.each(DIALECTS)('bad input on %s', (dialect) => {
  let server: TestServer;
  let token: string;
  let port: number;

  beforeAll(async () => {
    server = await createTestServer(dialect);
    token = (await apiLogin(server.app)).accesstoken;
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const address = server.app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    await server?.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    server.app.inject({
      method,
      url,
      headers: { authorization: token },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it('answers a URL that does not decode with the failure body, without echoing it', async () => {
    for (const url of ['/v1/terms_policy/%ZZ', '/v1/admin/%ZZ', '/v1/admin/node_group%ZZ']) {
      const response = await server.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({
        status: 'failure',
        description: SERVER_MESSAGES.invalidUrl,
        error_code: ERROR_CODES.invalidQueryParam,
      });
    }
  });

  it('answers requests the HTTP parser refuses with the failure body and closes', async () => {
    const badHttp = {
      status: 'failure',
      description: SERVER_MESSAGES.badHttpRequest,
      error_code: ERROR_CODES.invalidRequestBody,
    };
    for (const request of [
      'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n',
      'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n',
      'POST /v1/login2 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n',
    ]) {
      const answer = parseAnswer(await rawExchange(port, request));
      expect(answer, request).toEqual({ status: 400, body: badHttp });
    }
    const huge = `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
    expect(parseAnswer(await rawExchange(port, huge))).toEqual({
      status: 431,
      body: { ...badHttp, description: SERVER_MESSAGES.headersTooLarge },
    });
    // The server still answers normally afterwards.
    const healthy = await rawExchange(
      port,
      'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(healthy.split(' ')[1]).toBe('200');
  });

  it("names the field in zod's generic messages and keeps the schemas' own", async () => {
    const description = async (
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      url: string,
      payload?: unknown,
    ) => {
      const response = await call(method, url, payload);
      expect(response.statusCode, url).toBe(400);
      const body = response.json<{ status: string; description: string }>();
      expect(body.status).toBe('failure');
      return body.description;
    };
    expect(await description('DELETE', '/v1/admin/node_group')).toBe('group_id is missing');
    expect(await description('DELETE', '/v1/admin/node_group?group_id=a&group_id=b')).toBe(
      'group_id may be given only once',
    );
    expect(await description('PUT', '/v1/admin/otajob', {})).toBe('ota_job_id is missing');
    expect(
      await description('POST', '/v1/admin/otajob', { ota_job_name: 'j', nodes: ['N1'] }),
    ).toBe('ota_image_id is missing');
    expect(
      await description('POST', '/v1/admin/otajob', {
        ota_job_name: 'j',
        ota_image_id: 'img',
        nodes: { one: 'N1' },
      }),
    ).toBe('nodes: Invalid input: expected array, received object');
    // A schema's own text is shown as it is written.
    expect(await description('DELETE', '/v1/admin/node_group?group_id=')).toBe(
      'Group id is missing',
    );
    expect(
      await description('POST', '/v1/admin/otajob', {
        ota_job_name: 'j',
        ota_image_id: 'bad id!',
        nodes: ['N1'],
      }),
    ).toBe(SERVER_MESSAGES.invalidId);
    expect(
      await description('POST', '/v1/admin/otajob', {
        ota_job_name: 'j'.repeat(65),
        ota_image_id: 'img',
        nodes: ['N1'],
      }),
    ).toBe(SERVER_MESSAGES.jobNameTooLong);
  });

  const groupCount = async () => {
    // No group yet is a 404 with the spec's 'Please create a Node Group'.
    const response = await call('GET', '/v1/admin/node_group');
    return response.statusCode === 404 ? 0 : response.json<{ total: number }>().total;
  };

  it('refuses text that is not valid Unicode and stores nothing', async () => {
    const before = await groupCount();
    const response = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/node_group',
      headers: { authorization: token, 'content-type': 'application/json' },
      payload: '{"group_name":"lone\\ud800x"}',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      status: 'failure',
      description: SERVER_MESSAGES.loneSurrogate,
      error_code: ERROR_CODES.invalidRequestBody,
    });
    // A pair of surrogates is an ordinary character.
    const emoji = await call('POST', '/v1/admin/node_group', { group_name: 'Fridges 😀' });
    expect(emoji.statusCode).toBe(200);
    expect(await groupCount()).toBe(before + 1);
  });

  it('refuses compressed request bodies with 415 and stores nothing', async () => {
    const before = await groupCount();
    for (const encoding of ['br', 'gzip']) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/v1/admin/node_group',
        headers: {
          authorization: token,
          'content-type': 'application/json',
          'content-encoding': encoding,
        },
        payload: JSON.stringify({ group_name: `Compressed ${encoding}` }),
      });
      expect(response.statusCode, encoding).toBe(415);
      expect(response.json()).toEqual({
        status: 'failure',
        description: SERVER_MESSAGES.contentEncodingUnsupported,
        error_code: ERROR_CODES.invalidRequestBody,
      });
    }
    const identity = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/node_group',
      headers: {
        authorization: token,
        'content-type': 'application/json',
        'content-encoding': 'identity',
      },
      payload: JSON.stringify({ group_name: 'Plain body' }),
    });
    expect(identity.statusCode).toBe(200);
    expect(await groupCount()).toBe(before + 1);
  });
});
