import net from 'node:net';
import { ErrorWithSubackPacket, connect, type IClientOptions, type MqttClient } from 'mqtt';

/** Waits `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Tries one MQTT connection and reports the CONNACK outcome; the client is closed again. */
export function tryConnect(
  url: string,
  options: IClientOptions,
): Promise<{ connected: boolean; code?: number }> {
  return new Promise((resolve) => {
    const client = connect(url, { reconnectPeriod: 0, connectTimeout: 5000, ...options });
    client.once('connect', () => {
      client.end(true);
      resolve({ connected: true });
    });
    client.once('error', (error: Error & { code?: unknown }) => {
      client.end(true);
      resolve({
        connected: false,
        ...(typeof error.code === 'number' ? { code: error.code } : {}),
      });
    });
    client.once('close', () => {
      client.end(true);
      resolve({ connected: false });
    });
  });
}

/** A connected client that does not reconnect (fails when the broker refuses it). */
export async function connectClient(url: string, options: IClientOptions): Promise<MqttClient> {
  const client = connect(url, { reconnectPeriod: 0, connectTimeout: 5000, ...options });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', (error) => {
      client.end(true);
      reject(error);
    });
  });
  return client;
}

/** A connected node client (client id = user name = node id) that does not reconnect. */
export function connectNode(
  url: string,
  nodeId: string,
  password: string,
  options: IClientOptions = {},
): Promise<MqttClient> {
  return connectClient(url, { clientId: nodeId, username: nodeId, password, ...options });
}

/** Every message a client receives from now on, with the payload as text. */
export function collectMessages(client: MqttClient): Array<{ topic: string; payload: string }> {
  const received: Array<{ topic: string; payload: string }> = [];
  client.on('message', (topic, payload) => received.push({ topic, payload: payload.toString() }));
  return received;
}

/** Resolves true once the client's connection has closed, false if it is still up after `ms`. */
export function closedWithin(client: MqttClient, ms: number): Promise<boolean> {
  if (!client.connected) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    client.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Polls `condition` until it holds; rejects after `timeoutMs`. */
export async function waitUntil(
  condition: () => boolean,
  timeoutMs = 5000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Ends every client at once, without waiting for in-flight messages. */
export async function endAll(clients: Iterable<MqttClient>): Promise<void> {
  await Promise.all([...clients].map((client) => client.endAsync(true)));
}

/**
 * Subscribes to `filters` in one SUBSCRIBE and returns the granted code of each (0x80 = refused);
 * mqtt.js itself turns any refusal into an error.
 */
export async function subscribeCodes(
  client: MqttClient,
  filters: string[],
  qos: 0 | 1 = 1,
): Promise<number[]> {
  try {
    const grants = await client.subscribeAsync(filters, { qos });
    return grants.map((grant) => grant.qos);
  } catch (error) {
    if (!(error instanceof ErrorWithSubackPacket)) throw error;
    return error.packet.granted.map((code) => (typeof code === 'number' ? code : -1));
  }
}

/** A TCP relay to a broker whose connections can be cut at once, as a process crash cuts them. */
export interface TcpRelay {
  /** `mqtt://127.0.0.1:<relay port>` */
  url: string;
  /** Stops accepting and destroys every relayed connection, both sides, without a goodbye. */
  cut(): Promise<void>;
}

/** Relays TCP connections on a free loopback port to `targetPort`. */
export async function startTcpRelay(targetPort: number): Promise<TcpRelay> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((inbound) => {
    const outbound = net.connect(targetPort, '127.0.0.1');
    track(inbound);
    track(outbound);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('relay has no port');
  return {
    url: `mqtt://127.0.0.1:${address.port}`,
    cut: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
