import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import {
  ConnectionPayloadSchema,
  basicIngestTopic,
  nodeTopic,
  parseNodeTopic,
} from '@fleetdeck/contract';
import {
  ErrorWithSubackPacket,
  connect,
  type IPublishPacket,
  type MqttClient,
  type Packet,
} from 'mqtt';
import type { Leadership } from '../db/leadership.js';
import type { Logger } from '../logger.js';
import type { NodeGatewayPort } from '../services/nodes/node-gateway.port.js';
import { NODE_PACKET_LIMIT, NODE_PAYLOAD_LIMIT, isNodeId } from './node-acl.js';
import { outboundMessage, type NodeGateway } from './node-gateway.js';
import { OTA_FETCH_SUFFIX, routeNodeMessage } from './node-message-router.js';

/** How Fleetdeck signs in to the external broker and shares the load between its instances. */
export interface ExternalGatewayOptions {
  /** Overrides the user name of the URL. */
  username?: string;
  /** Overrides the password of the URL. */
  password?: string;
  /**
   * Defaults to the user name when there is one (one account per instance), else
   * `fleetdeck-<random>`; Mosquitto with `use_username_as_clientid` uses the user name anyway.
   */
  clientId?: string;
  /**
   * How long the broker keeps the session (the subscriptions and the QoS 1 messages queued for
   * them) while Fleetdeck is away, so what nodes send during a restart is delivered after it.
   * Only with a stable client id (a user name or `clientId`); otherwise, and with 0 (the
   * default), every connection starts clean. For a single instance: with a kept session the
   * gateway subscribes without a shared group (see `externalGatewayFilters`), so a second instance
   * would receive every message as well.
   */
  sessionExpirySeconds?: number;
  /** Shared-subscription group; every Fleetdeck instance of one installation uses the same one. */
  sharedGroup?: string;
  /** Wait between reconnect attempts (default 1 s). */
  reconnectPeriodMs?: number;
  /** Limit for one connection attempt (default 10 s). */
  connectTimeoutMs?: number;
  /** How long start-up waits for the first connection and subscriptions (default 15 s). */
  startTimeoutMs?: number;
  /**
   * After a subscription, the retained connection messages count as delivered once none came for
   * this long (default 1 s) and at least `sweepAfterMs` passed (default 2 s); then the nodes not
   * heard from are swept offline (`NodeGatewayPort.sweepUnconfirmed`).
   */
  retainedQuietMs?: number;
  sweepAfterMs?: number;
  /**
   * Whether this instance is the one that takes the basic-ingest topics (`$aws/rules/…`, which
   * every subscriber would receive; ADR 39): they are subscribed while it is held and
   * unsubscribed when it is lost. The gateway releases it when it closes. Without one (a single
   * instance) they are always subscribed.
   */
  leadership?: Leadership;
}

/**
 * The nodes heard on `node/<id>/connection` since the gateway's latest subscription, until the
 * broker has delivered its retained births and wills.
 */
interface ConfirmationWindow {
  confirmed: Set<string>;
  /** When the SUBACK came (undefined before): retained messages follow it. */
  subscribedAt: number | undefined;
  lastRetainedAt: number;
  timer: NodeJS.Timeout;
}

/** Fleetdeck as a client of an external broker. */
export interface ExternalGateway extends NodeGateway {
  /** Connected, with every subscription granted. */
  readonly ready: boolean;
  /** Subscribed to the basic-ingest topics (it holds the leadership, or needs none; ADR 39). */
  readonly basicIngest: boolean;
}

/** Node → cloud suffixes the port ingests (connectivity is handled on its own). */
const INGESTED_SUFFIXES = [
  'config',
  'params/local',
  'params/local/init',
  'alert',
  'user/mapping',
  'otafetch',
  'otastatus',
  'diagnostics/from-node',
];

/**
 * The filters Fleetdeck subscribes to. Plain node topics go through a shared subscription, so
 * several Fleetdeck instances split the load. Two kinds cannot: Mosquitto 2.0 delivers no topic
 * that starts with `$` through a shared subscription, so the basic-ingest forms are plain
 * subscriptions, which only the instance holding the basic-ingest leadership makes (ADR 39); and
 * MQTT 5 brokers need not send retained messages to shared subscriptions, so `connection` (whose
 * retained birth and will are the connectivity state) is plain too — every instance sees it,
 * which is harmless because the port orders connectivity by session and, on PostgreSQL, applies
 * a change under the node's row lock, so only the first instance to write it counts and tells it.
 *
 * With `shared` false (a single instance that keeps its session), every filter is plain: Mosquitto
 * (2.0) restores a kept session's plain subscriptions when it restarts with persistence, but not
 * its shared ones, so what nodes sent between the broker's restart and Fleetdeck's next SUBSCRIBE
 * was acknowledged to them and then dropped.
 */
export function externalGatewayFilters(sharedGroup: string, shared = true): string[] {
  const nodeTopics = INGESTED_SUFFIXES.map((suffix) =>
    shared ? `$share/${sharedGroup}/${nodeTopic('+', suffix)}` : nodeTopic('+', suffix),
  );
  return [...nodeTopics, ...basicIngestFilters(), nodeTopic('+', 'connection')];
}

/**
 * The basic-ingest forms of the ingested topics (`$aws/rules/<rule>/node/+/<suffix>`): plain
 * subscriptions, so with several instances only the leader subscribes to them (ADR 39).
 */
export function basicIngestFilters(): string[] {
  return INGESTED_SUFFIXES.flatMap((suffix) => basicIngestTopic('+', suffix) ?? []);
}

/** MQTT 5 reason codes of a CONNACK that retrying will not fix (bad credentials, banned…). */
function isRefusal(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = error.code;
  return typeof code === 'number' && code >= 0x80;
}

/**
 * Connects to the MQTT broker at `mqttUrl` (MQTT 5, QoS 1 subscriptions, see
 * `externalGatewayFilters`), hands node messages to `port`, and takes connectivity from the
 * nodes' `node/<id>/connection` birth and Last Will messages. With `sessionExpirySeconds` and a
 * stable client id the broker keeps the session while Fleetdeck is away, so node messages of a
 * restart are queued, not lost. Reconnects on its own and subscribes again after every reconnect
 * (the same filters: a kept session is not doubled). Resolves once the first
 * connection is subscribed; rejects when the broker refuses the credentials, a subscription is
 * refused, or nothing works within `startTimeoutMs`.
 */
export async function startExternalGateway(
  mqttUrl: string,
  port: NodeGatewayPort,
  logger: Logger,
  options: ExternalGatewayOptions = {},
): Promise<ExternalGateway> {
  const log = logger.child({ component: 'mqtt-gateway' });
  const requestedExpiry = options.sessionExpirySeconds ?? 0;
  const stableId =
    options.clientId ??
    (requestedExpiry > 0 ? (options.username ?? usernameOf(mqttUrl)) : undefined);
  // A session under a throw-away id would live on as a dead member of the shared group.
  const sessionExpiry = stableId ? requestedExpiry : 0;
  if (requestedExpiry > 0 && !stableId)
    log.warn('MQTT session expiry ignored: Fleetdeck signs in without a user name or client id');
  // A kept session means one instance (see sessionExpirySeconds): it needs no shared group.
  const leadership = options.leadership;
  const basicIngest = basicIngestFilters();
  const allFilters = externalGatewayFilters(
    options.sharedGroup ?? 'fleetdeck',
    sessionExpiry === 0,
  );
  /** Without the leadership, every filter but the basic-ingest ones. */
  const ownFilters = allFilters.filter((filter) => !basicIngest.includes(filter));
  /** What a new connection subscribes to. */
  const filtersNow = () => (!leadership || leadership.held ? allFilters : ownFilters);
  const client: MqttClient = connect(mqttUrl, {
    protocolVersion: 5,
    clean: sessionExpiry === 0,
    clientId: stableId ?? `fleetdeck-${randomBytes(6).toString('hex')}`,
    ...(options.username !== undefined ? { username: options.username } : {}),
    ...(options.password !== undefined ? { password: options.password } : {}),
    reconnectPeriod: options.reconnectPeriodMs ?? 1000,
    connectTimeout: options.connectTimeoutMs ?? 10_000,
    // Subscriptions are made on every 'connect' below, where their grants are checked.
    resubscribe: false,
    // The broker drops for us what a node could not have sent through the embedded broker either.
    properties: {
      sessionExpiryInterval: sessionExpiry,
      maximumPacketSize: NODE_PACKET_LIMIT + 5,
    },
  });

  const acks = holdAcksUntilDurable(client, port, log);

  let ready = false;
  let basicIngestOn = false;
  let started = false;
  let window: ConfirmationWindow | undefined;
  const retainedQuietMs = options.retainedQuietMs ?? 1000;
  const sweepAfterMs = options.sweepAfterMs ?? 2000;

  const closeWindow = () => {
    if (window) clearInterval(window.timer);
    window = undefined;
  };
  /**
   * Starts collecting before the SUBSCRIBE goes out (a retained message may be handled before the
   * SUBACK's promise resolves); once the retained messages are through, sweeps the nodes not heard.
   */
  const openWindow = () => {
    closeWindow();
    const opened: ConfirmationWindow = {
      confirmed: new Set(),
      subscribedAt: undefined,
      lastRetainedAt: 0,
      timer: setInterval(
        () => {
          const at = Date.now();
          if (opened.subscribedAt === undefined) return;
          if (
            at - opened.lastRetainedAt < retainedQuietMs ||
            at - opened.subscribedAt < sweepAfterMs
          )
            return;
          closeWindow();
          port.sweepUnconfirmed(opened.confirmed, at).then(
            (swept) => {
              if (swept > 0)
                log.info({ swept }, 'nodes without a birth on the broker marked offline');
            },
            (error: unknown) => log.error({ err: error }, 'connectivity sweep failed'),
          );
        },
        Math.min(250, retainedQuietMs),
      ),
    };
    opened.timer.unref();
    window = opened;
  };
  let lastError: unknown;
  let failStart: (error: Error) => void = () => undefined;
  let finishStart: () => void = () => undefined;
  const startup = new Promise<void>((resolve, reject) => {
    finishStart = resolve;
    failStart = reject;
  });

  const subscribe = async () => {
    openWindow();
    const filters = filtersNow();
    // A kept session may still hold the basic-ingest subscriptions of a time this instance led.
    if (leadership && !leadership.held && sessionExpiry > 0)
      await client.unsubscribeAsync(basicIngest).catch(() => undefined);
    let codes: number[];
    try {
      codes = (await client.subscribeAsync(filters, { qos: 1 })).map((grant) => grant.qos);
    } catch (error) {
      if (!(error instanceof ErrorWithSubackPacket)) {
        // The connection dropped while subscribing; the next 'connect' subscribes again.
        log.warn({ err: error }, 'mqtt subscribe failed');
        closeWindow();
        return;
      }
      // mqtt.js turns any refused filter into an error; the SUBACK says which ones.
      codes = error.packet.granted.map((code) => (typeof code === 'number' ? code : 0x80));
    }
    const refused = filters.filter((_filter, index) => (codes[index] ?? 0x80) >= 0x80);
    if (refused.length) {
      log.error({ refused }, 'mqtt broker refused subscriptions (check the ACL for Fleetdeck)');
      closeWindow();
      if (!started)
        failStart(new Error(`MQTT broker refused subscriptions: ${refused.join(', ')}`));
      return;
    }
    ready = true;
    // The leadership may have moved while the SUBACK was on its way (followLeadership acts on it).
    basicIngestOn = filters === allFilters && (leadership?.held ?? true);
    if (window) window.subscribedAt = window.lastRetainedAt = Date.now();
    log.info({ url: redactUrl(mqttUrl) }, 'mqtt gateway subscribed');
    if (!started) {
      started = true;
      finishStart();
    }
  };

  client.on('connect', () => {
    acks.connected();
    void subscribe();
  });
  /** Takes or drops the basic-ingest topics on the current connection as the leadership moves. */
  const followLeadership = async (held: boolean) => {
    if (!client.connected) return; // the next 'connect' subscribes what the leadership says then
    try {
      if (!held) {
        basicIngestOn = false;
        await client.unsubscribeAsync(basicIngest);
        log.info('basic-ingest topics left to the instance that leads now');
        return;
      }
      let codes: number[];
      try {
        codes = (await client.subscribeAsync(basicIngest, { qos: 1 })).map((grant) => grant.qos);
      } catch (error) {
        if (!(error instanceof ErrorWithSubackPacket)) throw error;
        codes = error.packet.granted.map((code) => (typeof code === 'number' ? code : 0x80));
      }
      const refused = basicIngest.filter((_filter, index) => (codes[index] ?? 0x80) >= 0x80);
      if (refused.length)
        log.error({ refused }, 'mqtt broker refused subscriptions (check the ACL for Fleetdeck)');
      else {
        basicIngestOn = leadership?.held ?? true;
        log.info('leading: basic-ingest topics subscribed');
      }
    } catch (error) {
      // The connection dropped: the next 'connect' subscribes what the leadership says then.
      log.warn({ err: error, held }, 'basic-ingest (un)subscribe failed');
    }
  };
  const stopFollowing = leadership?.watch((held) => void followLeadership(held));
  client.on('close', () => {
    if (ready) log.warn('mqtt gateway disconnected; reconnecting');
    ready = false;
    basicIngestOn = false;
    // What was heard so far proves nothing about the next subscription's view.
    closeWindow();
  });
  client.on('error', (error) => {
    lastError = error;
    log.warn({ err: error }, 'mqtt gateway error');
    if (!started && isRefusal(error)) failStart(error);
  });
  client.on('message', (topic, payload, packet) => {
    try {
      handleMessage(topic, payload, packet);
    } catch (error) {
      log.error({ err: error, topic }, 'mqtt message handler failed');
    }
  });

  function handleMessage(topic: string, payload: Buffer, packet: IPublishPacket): void {
    const parsed = parseNodeTopic(topic);
    if (!parsed || !isNodeId(parsed.nodeId)) {
      log.debug({ topic }, 'mqtt message on a topic that is no node topic: dropped');
      return;
    }
    const at = Date.now();
    if (parsed.suffix === 'connection') {
      handleConnection(parsed.nodeId, payload, packet.retain, at);
      return;
    }
    routeNodeMessage(port, log, parsed.nodeId, parsed.suffix, payload, at);
    if (parsed.suffix === OTA_FETCH_SUFFIX) acks.awaitAnswers();
  }

  /**
   * A birth or will. The session orders them (a late will of an older connection is ignored by
   * the port); a node that sends none is ordered by its timestamp, then by arrival. A retained
   * message delivered on subscribe happened earlier, so its own timestamp is used for it.
   */
  function handleConnection(nodeId: string, payload: Buffer, retained: boolean, at: number): void {
    // An empty retained message is how a node's retained state gets cleared.
    if (payload.length === 0) return;
    if (payload.length > NODE_PAYLOAD_LIMIT) return;
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      log.warn({ nodeId }, 'connection message is not JSON: dropped');
      return;
    }
    const parsed = ConnectionPayloadSchema.safeParse(json);
    if (!parsed.success) {
      log.warn({ nodeId }, 'connection message does not match: dropped');
      return;
    }
    const { connected, timestamp, session } = parsed.data;
    if (window) {
      window.confirmed.add(nodeId);
      if (retained) window.lastRetainedAt = at;
    }
    const when = retained && timestamp !== undefined ? Math.min(timestamp, at) : at;
    const order = session ?? timestamp ?? at;
    if (connected) port.nodeConnected(nodeId, order, when);
    else port.nodeDisconnected(nodeId, order, when);
  }

  const timeout = setTimeout(() => {
    const reason = lastError instanceof Error ? `: ${lastError.message}` : '';
    failStart(new Error(`could not connect to the MQTT broker at ${redactUrl(mqttUrl)}${reason}`));
  }, options.startTimeoutMs ?? 15_000);
  try {
    await startup;
  } catch (error) {
    stopFollowing?.();
    await client.endAsync(true);
    await leadership?.release();
    throw error;
  } finally {
    clearTimeout(timeout);
  }

  let closing: Promise<void> | undefined;
  return {
    get ready() {
      return ready;
    },
    get basicIngest() {
      return basicIngestOn;
    },
    publishToNode: async (nodeId, suffix, payload) => {
      const message = outboundMessage(nodeId, suffix, payload);
      await client.publishAsync(message.topic, message.payload, { qos: 1 });
    },
    close: () => {
      closeWindow();
      stopFollowing?.();
      // What the port holds is committed and acknowledged before the connection ends, so the
      // broker does not hand it out again after a restart; not waited for beyond a few seconds
      // (an answer to a node that cannot be published while the broker is away).
      closing ??= Promise.race([
        acks.release(),
        delay(CLOSE_ACK_WAIT_MS, undefined, { ref: false }),
      ])
        .then(() => client.endAsync(false))
        .then(() => leadership?.release())
        .then(() => {
          ready = false;
        });
      return closing;
    },
  };
}

/** How long shutdown waits for held acks before it disconnects anyway. */
const CLOSE_ACK_WAIT_MS = 5_000;

type SendPacket = (packet: Packet, callback?: (error?: Error) => void, ...rest: unknown[]) => void;

/** The PUBACKs the gateway holds back, with the connection that received their messages. */
interface HeldAcks {
  /** A connection (the first or a reconnect) is up: acks held for an older one are void. */
  connected(): void;
  /** The held batch holds an `otafetch`: it also waits for `port.whenAnswered`. */
  awaitAnswers(): void;
  /** Sends every held ack once what the port holds is committed (shutdown). */
  release(): Promise<void>;
}

/**
 * Makes the client acknowledge a node's QoS 1 message to the broker only once the port has
 * committed it (`port.whenDurable`), as the embedded broker does towards the node: a Fleetdeck
 * that crashes between receiving and committing leaves the message unacknowledged, and a broker
 * that keeps the session (`sessionExpirySeconds`) delivers it again. mqtt.js sends the PUBACK as
 * soon as its message handler returns and reads the next packet only after that, so the ack is
 * taken out at the client's one place of sending (`_sendPacket`, a private method of mqtt.js
 * 5, pinned in package-lock.json) and sent later, while the client reads on: the messages of
 * one turn of the event loop share one `whenDurable` (a group commit), and many are in flight at
 * once (Mosquitto's `max_inflight_messages`; the generated configuration allows 1,000).
 * An ack is never sent on a newer connection than its message came on: the packet id may by then
 * name another message.
 */
function holdAcksUntilDurable(client: MqttClient, port: NodeGatewayPort, log: Logger): HeldAcks {
  const internals = client as unknown as { _sendPacket?: SendPacket };
  const original = internals._sendPacket;
  if (typeof original !== 'function')
    throw new Error('mqtt.js has no _sendPacket: the external gateway cannot hold its acks');
  const send: SendPacket = original.bind(client);
  let connection = 0;
  let held: Packet[] = [];
  let heldQuestion = false;
  let scheduled: NodeJS.Immediate | undefined;
  let releasing: Promise<void> = Promise.resolve();

  const releaseHeld = (): Promise<void> => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    if (!held.length) return releasing;
    const batch = held;
    const heldOn = connection;
    const durable = heldQuestion
      ? Promise.all([port.whenDurable(), port.whenAnswered()])
      : port.whenDurable();
    held = [];
    heldQuestion = false;
    const sent = durable.then(
      () => {
        // A dropped connection voids the batch: the broker hands its messages out again.
        if (heldOn !== connection || !client.connected) return;
        for (const packet of batch) send(packet);
      },
      (error: unknown) =>
        log.error({ err: error, messages: batch.length }, 'ingest commit failed; not acknowledged'),
    );
    releasing = Promise.all([releasing, sent]).then(() => undefined);
    return releasing;
  };

  internals._sendPacket = (packet, callback, ...rest) => {
    if (packet.cmd !== 'puback') {
      send(packet, callback, ...rest);
      return;
    }
    held.push(packet);
    // mqtt.js reads the next packet once this returns.
    callback?.();
    scheduled ??= setImmediate(() => void releaseHeld());
  };
  return {
    connected: () => {
      connection += 1;
      held = [];
      heldQuestion = false;
    },
    awaitAnswers: () => {
      heldQuestion = true;
    },
    release: releaseHeld,
  };
}

/** The user name in the URL, if any. */
function usernameOf(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).username) || undefined;
  } catch {
    return undefined;
  }
}

/** The URL without its password, for logs and messages. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
