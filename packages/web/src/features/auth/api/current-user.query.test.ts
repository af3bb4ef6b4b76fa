import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { fetchCurrentUser } from './current-user.query';

const USER = {
  user_id: 'u1',
  user_name: 'ops@example.com',
  email: 'ops@example.com',
  name: 'Ops',
  super_admin: true,
  admin: true,
  user_role: [],
  permissions: ['nodes.read'],
  email_user: true,
  mfa: false,
  deployment_mode: 'standard',
  session_expires_at: 4_102_444_800,
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('fetchCurrentUser (the session probe)', () => {
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    configureApiClient({ beforeRequest: () => undefined, hasSession: () => false });
  });

  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('sends GET /v1/user before the contract schemas have loaded, then checks the answer with them', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(json(200, USER)));
    const pending = fetchCurrentUser();
    // Nothing awaited yet: on a cold page load the schemas' chunk may still be downloading (B7).
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/v1/user');
    await expect(pending).resolves.toMatchObject({ user_id: 'u1', user_name: 'ops@example.com' });
  });

  it('answers null for a visitor without a session and rejects an answer that breaks the contract', async () => {
    await loadSchemas();
    fetchMock.mockImplementationOnce(() =>
      Promise.resolve(
        json(401, { status: 'failure', description: 'Unauthorized', error_code: 101 }),
      ),
    );
    await expect(fetchCurrentUser()).resolves.toBeNull();

    fetchMock.mockImplementationOnce(() => Promise.resolve(json(200, { user_id: 42 })));
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(fetchCurrentUser()).rejects.toMatchObject({ status: 502 });
    spy.mockRestore();
  });
});
