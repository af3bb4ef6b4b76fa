import { CSRF_HEADER, CSRF_HEADER_VALUE, MESSAGES } from '@fleetdeck/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, configureApiClient } from './api-client';
import { ApiError } from './api-error';

function reply(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

const failure = (description: string, code: number) => ({
  status: 'failure',
  description,
  error_code: code,
});

describe('apiRequest', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const onSessionLost = vi.fn();
  let hasSession = false;

  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    hasSession = false;
    configureApiClient({
      beforeRequest: () => Promise.resolve(),
      hasSession: () => hasSession,
      onSessionLost,
    });
  });

  afterEach(() => {
    fetchMock.mockReset();
    onSessionLost.mockReset();
    vi.unstubAllGlobals();
  });

  it('sends same-origin credentials, the CSRF header and a JSON body', async () => {
    fetchMock.mockResolvedValueOnce(reply(200, { status: 'success', description: 'ok' }));
    await expect(
      apiRequest('/v1/login', { method: 'POST', body: { user_name: 'a@b.co' }, session: 'public' }),
    ).resolves.toEqual({ status: 'success', description: 'ok' });

    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe('/v1/login');
    expect(init?.credentials).toBe('same-origin');
    expect(init?.method).toBe('POST');
    expect(init?.headers).toMatchObject({
      [CSRF_HEADER]: CSRF_HEADER_VALUE,
      'Content-Type': 'application/json',
    });
    expect(init?.body).toBe('{"user_name":"a@b.co"}');
  });

  it('turns a failure body into an ApiError with its description and code', async () => {
    fetchMock.mockResolvedValueOnce(reply(400, failure('Incorrect user name or password', 101009)));
    const error = await apiRequest('/v1/login', { method: 'POST', session: 'public' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      description: 'Incorrect user name or password',
      error_code: 101009,
    });
  });

  it('reports an unreachable server with the generic message', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(apiRequest('/v1/user')).rejects.toMatchObject({
      status: 0,
      description: MESSAGES.somethingWentWrong,
    });
  });

  it('ends the session on a 401 from a call that needs one', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(reply(401, failure('Unauthorized', 100046))),
    );
    await expect(apiRequest('/v1/admin/nodes')).rejects.toBeInstanceOf(ApiError);
    expect(onSessionLost).toHaveBeenCalledTimes(1);
  });

  it('treats a failed login as a failure, never as an expired session', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(reply(401, failure('Unauthorized', 100046))),
    );
    await expect(apiRequest('/v1/login', { method: 'POST', session: 'public' })).rejects.toThrow();
    expect(onSessionLost).not.toHaveBeenCalled();
  });

  it('lets a session probe fail quietly for a visitor who never signed in', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(reply(401, failure('Unauthorized', 100046))),
    );
    await expect(apiRequest('/v1/user', { session: 'probe' })).rejects.toMatchObject({
      status: 401,
    });
    expect(onSessionLost).not.toHaveBeenCalled();

    hasSession = true;
    await expect(apiRequest('/v1/user', { session: 'probe' })).rejects.toMatchObject({
      status: 401,
    });
    expect(onSessionLost).toHaveBeenCalledTimes(1);
  });

  it("sends the request in the caller's task when the session layer has nothing to wait for", async () => {
    configureApiClient({ beforeRequest: () => undefined });
    fetchMock.mockImplementation(() => Promise.resolve(reply(200, {})));
    const pending = apiRequest('/v1/admin/nodes?num_records=10');
    // Nothing awaited yet: the request is already out (a filter's key handler sends it before
    // the render, B8).
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await expect(pending).resolves.toEqual({});

    let release = () => undefined as void;
    configureApiClient({
      beforeRequest: () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    });
    const waiting = apiRequest('/v1/user');
    await Promise.resolve();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    release();
    await expect(waiting).resolves.toEqual({});
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('waits for the session layer before a call that needs a session', async () => {
    const order: string[] = [];
    configureApiClient({
      beforeRequest: () => {
        order.push('refresh');
        return Promise.resolve();
      },
    });
    fetchMock.mockImplementation(() => {
      order.push('fetch');
      return Promise.resolve(reply(200, {}));
    });
    await apiRequest('/v1/user');
    await apiRequest('/v1/deployment_info', { session: 'public' });
    expect(order).toEqual(['refresh', 'fetch', 'fetch']);
  });
});
