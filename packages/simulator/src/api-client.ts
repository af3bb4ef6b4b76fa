import {
  API_PATHS,
  CreateUserResponseSchema,
  CurrentUserSchema,
  FailureBodySchema,
  LoginResponseSchema,
  OTA_PATHS,
  RegisterNodesResponseSchema,
  SigningKeySchema,
  UserNodeMappingResponseSchema,
  UserNodeMappingStatusSchema,
  type NodeRegistration,
} from '@fleetdeck/contract';
import type { z } from 'zod';

/** The `fetch` the client uses (injectable for tests). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** An HTTP answer that was not a success, with the server's description when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly description: string,
    readonly errorCode: number | undefined,
  ) {
    super(`${method} ${path} answered ${status}: ${description}`);
    this.name = 'ApiError';
  }
}

/** The server could not be reached at all (refused, reset, timed out). */
export class ApiUnreachableError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`cannot reach ${url}: ${describeCause(cause)}`);
    this.name = 'ApiUnreachableError';
  }
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // fetch() fails with "fetch failed"; the reason (ECONNREFUSED, bad port…) is its cause.
  const inner = (cause as Error & { cause?: unknown }).cause;
  if (inner instanceof Error) {
    const code = (inner as Error & { code?: unknown }).code;
    return typeof code === 'string' ? code : inner.message;
  }
  return cause.message;
}

/** Credentials the MQTT side needs, returned once by registration. */
export type RegisteredNode = z.infer<typeof RegisterNodesResponseSchema>['nodes'][number];
/** States of a user ↔ node mapping request. */
export type MappingRequestStatus = z.infer<typeof UserNodeMappingStatusSchema>['request_status'];

const CurrentUserIdSchema = CurrentUserSchema.pick({ user_id: true, user_name: true });
const REQUEST_TIMEOUT_MS = 30_000;

/** A tiny client for the Fleetdeck (RainMaker-style) HTTP API. */
export class ApiClient {
  private readonly baseUrl: string;
  private readonly fetch: FetchLike;

  constructor(baseUrl: string, fetchImpl: FetchLike = (input, init) => fetch(input, init)) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.fetch = fetchImpl;
  }

  /** Signs in and returns a session that signs in again when its token expires. */
  async login(userName: string, password: string): Promise<ApiSession> {
    const session = new ApiSession(this, userName, password);
    await session.refresh();
    return session;
  }

  /** Sends one request and parses the answer with `schema`; throws ApiError on failures. */
  async send<S extends z.ZodType>(
    method: string,
    path: string,
    schema: S,
    options: { body?: unknown; token?: string; signal?: AbortSignal } = {},
  ): Promise<z.output<S>> {
    const url = `${this.baseUrl}${path}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = options.token;
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    let response: Response;
    try {
      response = await this.fetch(url, {
        method,
        headers,
        body: options.body === undefined ? null : JSON.stringify(options.body),
        signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new ApiUnreachableError(url, error);
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (!response.ok) {
      const failure = FailureBodySchema.safeParse(body);
      throw new ApiError(
        method,
        path,
        response.status,
        failure.success ? failure.data.description : response.statusText || 'no description',
        failure.success ? failure.data.error_code : undefined,
      );
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new ApiError(
        method,
        path,
        response.status,
        `unexpected answer (${parsed.error.issues[0]?.message ?? 'invalid'})`,
        undefined,
      );
    }
    return parsed.data;
  }
}

/** A signed-in user. Requests answered 401 (an expired token) sign in once more and retry. */
export class ApiSession {
  private token = '';

  constructor(
    private readonly client: ApiClient,
    readonly userName: string,
    private readonly password: string,
  ) {}

  /** Signs in (again) with the stored credentials. */
  async refresh(): Promise<void> {
    const answer = await this.client.send('POST', API_PATHS.login, LoginResponseSchema, {
      body: { user_name: this.userName, password: this.password },
    });
    if (!answer.accesstoken) {
      throw new ApiError('POST', API_PATHS.login, 200, 'no access token in the answer', undefined);
    }
    this.token = answer.accesstoken;
  }

  private async call<S extends z.ZodType>(
    method: string,
    path: string,
    schema: S,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<z.output<S>> {
    try {
      return await this.client.send(method, path, schema, { body, token: this.token, signal });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      await this.refresh();
      return this.client.send(method, path, schema, { body, token: this.token, signal });
    }
  }

  /** POST /v1/admin/node_ids (at most NODE_REGISTRATION_MAX nodes). */
  async registerNodes(nodes: readonly NodeRegistration[]): Promise<RegisteredNode[]> {
    const answer = await this.call('POST', '/v1/admin/node_ids', RegisterNodesResponseSchema, {
      nodes,
    });
    return answer.nodes;
  }

  /** GET /v1/otaimage/signing_key: the install's Ed25519 key that signs OTA image manifests. */
  async signingKey(): Promise<z.output<typeof SigningKeySchema>> {
    return this.call('GET', OTA_PATHS.signingKey, SigningKeySchema);
  }

  /** POST /v1/admin/user2: creates an account; returns its user id. */
  async createUser(userName: string, password: string, roles: readonly string[]): Promise<string> {
    const answer = await this.call('POST', '/v1/admin/user2', CreateUserResponseSchema, {
      user_name: userName,
      password,
      roles,
    });
    return answer.user_id;
  }

  /** GET /v1/user: the signed-in user's id. */
  async currentUserId(): Promise<string> {
    const answer = await this.call('GET', API_PATHS.user, CurrentUserIdSchema);
    return answer.user_id;
  }

  /** PUT /v1/user/nodes/mapping `operation: add`: returns the request id. */
  async requestMapping(nodeId: string, secretKey: string, signal?: AbortSignal): Promise<string> {
    const answer = await this.call(
      'PUT',
      '/v1/user/nodes/mapping',
      UserNodeMappingResponseSchema,
      { node_id: nodeId, secret_key: secretKey, operation: 'add' },
      signal,
    );
    return answer.request_id;
  }

  /** GET /v1/user/nodes/mapping?request_id=. */
  async mappingStatus(requestId: string, signal?: AbortSignal): Promise<MappingRequestStatus> {
    const answer = await this.call(
      'GET',
      `/v1/user/nodes/mapping?request_id=${encodeURIComponent(requestId)}`,
      UserNodeMappingStatusSchema,
      undefined,
      signal,
    );
    return answer.request_status;
  }
}
