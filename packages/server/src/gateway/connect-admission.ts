import type net from 'node:net';

export interface ConnectAdmissionOptions {
  /** Connections in their MQTT handshake at once; the others wait in arrival order. */
  maxHandshakes: number;
  /** A handshake stops counting after this long (a client that never sends CONNECT). */
  handshakeSlotMs: number;
  /** A connection that waited longer is closed: the device has given up and will retry. */
  maxWaitMs: number;
}

export const DEFAULT_ADMISSION: ConnectAdmissionOptions = {
  maxHandshakes: 256,
  handshakeSlotMs: 2_000,
  // esp-mqtt waits 10 s for a CONNACK before it reconnects.
  maxWaitMs: 10_000,
};

/**
 * Hands accepted TCP connections to the broker a bounded number at a time, in arrival order.
 *
 * In a reconnect storm thousands of devices connect within seconds, far more than one process
 * can authenticate per second. Without a bound every accepted socket would start its handshake at
 * once and all of them would finish late; here at most `maxHandshakes` run while the rest wait in
 * order, and a connection that waited longer than a device waits for its CONNACK is closed.
 * Node accepts one connection per event-loop turn, so most of a storm waits in the kernel's
 * accept queue (at most net.core.somaxconn, README "Large fleets") before it arrives here.
 */
export class ConnectAdmission {
  private readonly waiting: Array<{ socket: net.Socket; since: number }> = [];
  private head = 0;
  private inHandshake = 0;
  private readonly counting = new WeakSet<net.Socket>();

  constructor(
    private readonly admit: (socket: net.Socket) => void,
    private readonly options: ConnectAdmissionOptions = DEFAULT_ADMISSION,
    private readonly now: () => number = Date.now,
  ) {}

  /** Connections waiting for a handshake slot. */
  get queued(): number {
    return this.waiting.length - this.head;
  }

  /** A new TCP connection. */
  offer(socket: net.Socket): void {
    if (this.inHandshake < this.options.maxHandshakes && this.queued === 0) {
      this.start(socket);
      return;
    }
    // A reset while waiting must not become an unhandled 'error' (the broker listens once admitted).
    socket.on('error', ignoreError);
    this.waiting.push({ socket, since: this.now() });
  }

  /** The socket's handshake is over (accepted, refused or closed): the next one may start. */
  finished(socket: net.Socket): void {
    if (!this.counting.delete(socket)) return;
    this.inHandshake -= 1;
    this.drain();
  }

  private start(socket: net.Socket): void {
    this.inHandshake += 1;
    this.counting.add(socket);
    socket.once('close', () => this.finished(socket));
    setTimeout(() => this.finished(socket), this.options.handshakeSlotMs).unref();
    this.admit(socket);
  }

  private drain(): void {
    while (this.inHandshake < this.options.maxHandshakes && this.queued > 0) {
      const next = this.waiting[this.head]!;
      this.head += 1;
      if (next.socket.destroyed || next.socket.readableEnded) continue;
      if (this.now() - next.since > this.options.maxWaitMs) {
        next.socket.destroy();
        continue;
      }
      next.socket.off('error', ignoreError);
      this.start(next.socket);
    }
    // Compact once the consumed part dominates, so the array does not grow without bound.
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
  }
}

function ignoreError(): void {}
