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
 * - `session`: needs one; a 401 ends the session (toast, logout, back to /login).
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

/** What the session layer plugs into the client (set once at start-up, see lib/session.ts). */
export interface ApiClientHooks {
  /** Awaited before every non-public call, so a due token refresh runs first. */
  beforeRequest: () => Promise<void>;
  /** Whether this browser believes it holds a session. */
  hasSession: () => boolean;
  /** Called on a session failure; must be idempotent (many calls can fail together). */
  onSessionLost: () => void;
}

let hooks: ApiClientHooks = {
  beforeRequest: () => Promise.resolve(),
  hasSession: () => false,
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

/**
 * Calls the Fleetdeck API on the same origin with the session cookies and the CSRF header.
 * Resolves with the parsed JSON body; rejects with an ApiError carrying the failure body.
 */
export async function apiRequest(path: string, options: RequestOptions = {}): Promise<unknown> {
  const { method = 'GET', body, session = 'session', signal } = options;
  if (session !== 'public') await hooks.beforeRequest();

  const headers: Record<string, string> = {
    Accept: 'application/json',
    [CSRF_HEADER]: CSRF_HEADER_VALUE,
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiError(NETWORK_ERROR_STATUS, MESSAGES.somethingWentWrong, null, { cause });
  }

  const payload = await readBody(response);
  if (response.ok && !isFailureBody(payload)) return payload;

  const error = toApiError(response.status, payload);
  if (isSessionFailure(error)) {
    const lost = session === 'session' || (session === 'probe' && hooks.hasSession());
    if (lost) hooks.onSessionLost();
  }
  throw error;
}

/** Like apiRequest, then checks the body against the contract schema. */
export async function apiJson<S extends z.ZodType>(
  path: string,
  schema: S,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  const payload = await apiRequest(path, options);
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    // The server broke the contract; show the generic message, keep the detail for developers.
    console.error(`Unexpected response from ${path}`, parsed.error.issues);
    throw new ApiError(502, MESSAGES.somethingWentWrong, null, { cause: parsed.error });
  }
  return parsed.data;
}
