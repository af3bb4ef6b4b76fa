import { connect, type ErrorWithReasonCode } from 'mqtt';

/**
 * One node's MQTT connection as the fleet sees it: a few callbacks and four verbs. The fleet never
 * touches mqtt.js directly, so tests can drive a whole fleet through a fake link.
 */

/** How to connect one node. */
export interface NodeLinkOptions {
  url: string;
  clientId: string;
  username: string;
  password: string;
  keepaliveSeconds: number;
  connectTimeoutMs: number;
  will: { topic: string; payload: string; retain: boolean };
}

/** Why a link ended: refused by the broker, failed to connect, lost after connecting, or ended by us. */
export type LinkEnd =
  | { kind: 'refused'; code: number; message: string }
  | { kind: 'failed'; message: string }
  | { kind: 'lost'; message: string }
  | { kind: 'ended' };

/** What a link reports. `closed` is called exactly once, last. */
export interface NodeLinkEvents {
  connected(): void;
  message(topic: string, payload: Buffer): void;
  closed(end: LinkEnd): void;
}

/** An open (or opening) connection of one node. */
export interface NodeLink {
  /**
   * QoS 1 publish of JSON text or bytes (ESP Insights frames); `done` runs on PUBACK (or with the
   * error that prevented it).
   */
  publish(
    topic: string,
    payload: string | Buffer,
    retain: boolean,
    done: (error?: Error) => void,
  ): void;
  /** QoS 1 subscribe; `done` runs on SUBACK. */
  subscribe(topics: readonly string[], done: (error?: Error) => void): void;
  /** Drops the socket without DISCONNECT, as a power cut would, so the broker fires the will. */
  drop(): void;
  /** Sends DISCONNECT and closes; resolves once closed. */
  end(): Promise<void>;
}

/** Opens a link; events arrive on `events`. */
export type NodeLinkFactory = (options: NodeLinkOptions, events: NodeLinkEvents) => NodeLink;

const isReasonCodeError = (error: Error): error is ErrorWithReasonCode =>
  typeof (error as Partial<ErrorWithReasonCode>).code === 'number';

/** The real link: one mqtt.js client per node, MQTT 3.1.1, clean session, no auto-reconnect. */
export const mqttLinkFactory: NodeLinkFactory = (options, events) => {
  const client = connect(options.url, {
    clientId: options.clientId,
    username: options.username,
    password: options.password,
    keepalive: options.keepaliveSeconds,
    clean: true,
    protocolVersion: 4,
    // The fleet schedules reconnects itself (with jitter), so a broker restart is no stampede.
    reconnectPeriod: 0,
    connectTimeout: options.connectTimeoutMs,
    resubscribe: false,
    will: {
      topic: options.will.topic,
      payload: Buffer.from(options.will.payload),
      qos: 1,
      retain: options.will.retain,
    },
  });
  let everConnected = false;
  let endedByUs = false;
  let closed = false;
  let lastError: Error | undefined;

  client.on('connect', () => {
    everConnected = true;
    events.connected();
  });
  client.on('message', (topic, payload) => events.message(topic, payload));
  client.on('error', (error) => {
    lastError = error;
  });
  client.on('close', () => {
    if (closed) return;
    closed = true;
    // Release the client's stores and timers; it never reconnects on its own.
    client.end(true);
    if (endedByUs) events.closed({ kind: 'ended' });
    else if (lastError && isReasonCodeError(lastError) && !everConnected)
      events.closed({ kind: 'refused', code: lastError.code, message: lastError.message });
    else if (!everConnected)
      events.closed({ kind: 'failed', message: lastError?.message ?? 'connection closed' });
    else events.closed({ kind: 'lost', message: lastError?.message ?? 'connection closed' });
  });

  return {
    publish(topic, payload, retain, done) {
      client.publish(topic, payload, { qos: 1, retain }, (error) => done(error ?? undefined));
    },
    subscribe(topics, done) {
      client.subscribe([...topics], { qos: 1 }, (error) => done(error ?? undefined));
    },
    drop() {
      client.stream.destroy();
    },
    end() {
      endedByUs = true;
      if (closed) return Promise.resolve();
      // A client still waiting for CONNACK has nobody to say DISCONNECT to.
      const force = !client.connected;
      return new Promise<void>((resolve) => {
        client.end(force, {}, () => resolve());
      });
    },
  };
};
