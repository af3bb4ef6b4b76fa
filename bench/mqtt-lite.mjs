// A small MQTT 3.1.1 device client for the load generators (B1, B2, B3).
//
// mqtt.js keeps a store, timers, streams and event plumbing per client; with 18,000 clients in two
// processes on the 2-core reference machine it took ~1.2 cores to connect ~900 nodes/s, so the
// load generator, not the server, set the pace (a bare Aedes reached the same rate). An appliance's
// firmware speaks the protocol with far less than that; this client does what such a device does:
// CONNECT with credentials, keep-alive and a Last Will, SUBSCRIBE, PUBLISH at QoS 0/1 (waiting for PUBACK),
// acknowledge QoS 1 deliveries, PINGREQ, DISCONNECT. Nothing else (no QoS 2, no offline queue).
import net from 'node:net';

const CONNECT = 1;
const CONNACK = 2;
const PUBLISH = 3;
const PUBACK = 4;
const SUBSCRIBE = 8;
const SUBACK = 9;
const PINGREQ = 12;
const PINGRESP = 13;
const DISCONNECT = 14;

/** Bytes of an MQTT "remaining length" (variable-length integer, 7 bits per byte). */
function lengthBytes(length) {
  const bytes = [];
  do {
    let byte = length % 128;
    length = Math.floor(length / 128);
    if (length > 0) byte |= 0x80;
    bytes.push(byte);
  } while (length > 0);
  return bytes;
}

/** One packet: fixed header byte, remaining length, then the parts (Buffers) in order. */
function packet(firstByte, parts) {
  let length = 0;
  for (const part of parts) length += part.length;
  const header = lengthBytes(length);
  const out = Buffer.allocUnsafe(1 + header.length + length);
  out[0] = firstByte;
  let offset = 1;
  for (const byte of header) out[offset++] = byte;
  for (const part of parts) offset += part.copy(out, offset);
  return out;
}

/** A UTF-8 string with its two-byte length prefix. */
function mqttString(value) {
  const text = Buffer.from(value, 'utf8');
  const out = Buffer.allocUnsafe(2 + text.length);
  out.writeUInt16BE(text.length, 0);
  text.copy(out, 2);
  return out;
}

function uint16(value) {
  const out = Buffer.allocUnsafe(2);
  out.writeUInt16BE(value, 0);
  return out;
}

/** CONNECT; `will` = { topic, payload, qos, retain } is the Last Will the broker publishes. */
export function connectPacket({ clientId, username, password, keepalive, will }) {
  // Protocol name "MQTT", level 4, flags: user name + password + clean session (+ will).
  let flags = 0xc2;
  if (will) flags |= 0x04 | ((will.qos ?? 0) << 3) | (will.retain ? 0x20 : 0);
  const variable = Buffer.from([0, 4, 0x4d, 0x51, 0x54, 0x54, 4, flags, 0, 0]);
  variable.writeUInt16BE(keepalive, 8);
  const willParts = will
    ? [mqttString(will.topic), uint16(Buffer.byteLength(will.payload)), Buffer.from(will.payload)]
    : [];
  return packet(CONNECT << 4, [
    variable,
    mqttString(clientId),
    ...willParts,
    mqttString(username),
    mqttString(password),
  ]);
}

const PINGREQ_PACKET = Buffer.from([PINGREQ << 4, 0]);
const DISCONNECT_PACKET = Buffer.from([DISCONNECT << 4, 0]);

/**
 * A connected device session. `subscribe` and `publish` (QoS 1) resolve on SUBACK / PUBACK and
 * reject when the connection is lost first.
 */
export class LiteClient {
  #socket;
  #pending = new Map(); // packet id → { resolve, reject }
  #nextId = 0;
  #buffered = null; // bytes of an incomplete packet
  #ping;
  #onConnack;
  closed = false;
  onClose = null; // (had an error) → void
  onMessage = null; // (topic, payload: Buffer) → void

  constructor(socket, keepalive, onConnack) {
    this.#socket = socket;
    this.#onConnack = onConnack;
    socket.on('data', (chunk) => this.#read(chunk));
    socket.on('error', () => undefined); // 'close' follows
    socket.on('close', () => this.#closed());
    if (keepalive > 0) {
      this.#ping = setInterval(() => this.#write(PINGREQ_PACKET), (keepalive * 1000) / 2);
      this.#ping.unref();
    }
  }

  #write(buffer) {
    if (!this.closed) this.#socket.write(buffer);
  }

  #id() {
    this.#nextId = (this.#nextId % 65_535) + 1;
    return this.#nextId;
  }

  #wait(id) {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error('connection closed'));
      this.#pending.set(id, { resolve, reject });
    });
  }

  /** Resolves to the granted QoS (128 = refused). */
  subscribe(topic, qos = 1) {
    const id = this.#id();
    const done = this.#wait(id);
    this.#write(packet((SUBSCRIBE << 4) | 2, [uint16(id), mqttString(topic), Buffer.from([qos])]));
    return done;
  }

  /** QoS 0 resolves once written; QoS 1 on the PUBACK. */
  publish(topic, payload, qos = 1, retain = false) {
    const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
    const first = (PUBLISH << 4) | (retain ? 1 : 0);
    if (qos === 0) {
      this.#write(packet(first, [mqttString(topic), body]));
      return Promise.resolve();
    }
    const id = this.#id();
    const done = this.#wait(id);
    this.#write(packet(first | 2, [mqttString(topic), uint16(id), body]));
    return done;
  }

  /** A clean DISCONNECT, then the socket ends. */
  end() {
    this.#write(DISCONNECT_PACKET);
    this.#socket.end();
  }

  /** Drops the connection without DISCONNECT (the broker publishes the Last Will, if any). */
  destroy() {
    this.#socket.destroy();
  }

  #closed() {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.#ping);
    const error = new Error('connection closed');
    for (const { reject } of this.#pending.values()) reject(error);
    this.#pending.clear();
    this.#onConnack?.(null);
    this.onClose?.();
  }

  #read(chunk) {
    let data = this.#buffered ? Buffer.concat([this.#buffered, chunk]) : chunk;
    this.#buffered = null;
    let offset = 0;
    while (offset < data.length) {
      // Fixed header: type/flags byte, then 1–4 length bytes.
      let length = 0;
      let multiplier = 1;
      let cursor = offset + 1;
      let complete = false;
      while (cursor < data.length && cursor - offset <= 4) {
        const byte = data[cursor++];
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
        if ((byte & 0x80) === 0) {
          complete = true;
          break;
        }
      }
      if (!complete || cursor + length > data.length) break;
      this.#handle(data[offset], data.subarray(cursor, cursor + length));
      offset = cursor + length;
    }
    if (offset < data.length) this.#buffered = Buffer.from(data.subarray(offset));
  }

  #handle(firstByte, body) {
    const type = firstByte >> 4;
    if (type === CONNACK) {
      const onConnack = this.#onConnack;
      this.#onConnack = null;
      onConnack?.(body[1]);
    } else if (type === PUBACK) {
      this.#settle(body.readUInt16BE(0), undefined);
    } else if (type === SUBACK) {
      this.#settle(body.readUInt16BE(0), body[2]);
    } else if (type === PUBLISH) {
      const qos = (firstByte >> 1) & 3;
      const topicLength = body.readUInt16BE(0);
      const topic = body.toString('utf8', 2, 2 + topicLength);
      let start = 2 + topicLength;
      if (qos > 0) {
        const id = body.readUInt16BE(start);
        start += 2;
        this.#write(packet(PUBACK << 4, [uint16(id)]));
      }
      this.onMessage?.(topic, body.subarray(start));
    } else if (type !== PINGRESP) {
      this.destroy(); // nothing else is expected by a client
    }
  }

  #settle(id, value) {
    const waiter = this.#pending.get(id);
    if (!waiter) return;
    this.#pending.delete(id);
    waiter.resolve(value);
  }
}

/**
 * Connects to `mqtt://host:port` and resolves to a LiteClient once the broker accepted the
 * CONNECT; rejects on a refusal (with `returnCode`), a lost connection or the timeout.
 */
export function connectLite(
  url,
  { clientId, username, password, keepalive = 120, timeoutMs = 30_000, will },
) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port || 1883), noDelay: true });
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    const client = new LiteClient(socket, keepalive, (returnCode) => {
      clearTimeout(timer);
      if (returnCode === 0) return resolve(client);
      socket.destroy();
      const error = new Error(
        returnCode === null ? 'connection closed before CONNACK' : `CONNACK ${returnCode}`,
      );
      error.returnCode = returnCode;
      reject(error);
    });
    socket.once('connect', () =>
      socket.write(connectPacket({ clientId, username, password, keepalive, will })),
    );
  });
}
