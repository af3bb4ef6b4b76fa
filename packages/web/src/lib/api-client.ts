import { CSRF_HEADER, CSRF_HEADER_VALUE, MESSAGES } from '@fleetdeck/contract';
import type { z } from 'zod';
import {
  ApiError,
  NETWORK_ERROR_STATUS,
  isFailureBody,
  isSessionFailure,
  toApiError,
} from './api-error';

/**
 * How a call relates to the session:
 * - `session`: needs one; a 401 ends the session (toast, logout, back to /login) unless a
 *   refresh brings it back, in which case the call is sent once more (see `recoverSession`).
 * - `probe`: asks whether there is one (GET /v1/user); a 401 ends the session only when this
 *   browser believed it had one, so a visitor who never signed in sees no "expired" toast.
 * - `public`: login, refresh, logout, deployment info; a 401 here is an ordinary failure.
 */
export type SessionMode = 'session' | 'probe' | 'public';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  session?: SessionMode;
  signal?: AbortSignal;
}

/**
 * What a refresh attempted after a 401 achieved: the session is back (send the call again), it
 * is gone (the server refused the refresh), or nobody knows (the refresh itself did not get
 * through, e.g. offline), in which case the call fails like a network error and nobody is
 * signed out.
 */
export type SessionRecovery = 'retry' | 'lost' | 'unknown';

/** What the session layer plugs into the client (set once at start-up, see lib/session.ts). */
export interface ApiClientHooks {
  /**
   * Before every non-public call: what it must wait for (a due token refresh), or undefined
   * when it may go out at once, without leaving the caller's task.
   */
  beforeRequest: () => Promise<void> | undefined;
  /** Whether this browser believes it holds a session. */
  hasSession: () => boolean;
  /**
   * Which access token a call goes out with (its stored expiry), taken just before sending, so
   * that a 401 can tell whether a refresh has happened since.
   */
  sessionStamp: () => number | null;
  /** Called once for a call refused with a 401 while this browser believed it had a session. */
  recoverSession: (stamp: number | null) => Promise<SessionRecovery>;
  /** Called on a session failure; must be idempotent (many calls can fail together). */
  onSessionLost: () => void;
}

let hooks: ApiClientHooks = {
  beforeRequest: () => undefined,
  hasSession: () => false,
  sessionStamp: () => null,
  recoverSession: () => Promise.resolve('lost'),
  onSessionLost: () => undefined,
};

/** Connects the client to the session layer. */
export function configureApiClient(next: Partial<ApiClientHooks>): void {
  hooks = { ...hooks, ...next };
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function networkError(cause: unknown): ApiError {
  return new ApiError(NETWORK_ERROR_STATUS, MESSAGES.somethingWentWrong, null, { cause });
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const { method = 'GET', body, signal } = options;
  const headers: Record<string, string> = {
    Accept: 'application/json',
    [CSRF_HEADER]: CSRF_HEADER_VALUE,
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  try {
    return await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw networkError(cause);
  }
}

/**
 * Calls the Fleetdeck API on the same origin with the session cookies and the CSRF header.
 * Resolves with the parsed JSON body; rejects with an ApiError carrying the failure body.
 *
 * A 401 to a call made with a session is not taken as the end of it straight away: the access
 * token may simply have run out while the tab slept or the clock drifted (QUALITY R11, "no
 * spurious logout"). The session layer refreshes once and the call goes out again; only a
 * refused refresh, or a second 401, ends the session. The server checks the token before it does
 * anything, so a refused call changed nothing and is safe to send again.
 */
export async function apiRequest(path: string, options: RequestOptions = {}): Promise<unknown> {
  const { session = 'session' } = options;
  // Awaited only when there is something to wait for: otherwise the request is sent before this
  // function first yields, i.e. in the caller's task.
  const wait = session === 'public' ? undefined : hooks.beforeRequest();
  if (wait) await wait;

  for (let attempt = 0; ; attempt += 1) {
    const stamp = hooks.sessionStamp();
    const response = await send(path, options);
    const payload = await readBody(response);
    if (response.ok && !isFailureBody(payload)) return payload;

    const error = toApiError(response.status, payload);
    if (!isSessionFailure(error)) throw error;
    const hadSession = session === 'session' || (session === 'probe' && hooks.hasSession());
    if (!hadSession) throw error;
    if (attempt === 0 && hooks.hasSession()) {
      const recovery = await hooks.recoverSession(stamp);
      if (recovery === 'retry') continue;
      if (recovery === 'unknown') throw networkError(error);
    }
    hooks.onSessionLost();
    throw error;
  }
}

/** Like apiRequest, then checks the body against the contract schema. */
export async function apiJson<S extends z.ZodType>(
  path: string,
  schema: S,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  return checkContract(path, schema, await apiRequest(path, options));
}

/** Checks an answer of `path` against its contract schema; a mismatch is a generic failure. */
export function checkContract<S extends z.ZodType>(
  path: string,
  schema: S,
  payload: unknown,
): z.output<S> {
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    // The server broke the contract; show the generic message, keep the detail for developers.
    console.error(`Unexpected response from ${path}`, parsed.error.issues);
    throw new ApiError(502, MESSAGES.somethingWentWrong, null, { cause: parsed.error });
  }
  return parsed.data;
}
