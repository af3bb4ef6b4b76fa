import net from 'node:net';

/**
 * A TCP relay in front of a real service (PostgreSQL, Redis…) on 127.0.0.1: `cut()` ends every
 * connection through it, as a restart, a failover or a proxy would; `mute()` keeps the
 * connections open and forwards nothing either way, as a service that hangs would (a stopped
 * process, a stuck disk), until `unmute()`.
 */
export class Relay {
  private readonly sockets = new Set<net.Socket>();
  private server: net.Server | undefined;
  private muted = false;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    if (this.server) return;
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => {
          this.sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
      if (this.muted) {
        client.pause();
        upstream.pause();
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', resolve);
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  cut(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  /**
   * From now on nothing passes, in either direction, and nobody is told: what is sent waits in
   * the relay, as it would in the buffers of a hung process, and passes on `unmute()`.
   */
  mute(): void {
    this.muted = true;
    for (const socket of this.sockets) socket.pause();
  }

  unmute(): void {
    this.muted = false;
    for (const socket of this.sockets) socket.resume();
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.cut();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/**
 * A peer that accepts TCP connections on 127.0.0.1 and never says a word: an SMTP host, an
 * object store or a push service that hangs. It keeps what it receives, so a test can see that
 * the other side got as far as it did.
 */
export class SilentPeer {
  private readonly sockets = new Set<net.Socket>();
  private readonly server = net.createServer((socket) => {
    this.sockets.add(socket);
    this.accepted += 1;
    socket.on('error', () => undefined);
    socket.on('close', () => this.sockets.delete(socket));
  });
  /** Connections accepted so far. */
  accepted = 0;
  port = 0;

  async open(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', resolve);
    });
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  /** Connections still open (the other side has not given up yet). */
  get openConnections(): number {
    return this.sockets.size;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
