import { describe, expect, it } from 'vitest';
import { ApiClient, ApiError, ApiUnreachableError, type FetchLike } from './api-client.js';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

describe('API client', () => {
  it('sends the raw access token and signs in again once when it expired', async () => {
    const seen: string[] = [];
    let logins = 0;
    const fetchImpl: FetchLike = async (input, init) => {
      const headers = new Headers(init.headers);
      seen.push(`${init.method} ${new URL(input).pathname} ${headers.get('authorization') ?? '-'}`);
      if (input.endsWith('/v1/login')) {
        logins++;
        return json(200, {
          status: 'success',
          description: 'ok',
          accesstoken: `token-${logins}`,
          expires_in: 3600,
          expires_at: 0,
        });
      }
      if (headers.get('authorization') === 'token-1')
        return json(401, { status: 'failure', description: 'Unauthorized', error_code: 1 });
      return json(200, { user_id: 'u-7', user_name: 'a@b.co' });
    };
    const session = await new ApiClient('http://server/', fetchImpl).login('a@b.co', 'Pw123456');
    expect(await session.currentUserId()).toBe('u-7');
    expect(seen).toEqual([
      'POST /v1/login -',
      'GET /v1/user token-1',
      'POST /v1/login -',
      'GET /v1/user token-2',
    ]);
  });

  it('reports the failure description and status', async () => {
    const fetchImpl: FetchLike = async () =>
      json(401, {
        status: 'failure',
        description: 'Incorrect user name or password',
        error_code: 101,
      });
    const error = await new ApiClient('http://server', fetchImpl)
      .login('a@b.co', 'wrong-pass')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 401,
      description: 'Incorrect user name or password',
      errorCode: 101,
    });
  });

  it('tells an unreachable server apart from a refusal', async () => {
    const fetchImpl: FetchLike = async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
      });
    };
    const error = await new ApiClient('http://127.0.0.1:9', fetchImpl)
      .login('a@b.co', 'Pw123456')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiUnreachableError);
    expect((error as Error).message).toBe('cannot reach http://127.0.0.1:9/v1/login: ECONNREFUSED');
  });

  it('refuses an answer that does not match the contract', async () => {
    const fetchImpl: FetchLike = async () => json(200, { status: 'success' });
    await expect(
      new ApiClient('http://server', fetchImpl).login('a@b.co', 'Pw123456'),
    ).rejects.toThrow(/unexpected answer/);
  });
});
