import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectAdmission, type ConnectAdmissionOptions } from './connect-admission.js';

/** A loopback server whose connections go through an admission gate; records who got in. */
async function gate(options: ConnectAdmissionOptions, now?: () => number) {
  const admitted: net.Socket[] = [];
  const admission = new ConnectAdmission((socket) => admitted.push(socket), options, now);
  const accepted: net.Socket[] = [];
  const server = net.createServer((socket) => {
    accepted.push(socket);
    admission.offer(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const clients: net.Socket[] = [];
  const connect = async (count: number) => {
    for (let i = 0; i < count; i += 1) {
      const client = net.connect(port, '127.0.0.1');
      client.on('error', () => undefined);
      clients.push(client);
      await new Promise((resolve) => client.once('connect', resolve));
    }
    await until(() => accepted.length === clients.length);
  };
  const close = async () => {
    for (const socket of [...clients, ...accepted]) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  return { admission, admitted, accepted, clients, connect, close };
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in 5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

describe('ConnectAdmission', () => {
  it('accepts every connection but hands over at most maxHandshakes, then the rest in order', async () => {
    const g = await gate({ maxHandshakes: 3, handshakeSlotMs: 60_000, maxWaitMs: 60_000 });
    closers.push(g.close);
    await g.connect(7);
    expect(g.admitted).toEqual(g.accepted.slice(0, 3));
    expect(g.admission.queued).toBe(4);

    g.admission.finished(g.admitted[0]!);
    expect(g.admitted).toEqual(g.accepted.slice(0, 4));
    // Finishing the same socket twice frees one slot only.
    g.admission.finished(g.admitted[0]!);
    expect(g.admitted).toHaveLength(4);

    // A closed connection frees its slot too.
    g.admitted[1]!.destroy();
    await until(() => g.admitted.length === 5);
    expect(g.admitted).toEqual(g.accepted.slice(0, 5));
    expect(g.admission.queued).toBe(2);
  });

  it('frees a slot after handshakeSlotMs when the client never finishes', async () => {
    const g = await gate({ maxHandshakes: 1, handshakeSlotMs: 50, maxWaitMs: 60_000 });
    closers.push(g.close);
    await g.connect(2);
    expect(g.admitted).toHaveLength(1);
    await until(() => g.admitted.length === 2);
    expect(g.admitted[1]).toBe(g.accepted[1]);
  });

  it('closes connections that waited longer than maxWaitMs and admits the next one', async () => {
    let clock = 0;
    const g = await gate(
      { maxHandshakes: 1, handshakeSlotMs: 60_000, maxWaitMs: 1_000 },
      () => clock,
    );
    closers.push(g.close);
    await g.connect(2);
    clock = 500;
    await g.connect(1);
    clock = 1_200; // the second connection has waited 1.2 s, the third 0.7 s
    g.admission.finished(g.admitted[0]!);
    expect(g.accepted[1]!.destroyed).toBe(true);
    expect(g.admitted).toEqual([g.accepted[0], g.accepted[2]]);
    expect(g.admission.queued).toBe(0);
    // The device sees its connection closed and retries on its own schedule.
    await until(() => g.clients[1]!.destroyed || g.clients[1]!.readableEnded);
  });

  it('skips a waiting connection whose socket is already gone', async () => {
    const g = await gate({ maxHandshakes: 1, handshakeSlotMs: 60_000, maxWaitMs: 60_000 });
    closers.push(g.close);
    await g.connect(3);
    g.accepted[1]!.destroy();
    g.admission.finished(g.admitted[0]!);
    expect(g.admitted).toEqual([g.accepted[0], g.accepted[2]]);
  });
});
