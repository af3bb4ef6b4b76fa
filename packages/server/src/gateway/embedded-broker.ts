import type { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import mqemitter, { type MQEmitter } from 'mqemitter';
import { parseNodeTopic } from '@fleetdeck/contract';
import type { Logger } from '../logger.js';
import type { NodeGatewayPort } from '../services/nodes/node-gateway.port.js';
import {
  NODE_PACKET_LIMIT,
  NODE_PAYLOAD_LIMIT,
  isNodeId,
  isNodeSubscriptionAllowed,
  nodePublishTopic,
} from './node-acl.js';
import { outboundMessage, type NodeGateway } from './node-gateway.js';
import { OTA_FETCH_SUFFIX, routeNodeMessage } from './node-message-router.js';
import { ConnectAdmission } from './connect-admission.js';
import { MqttPacketSizeGuard } from './packet-size-guard.js';

/** The embedded MQTT broker that appliances connect to when no external broker is configured. */
export interface EmbeddedBroker extends NodeGateway {
  /** The TCP port it listens on (the real one when asked for port 0). */
  port: number;
}

/**
 * A connection that has not sent its whole CONNECT this long after it was handed to Aedes is
 * closed (Aedes's default is 30 s). A device sends CONNECT as soon as TCP is up, so 10 s is
 * plenty, and a socket that connects and says nothing, or sends half a packet, holds its file
 * descriptor a third as long. Sockets still waiting for admission are closed by its maxWaitMs.
 */
export const MQTT_CONNECT_TIMEOUT_MS = 10_000;

/** CONNACK return codes of MQTT 3.1.1 that the broker answers with. */
const SERVER_UNAVAILABLE = 3;
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;
/**
 * Connections the kernel may hold for the listener before it accepts them (Node's default is
 * 511). Linux caps it at `net.core.somaxconn` (4096 on current kernels), see `listenBacklogCap`.
 */
export const MQTT_LISTEN_BACKLOG = 65_535;

/** The kernel's cap on a listen backlog (`net.core.somaxconn`), or undefined off Linux. */
export function listenBacklogCap(
  read = (file: string) => readFileSync(file, 'utf8'),
): number | undefined {
  try {
    const value = Number.parseInt(read('/proc/sys/net/core/somaxconn'), 10);
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

function refusal(
  returnCode: typeof SERVER_UNAVAILABLE | typeof BAD_USERNAME_OR_PASSWORD | typeof NOT_AUTHORIZED,
  message: string,
): AuthenticateError {
  return Object.assign(new Error(message), { returnCode });
}

function byteLength(payload: Buffer | string): number {
  return typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
}

/**
 * Aedes's message emitter, without its concurrency limit. With one (Aedes's default is 100), the
 * messages past the limit wait in a queue that is worked off by recursion when a delivery ends:
 * a burst of tens of thousands of publishes (a group commit acknowledging them all at once,
 * under overload) overflowed the stack and took the server down (B10 soak, 2026-11-25). Without
 * it each publish is routed at once. Back-pressure does not come from this queue: a client's
 * socket is read again only once the packets of its last read are handled, and a QoS 1 publish
 * is handled only once it is durable.
 */
export function createMessageEmitter(): MQEmitter {
  return mqemitter({ concurrency: 0 });
}

/**
 * Starts Aedes on `mqttPort` (0 = a free port) and `host`, with the node ACL of ARCHITECTURE §5:
 * a node signs in with client id = user name = its node id and its MQTT credential (checked by
 * `port.authenticateNode`), and may publish, subscribe and leave a Last Will only under its own
 * `node/<id>/`. Basic-ingest publishes (`$aws/rules/<rule>/node/<id>/<suffix>`) are rewritten to
 * `node/<id>/<suffix>`. Connects and disconnects reach the port with a per-node session number;
 * node messages are parsed and handed to the port after the PUBACK has gone out. Session numbers
 * start again at 1 in every process, so the stored connectivity must be reset before this starts.
 * `route` hands an authorised message on (the broker thread passes it to the main thread as is).
 * Rejects with the listen error (e.g. EADDRINUSE) so the caller can explain it.
 */
export async function startEmbeddedBroker(
  mqttPort: number,
  host: string,
  port: NodeGatewayPort,
  logger: Logger,
  route: typeof routeNodeMessage = routeNodeMessage,
): Promise<EmbeddedBroker> {
  const log = logger.child({ component: 'mqtt-broker' });
  /** The last session number handed out per node id; only ever grows while the process runs. */
  const lastSession = new Map<string, number>();
  const sessionOf = new WeakMap<Client, number>();
  /** Clients whose CONNECT carried a Last Will they may not leave (seen in preConnect). */
  const refusedWill = new WeakSet<Client>();

  const broker = await Aedes.createBroker({
    mq: createMessageEmitter(),
    connectTimeout: MQTT_CONNECT_TIMEOUT_MS,
    preConnect: (client, packet, callback) => {
      const will = packet.will;
      if (
        will &&
        (nodePublishTopic(packet.clientId, will.topic) === undefined ||
          byteLength(will.payload) > NODE_PAYLOAD_LIMIT)
      ) {
        refusedWill.add(client);
      }
      callback(null, true);
    },
    authenticate: (client, username, password, done) => {
      const nodeId = client.id;
      const refuse = (error: AuthenticateError, reason: string) => {
        log.info({ clientId: nodeId, username, reason }, 'mqtt connect refused');
        done(error, false);
      };
      if (username === undefined || password === undefined) {
        return refuse(refusal(BAD_USERNAME_OR_PASSWORD, 'Bad user name or password'), 'anonymous');
      }
      if (username !== nodeId) {
        return refuse(refusal(NOT_AUTHORIZED, 'Not authorized'), 'client id is not the user name');
      }
      if (!isNodeId(nodeId)) {
        return refuse(refusal(BAD_USERNAME_OR_PASSWORD, 'Bad user name or password'), 'bad id');
      }
      if (refusedWill.has(client)) {
        return refuse(refusal(NOT_AUTHORIZED, 'Not authorized'), 'last will outside own topics');
      }
      void port
        .authenticateNode(nodeId, password.toString('utf8'))
        .then(
          (ok) => {
            if (!ok) {
              refuse(refusal(BAD_USERNAME_OR_PASSWORD, 'Bad user name or password'), 'password');
              return;
            }
            // The session is numbered when the connection is accepted, before Aedes closes an older
            // connection of the same node, so that older one's disconnect is recognisably stale.
            const session = (lastSession.get(nodeId) ?? 0) + 1;
            lastSession.set(nodeId, session);
            sessionOf.set(client, session);
            done(null, true);
          },
          (error: unknown) => {
            log.error({ err: error, clientId: nodeId }, 'node authentication failed');
            done(refusal(SERVER_UNAVAILABLE, 'Server unavailable'), false);
          },
        )
        // Nothing may escape into an unhandled rejection (that would end the process).
        .catch((error: unknown) => log.error({ err: error }, 'mqtt authenticate callback failed'));
    },
    authorizePublish: (client, packet, callback) => {
      // Aedes passes no client only for wills left over from an earlier broker process.
      if (!client) return callback(new Error('not authorized'));
      const topic = nodePublishTopic(client.id, packet.topic);
      if (topic === undefined) {
        log.warn({ clientId: client.id, topic: packet.topic }, 'mqtt publish refused: topic');
        return callback(new Error('not authorized'));
      }
      if (byteLength(packet.payload) > NODE_PAYLOAD_LIMIT) {
        log.warn({ clientId: client.id, topic }, 'mqtt publish refused: payload over 64 KiB');
        return callback(new Error('payload too large'));
      }
      packet.topic = topic;
      // Firmware never retains (B.1); refusing to store retained messages bounds broker memory.
      packet.retain = false;
      const parsed = parseNodeTopic(topic);
      // Connectivity on the embedded broker comes from the connection hooks, not from messages.
      if (!parsed || parsed.suffix === 'connection') return callback(null);
      const payload =
        typeof packet.payload === 'string' ? Buffer.from(packet.payload, 'utf8') : packet.payload;
      route(port, log, parsed.nodeId, parsed.suffix, payload, Date.now());
      if (packet.qos === 0) return callback(null);
      // QoS 1: the PUBACK goes out only once the message is committed (group commit, ≤ ~50 ms),
      // and a question for an update once it is answered.
      (parsed.suffix === OTA_FETCH_SUFFIX
        ? Promise.all([port.whenDurable(), port.whenAnswered()])
        : port.whenDurable()
      ).then(
        () => callback(null),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
    authorizeSubscribe: (client, subscription, callback) => {
      if (isNodeSubscriptionAllowed(client.id, subscription.topic)) {
        return callback(null, subscription);
      }
      log.warn({ clientId: client.id, filter: subscription.topic }, 'mqtt subscribe refused');
      // A null subscription makes Aedes grant 0x80 for this filter and keep the others.
      callback(null, null);
    },
  });

  broker.on('client', (client) => {
    admission.finished(client.conn as net.Socket);
    const nodeId = client.id;
    const session = sessionOf.get(client);
    if (session === undefined) return;
    try {
      port.nodeConnected(nodeId, session, Date.now());
    } catch (error) {
      log.error({ err: error, nodeId }, 'nodeConnected failed');
    }
  });
  broker.on('clientDisconnect', (client) => {
    const session = sessionOf.get(client);
    if (session === undefined) return;
    sessionOf.delete(client);
    try {
      // The session of *this* connection: after a takeover the port ignores it if newer is known.
      port.nodeDisconnected(client.id, session, Date.now());
    } catch (error) {
      log.error({ err: error, nodeId: client.id }, 'nodeDisconnected failed');
    }
  });
  broker.on('clientError', (client, error) => {
    log.debug({ clientId: client.id, err: error }, 'mqtt client error');
  });
  broker.on('connectionError', (client, error) => {
    log.debug({ clientId: client.id, err: error }, 'mqtt connection error');
  });
  // Aedes emits 'error' when its persistence fails; its typings leave the event out.
  const emitter: EventEmitter = broker;
  emitter.on('error', (error: unknown) => log.error({ err: error }, 'mqtt broker error'));

  const sockets = new Set<net.Socket>();
  const admission = new ConnectAdmission((socket) => {
    broker.handle(socket);
    // Aedes reads with 'readable', so this listener sees each chunk as Aedes reads it without
    // changing the flow; an oversized packet ends the connection before it is buffered.
    const guard = new MqttPacketSizeGuard(NODE_PACKET_LIMIT);
    socket.on('data', (chunk: Buffer) => {
      if (guard.push(chunk)) return;
      log.warn({ remoteAddress: socket.remoteAddress }, 'mqtt packet over the size limit');
      socket.destroy();
    });
  });
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    admission.offer(socket);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // A reconnect storm brings thousands of connects at once, and libuv accepts one connection
      // per event-loop turn, so the kernel's accept queue is where the storm waits. When it is
      // full the kernel drops the surplus SYNs and those nodes retry only after 1, 3, 7… s (B3).
      server.listen({ port: mqttPort, host, backlog: MQTT_LISTEN_BACKLOG }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    throw error;
  }
  server.on('error', (error) => log.error({ err: error }, 'mqtt listener error'));
  const backlogCap = listenBacklogCap();
  if (backlogCap !== undefined && backlogCap < MQTT_LISTEN_BACKLOG) {
    log.info(
      { backlog: backlogCap, somaxconn: backlogCap },
      `mqtt listen backlog capped at ${backlogCap} by net.core.somaxconn: for reconnect storms of more devices raise it (README, "Large fleets")`,
    );
  }
  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : mqttPort;

  let closing: Promise<void> | undefined;
  return {
    port: boundPort,
    publishToNode: async (nodeId, suffix, payload) => {
      const message = outboundMessage(nodeId, suffix, payload);
      await new Promise<void>((resolve, reject) => {
        broker.publish(
          {
            cmd: 'publish',
            topic: message.topic,
            payload: message.payload,
            qos: 1,
            retain: false,
            dup: false,
          },
          (error) => (error ? reject(error) : resolve()),
        );
      });
    },
    close: () => {
      closing ??= (async () => {
        const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
        await new Promise<void>((resolve) => broker.close(() => resolve()));
        // Connections that never completed CONNECT are not Aedes clients yet.
        for (const socket of sockets) socket.destroy();
        await serverClosed;
      })();
      return closing;
    },
  };
}
