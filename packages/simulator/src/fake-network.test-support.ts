/**
 * In-memory stand-ins for the Fleetdeck server and its broker, for unit tests of the fleet: an
 * HTTP `fetch` that implements the endpoints the simulator calls (validating bodies with the
 * contract's schemas) and a link factory that behaves like a broker (auth, retained messages,
 * Last Will on a dropped socket). Not part of the build.
 */
import { randomUUID } from 'node:crypto';
import {
  CreateUserBodySchema,
  LoginFormSchema,
  parseNodeTopic,
  RegisterNodesBodySchema,
  SERVER_MESSAGES,
  UserMappingPayloadSchema,
  UserNodeMappingBodySchema,
} from '@fleetdeck/contract';
import type { FetchLike } from './api-client.js';
import type { LinkEnd, NodeLink, NodeLinkEvents, NodeLinkFactory } from './mqtt-link.js';

/** One message the broker accepted. */
export interface BrokerMessage {
  clientId: string;
  topic: string;
  /** The payload as text (UTF-8); `bytes` holds it exactly, for binary frames. */
  payload: string;
  bytes: Buffer;
  retain: boolean;
  /** true when the broker published it as the client's Last Will. */
  will: boolean;
}

interface FakeClient {
  events: NodeLinkEvents;
  close: (end: LinkEnd) => void;
  will: { topic: string; payload: string; retain: boolean };
  subscriptions: string[];
  open: boolean;
}

/** A broker in memory. */
export class FakeBroker {
  readonly messages: BrokerMessage[] = [];
  readonly retained = new Map<string, string>();
  readonly clients = new Map<string, FakeClient>();
  readonly passwords = new Map<string, string>();
  connects = 0;
  /** Called for every accepted publish (e.g. the server confirming mappings). */
  onPublish: (message: BrokerMessage) => void = () => undefined;
  /**
   * Publishes this says yes to are received but never acknowledged (a server that dies before
   * its commit); their senders learn it failed when the connection closes.
   */
  withholdAck: (message: BrokerMessage) => boolean = () => false;

  /** The link factory the fleet uses. */
  readonly factory: NodeLinkFactory = (options, events) => {
    const client: FakeClient = {
      events,
      close: () => undefined,
      will: options.will,
      subscriptions: [],
      open: false,
    };
    let closed = false;
    const unacknowledged: Array<(error?: Error) => void> = [];
    const close = (end: LinkEnd) => {
      if (closed) return;
      closed = true;
      for (const done of unacknowledged.splice(0)) done(new Error('connection closed'));
      if (this.clients.get(options.clientId) === client) this.clients.delete(options.clientId);
      client.open = false;
      events.closed(end);
    };
    client.close = close;
    setImmediate(() => {
      if (closed) return;
      if (this.passwords.get(options.username) !== options.password) {
        close({
          kind: 'refused',
          code: 4,
          message: 'Connection refused: Bad username or password',
        });
        return;
      }
      // A second connection with the same client id takes over (MQTT 3.1.1 §3.1.4).
      const previous = this.clients.get(options.clientId);
      if (previous) {
        previous.close({ kind: 'lost', message: 'taken over' });
      }
      this.clients.set(options.clientId, client);
      client.open = true;
      this.connects++;
      events.connected();
    });
    const accept = (topic: string, raw: string | Buffer, retain: boolean, will: boolean) => {
      const bytes = Buffer.from(raw);
      const payload = bytes.toString('utf8');
      const message = { clientId: options.clientId, topic, payload, bytes, retain, will };
      this.messages.push(message);
      if (retain) this.retained.set(topic, payload);
      this.onPublish(message);
      return message;
    };
    const link: NodeLink = {
      publish: (topic, payload, retain, done) => {
        if (!client.open) {
          setImmediate(() => done(new Error('not connected')));
          return;
        }
        const message = accept(topic, payload, retain, false);
        if (this.withholdAck(message)) unacknowledged.push(done);
        else setImmediate(() => done());
      },
      subscribe: (topics, done) => {
        client.subscriptions.push(...topics);
        setImmediate(() => done());
      },
      drop: () => {
        if (!client.open) return;
        accept(client.will.topic, client.will.payload, client.will.retain, true);
        setImmediate(() => close({ kind: 'lost', message: 'socket dropped' }));
      },
      end: () =>
        new Promise<void>((resolve) => {
          setImmediate(() => {
            close({ kind: 'ended' });
            resolve();
          });
        }),
    };
    return link;
  };

  /** Sends a cloud → node message to whoever subscribed to `topic`. */
  deliver(topic: string, payload: unknown): boolean {
    const parsed = parseNodeTopic(topic);
    const client = parsed ? this.clients.get(parsed.nodeId) : undefined;
    if (!client?.open || !client.subscriptions.includes(topic)) return false;
    client.events.message(topic, Buffer.from(JSON.stringify(payload)));
    return true;
  }

  /** Messages of one node, in order, with the topic normalised. */
  messagesOf(nodeId: string): Array<BrokerMessage & { suffix: string | undefined }> {
    return this.messages
      .filter((message) => message.clientId === nodeId)
      .map((message) => ({ ...message, suffix: parseNodeTopic(message.topic)?.suffix }));
  }
}

interface FakeUser {
  userId: string;
  userName: string;
  password: string;
  superAdmin: boolean;
}

interface MappingRequest {
  userId: string;
  nodeId: string;
  secretKey: string;
  status: 'requested' | 'confirmed';
}

/** The HTTP API in memory, wired to a FakeBroker for registration and mapping confirmations. */
export class FakeServer {
  readonly users = new Map<string, FakeUser>();
  readonly tokens = new Map<string, FakeUser>();
  readonly nodes = new Map<string, { secretKey: string; tags: string[]; owner?: string }>();
  readonly requests = new Map<string, MappingRequest>();
  readonly calls: string[] = [];
  /** Paths (`METHOD /path`) that answer 404, as on a server that lacks them. */
  readonly missing = new Set<string>();
  /** Mapping requests still to refuse with 429 (too many open requests), the next ones first. */
  mappingRefusals = 0;
  /** The next node a mapping is asked for is deleted first, as by an operator (404). */
  forgetNextMappedNode = false;
  /** The SPKI PEM `GET /v1/otaimage/signing_key` answers with (404 while unset). */
  signingKeyPem: string | undefined;

  constructor(
    readonly broker: FakeBroker,
    admin: { email: string; password: string },
  ) {
    this.users.set(admin.email, {
      userId: randomUUID(),
      userName: admin.email,
      password: admin.password,
      superAdmin: true,
    });
    broker.onPublish = (message) => this.onNodeMessage(message);
  }

  private onNodeMessage(message: BrokerMessage): void {
    const parsed = parseNodeTopic(message.topic);
    if (parsed?.suffix !== 'user/mapping') return;
    const payload = UserMappingPayloadSchema.parse(JSON.parse(message.payload));
    for (const request of this.requests.values()) {
      if (
        request.nodeId === parsed.nodeId &&
        request.userId === payload.user_id &&
        request.secretKey === payload.secret_key &&
        request.status === 'requested'
      ) {
        request.status = 'confirmed';
        const node = this.nodes.get(parsed.nodeId);
        if (node) node.owner = payload.user_id;
      }
    }
  }

  /** The `fetch` the fleet uses. */
  readonly fetch: FetchLike = async (input, init) => {
    const url = new URL(input);
    const method = init.method ?? 'GET';
    const key = `${method} ${url.pathname}`;
    this.calls.push(key);
    if (this.missing.has(key)) return json(404, failure('Not found'));
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const token = new Headers(init.headers).get('authorization') ?? '';
    const caller = this.tokens.get(token);

    if (key === 'POST /v1/login') {
      const form = LoginFormSchema.safeParse(body);
      const user = form.success ? this.users.get(form.data.user_name) : undefined;
      if (!form.success || !user || user.password !== form.data.password)
        return json(401, failure('Incorrect user name or password'));
      const accesstoken = randomUUID();
      this.tokens.set(accesstoken, user);
      return json(200, {
        status: 'success',
        description: 'Login successful',
        accesstoken,
        refreshtoken: randomUUID(),
        expires_in: 3600,
        expires_at: 0,
      });
    }
    if (!caller) return json(401, failure('Unauthorized'));

    if (key === 'POST /v1/admin/node_ids') {
      if (!caller.superAdmin) return json(403, failure('Forbidden'));
      const parsed = RegisterNodesBodySchema.safeParse(body);
      if (!parsed.success) return json(400, failure(parsed.error.issues[0]?.message ?? 'bad'));
      for (const node of parsed.data.nodes) {
        if (node.node_id && this.nodes.has(node.node_id))
          return json(409, failure(`Node ${node.node_id} is already registered`));
      }
      const issued = parsed.data.nodes.map((node) => {
        const nodeId = node.node_id ?? randomUUID().slice(0, 12);
        const password = randomUUID();
        const secretKey = randomUUID();
        this.nodes.set(nodeId, { secretKey, tags: node.tags });
        this.broker.passwords.set(nodeId, password);
        return {
          node_id: nodeId,
          mqtt_username: nodeId,
          mqtt_password: password,
          secret_key: secretKey,
        };
      });
      return json(200, { status: 'success', description: 'Registered', nodes: issued });
    }
    if (key === 'POST /v1/admin/user2') {
      if (!caller.superAdmin) return json(403, failure('Forbidden'));
      const parsed = CreateUserBodySchema.safeParse(body);
      if (!parsed.success) return json(400, failure(parsed.error.issues[0]?.message ?? 'bad'));
      if (this.users.has(parsed.data.user_name)) return json(400, failure('User already exists'));
      const user = {
        userId: randomUUID(),
        userName: parsed.data.user_name,
        password: parsed.data.password ?? '',
        superAdmin: false,
      };
      this.users.set(user.userName, user);
      return json(201, { status: 'success', description: 'User created', user_id: user.userId });
    }
    if (key === 'GET /v1/otaimage/signing_key') {
      if (!caller.superAdmin) return json(403, failure('Forbidden'));
      if (!this.signingKeyPem) return json(404, failure('Not found'));
      return json(200, { algorithm: 'Ed25519', public_key: this.signingKeyPem });
    }
    if (key === 'GET /v1/user') {
      return json(200, { user_id: caller.userId, user_name: caller.userName });
    }
    if (key === 'PUT /v1/user/nodes/mapping') {
      const parsed = UserNodeMappingBodySchema.safeParse(body);
      if (!parsed.success) return json(400, failure(parsed.error.issues[0]?.message ?? 'bad'));
      if (this.mappingRefusals > 0) {
        this.mappingRefusals -= 1;
        return json(429, failure(SERVER_MESSAGES.tooManyRequests));
      }
      if (this.forgetNextMappedNode) {
        this.forgetNextMappedNode = false;
        this.nodes.delete(parsed.data.node_id);
      }
      if (!this.nodes.has(parsed.data.node_id))
        return json(404, failure(SERVER_MESSAGES.nodeNotFound));
      const requestId = randomUUID();
      this.requests.set(requestId, {
        userId: caller.userId,
        nodeId: parsed.data.node_id,
        secretKey: parsed.data.secret_key,
        status: 'requested',
      });
      return json(200, { status: 'success', description: 'ok', request_id: requestId });
    }
    if (key === 'GET /v1/user/nodes/mapping') {
      const requestId = url.searchParams.get('request_id') ?? '';
      const request = this.requests.get(requestId);
      if (!request || request.userId !== caller.userId) return json(404, failure('Not found'));
      return json(200, { request_id: requestId, request_status: request.status });
    }
    return json(404, failure('Not found'));
  };
}

function failure(description: string) {
  return { status: 'failure', description, error_code: 1 };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}
