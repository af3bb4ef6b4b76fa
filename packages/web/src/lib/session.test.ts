import { API_PATHS, MESSAGES } from '@fleetdeck/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSION_EXPIRY_STORAGE_KEY } from './session-storage';

/**
 * Two browser tabs are two instances of the session module sharing one localStorage and one
 * Web Locks manager; vi.resetModules() gives each "tab" its own instance.
 */

class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

/** A minimal exclusive Web Lock: callbacks for one name run one after another. */
function createLockManager() {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    request<T>(_name: string, callback: () => Promise<T>): Promise<T> {
      const run = tail.then(() => callback());
      tail = run.catch(() => undefined);
      return run;
    },
  };
}

type Listener = (event: { key: string | null }) => void;

const nowSeconds = () => Math.floor(Date.now() / 1000);

function reply(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status });
}

async function openTab(callbacks = { onExpired: vi.fn(), onSignedOutElsewhere: vi.fn() }) {
  vi.resetModules();
  const session = await import('./session');
  const client = await import('./api-client');
  session.startSessionKeeper(callbacks);
  return { session, client, callbacks };
}

describe('session keeper', () => {
  let storage: MemoryStorage;
  let listeners: Listener[];
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    storage = new MemoryStorage();
    listeners = [];
    vi.stubGlobal('window', {
      localStorage: storage,
      addEventListener: (type: string, listener: Listener) => {
        if (type === 'storage') listeners.push(listener);
      },
    });
    vi.stubGlobal('navigator', { locks: createLockManager() });
    vi.stubGlobal('fetch', fetchMock);
  });

  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('lets only one of two tabs refresh the same token', async () => {
    const dueSoon = nowSeconds() + 60;
    storage.setItem(SESSION_EXPIRY_STORAGE_KEY, String(dueSoon));
    const renewed = nowSeconds() + 3600;
    fetchMock.mockImplementation(() =>
      Promise.resolve(reply(200, { status: 'success', description: 'ok', expires_at: renewed })),
    );

    const tabA = await openTab();
    const tabB = await openTab();
    await Promise.all([tabA.session.refreshSession(), tabB.session.refreshSession()]);

    const refreshCalls = fetchMock.mock.calls.filter(([path]) => path === API_PATHS.sessionRefresh);
    expect(refreshCalls).toHaveLength(1);
    expect(storage.getItem(SESSION_EXPIRY_STORAGE_KEY)).toBe(String(renewed));
  });

  it('shares one refresh between the calls of one tab', async () => {
    storage.setItem(SESSION_EXPIRY_STORAGE_KEY, String(nowSeconds() + 30));
    fetchMock.mockImplementation(() =>
      Promise.resolve(
        reply(200, { status: 'success', description: 'ok', expires_at: nowSeconds() + 3600 }),
      ),
    );
    const tab = await openTab();
    await Promise.all([tab.session.refreshSession(), tab.session.refreshSession()]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('refreshes a spent token before sending a request', async () => {
    storage.setItem(SESSION_EXPIRY_STORAGE_KEY, String(nowSeconds() - 10));
    fetchMock.mockImplementation((input) =>
      Promise.resolve(
        input === API_PATHS.sessionRefresh
          ? reply(200, { status: 'success', description: 'ok', expires_at: nowSeconds() + 3600 })
          : reply(200, { ok: true }),
      ),
    );
    const tab = await openTab();
    await tab.client.apiRequest('/v1/admin/nodes');
    expect(fetchMock.mock.calls.map(([path]) => path)).toEqual([
      API_PATHS.sessionRefresh,
      '/v1/admin/nodes',
    ]);
  });

  it('runs the expiry handling once when many calls fail together', async () => {
    storage.setItem(SESSION_EXPIRY_STORAGE_KEY, String(nowSeconds() + 3600));
    fetchMock.mockImplementation(() =>
      Promise.resolve(
        reply(401, { status: 'failure', description: 'Unauthorized', error_code: 1 }),
      ),
    );
    const tab = await openTab();
    const calls = ['/v1/a', '/v1/b', '/v1/c'].map((path) =>
      tab.client.apiRequest(path).catch(() => undefined),
    );
    await Promise.all([
      ...calls,
      tab.client.apiRequest('/v1/user', { session: 'probe' }).catch(() => undefined),
    ]);

    expect(tab.callbacks.onExpired).toHaveBeenCalledTimes(1);
    expect(storage.getItem(SESSION_EXPIRY_STORAGE_KEY)).toBeNull();
  });

  describe('a 401 to a call while the session should still live (QUALITY R11)', () => {
    const unauthorized = () =>
      reply(401, { status: 'failure', description: 'Unauthorized', error_code: 100046 });
    const renewed = () =>
      reply(200, { status: 'success', description: 'ok', expires_at: nowSeconds() + 7200 });

    it('refreshes once and sends the call again, without signing out', async () => {
      storage.setItem(SESSION_EXPIRY_STORAGE_KEY, String(nowSeconds() + 3600));
      let calls = 0;
      fetchMock.mockImplementation((input) => {
        if (input === API_PATHS.sessionRefresh) return Promise.resolve(renewed());
        calls += 1;
        return Promise.resolve(calls === 1 ? unauthorized() : reply(200, { saved: true }));
      });
      const tab = await openTab();
      await expect(
        tab.client.apiRequest('/v1/admin/node_group', { method: 'POST', body: { n: 1 } }),
      ).resolves.toEqual({ saved: true });
      expect(fetchMock.mock.calls.map(([path]) => path)).toEqual([
        '/v1/admin/node_group',
        API_PATHS.sessionRefresh,
        '/v1/admin/node_group',
      ]);
      expect(fetchMock.mock.calls[2]?.[1]?.body).toBe('{"n":1}');
      expect(tab.callbacks.onExpired).not.toHaveBeenCalled();
    });

    it('shares one refresh between the calls refused together', async () => {
      storage.setItem(SESSION_EXPIRY_STORAGE_KEY, String(nowSeconds() + 3600));
      const refused = new Set<string>();
      fetchMock.mockImplementation((input) => {
        const path = input as string;
        if (path === API_PATHS.sessionRefresh) return Promise.resolve(renewed());
        if (refused.has(path)) return Promise.resolve(reply(200, { path }));
        refused.add(path);
        return Promise.resolve(unauthorized());
      });
      const tab = await openTab();
      const answers = await Promise.all(
        ['/v1/a', '/v1/b', '/v1/c'].map((path) => tab.client.apiRequest(path)),
      );
      expect(answers).toEqual([{ path: '/v1/a' }, { path: '/v1/b' }, { path: '/v1/c' }]);
      const refreshes = fetchMock.mock.calls.filter(([path]) => path === API_PATHS.sessionRefresh);
      expect(refreshes).toHaveLength(1);
      expect(tab.callbacks.onExpired).not.toHaveBeenCalled();
    });

    it('sends the call again without refreshing when another tab refreshed meanwhile', async () => {
      storage.setItem(SESSION_EXPIRY_STORAGE_KEY, String(nowSeconds() + 3600));
      let calls = 0;
      fetchMock.mockImplementation(() => {
        calls += 1;
        if (calls > 1) return Promise.resolve(reply(200, { ok: true }));
        // The other tab rotates the token while this call is on its way.
        storage.setItem(SESSION_EXPIRY_STORAGE_KEY, String(nowSeconds() + 7200));
        return Promise.resolve(unauthorized());
      });
      const tab = await openTab();
      await expect(tab.client.apiRequest('/v1/a')).resolves.toEqual({ ok: true });
      expect(fetchMock.mock.calls.map(([path]) => path)).toEqual(['/v1/a', '/v1/a']);
    });

    it('ends the session when the call is refused again after the refresh', async () => {
      storage.setItem(SESSION_EXPIRY_STORAGE_KEY, String(nowSeconds() + 3600));
      fetchMock.mockImplementation((input) =>
        Promise.resolve(input === API_PATHS.sessionRefresh ? renewed() : unauthorized()),
      );
      const tab = await openTab();
      await expect(tab.client.apiRequest('/v1/a')).rejects.toMatchObject({ status: 401 });
      expect(fetchMock).toHaveBeenCalledTimes(3);
      expect(tab.callbacks.onExpired).toHaveBeenCalledTimes(1);
      expect(storage.getItem(SESSION_EXPIRY_STORAGE_KEY)).toBeNull();
    });

    it('ends the session when the refresh is refused', async () => {
      storage.setItem(SESSION_EXPIRY_STORAGE_KEY, String(nowSeconds() + 3600));
      fetchMock.mockImplementation(() => Promise.resolve(unauthorized()));
      const tab = await openTab();
      await expect(tab.client.apiRequest('/v1/a')).rejects.toMatchObject({ status: 401 });
      expect(fetchMock.mock.calls.map(([path]) => path)).toEqual([
        '/v1/a',
        API_PATHS.sessionRefresh,
      ]);
      expect(tab.callbacks.onExpired).toHaveBeenCalledTimes(1);
    });

    it('keeps the session when the refresh cannot get through (offline)', async () => {
      const expiresAt = nowSeconds() + 3600;
      storage.setItem(SESSION_EXPIRY_STORAGE_KEY, String(expiresAt));
      fetchMock.mockImplementation((input) =>
        input === API_PATHS.sessionRefresh
          ? Promise.reject(new TypeError('Failed to fetch'))
          : Promise.resolve(unauthorized()),
      );
      const tab = await openTab();
      await expect(tab.client.apiRequest('/v1/a')).rejects.toMatchObject({
        status: 0,
        description: MESSAGES.somethingWentWrong,
      });
      expect(tab.callbacks.onExpired).not.toHaveBeenCalled();
      expect(storage.getItem(SESSION_EXPIRY_STORAGE_KEY)).toBe(String(expiresAt));
    });
  });

  it('ends the session when the refresh itself is refused', async () => {
    storage.setItem(SESSION_EXPIRY_STORAGE_KEY, String(nowSeconds() + 30));
    fetchMock.mockResolvedValue(
      reply(401, { status: 'failure', description: 'Refresh token failed', error_code: 101017 }),
    );
    const tab = await openTab();
    await tab.session.refreshSession();
    expect(tab.callbacks.onExpired).toHaveBeenCalledTimes(1);
  });

  it('keeps the session after a refresh that failed for another reason', async () => {
    const expiresAt = nowSeconds() + 30;
    storage.setItem(SESSION_EXPIRY_STORAGE_KEY, String(expiresAt));
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const tab = await openTab();
    await tab.session.refreshSession();
    expect(tab.callbacks.onExpired).not.toHaveBeenCalled();
    expect(storage.getItem(SESSION_EXPIRY_STORAGE_KEY)).toBe(String(expiresAt));
  });

  it('does not report an expired session after the user signed out', async () => {
    storage.setItem(SESSION_EXPIRY_STORAGE_KEY, String(nowSeconds() + 3600));
    fetchMock.mockImplementation(() =>
      Promise.resolve(reply(401, { status: 'failure', description: 'x', error_code: 1 })),
    );
    const tab = await openTab();
    tab.session.markSignedOut();
    await tab.client.apiRequest('/v1/a').catch(() => undefined);
    expect(tab.callbacks.onExpired).not.toHaveBeenCalled();
  });

  it('follows another tab that signed out, once', async () => {
    storage.setItem(SESSION_EXPIRY_STORAGE_KEY, String(nowSeconds() + 3600));
    const tab = await openTab();
    storage.removeItem(SESSION_EXPIRY_STORAGE_KEY);
    for (const listener of listeners) listener({ key: SESSION_EXPIRY_STORAGE_KEY });
    for (const listener of listeners) listener({ key: SESSION_EXPIRY_STORAGE_KEY });
    expect(tab.callbacks.onSignedOutElsewhere).toHaveBeenCalledTimes(1);
    expect(tab.callbacks.onExpired).not.toHaveBeenCalled();
  });

  it('stores the expiry of a new session and forgets it on sign-out', async () => {
    const tab = await openTab();
    tab.session.markSignedIn(nowSeconds() + 3600);
    expect(tab.session.hasStoredSession()).toBe(true);
    tab.session.markSignedOut();
    expect(tab.session.hasStoredSession()).toBe(false);
    expect(MESSAGES.sessionExpired).toBe('Session expired. Please login again!');
  });
});
