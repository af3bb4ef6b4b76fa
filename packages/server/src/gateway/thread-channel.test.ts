import { describe, expect, it } from 'vitest';
import type { NodeGatewayPort } from '../services/nodes/node-gateway.port.js';
import { NodePortBridge, callNodePort } from './node-port-bridge.js';
import { ThreadChannel, type ThreadCall, type ThreadCallHandler } from './thread-channel.js';

/** Two channels joined like two threads: batches are cloned and delivered on a later turn. */
function pair(mainHandler: ThreadCallHandler, workerHandler: ThreadCallHandler = () => undefined) {
  const posted: { from: 'worker' | 'main'; calls: ThreadCall[] }[] = [];
  const deliver = (to: () => ThreadChannel, from: 'worker' | 'main') => (calls: ThreadCall[]) => {
    posted.push({ from, calls });
    const copy = structuredClone(calls);
    setImmediate(() => to().receive(copy));
  };
  const worker: ThreadChannel = new ThreadChannel(
    deliver(() => main, 'worker'),
    workerHandler,
  );
  const main: ThreadChannel = new ThreadChannel(
    deliver(() => worker, 'main'),
    mainHandler,
  );
  return { worker, main, posted };
}

describe('ThreadChannel', () => {
  it('posts the calls of one turn as one batch, in the order they were made', async () => {
    const seen: unknown[] = [];
    const { worker, posted } = pair((method, args) => {
      seen.push([method, ...args]);
      return method === 'ask' ? 'answer' : undefined;
    });
    worker.notify('first', 1);
    const answer = worker.request('ask', 2);
    worker.notify('third', { nested: [3] });
    expect(posted).toEqual([]);
    expect(await answer).toBe('answer');
    expect(seen).toEqual([
      ['first', 1],
      ['ask', 2],
      ['third', { nested: [3] }],
    ]);
    expect(posted.filter((p) => p.from === 'worker')).toHaveLength(1);
  });

  it('posts at once when a batch reaches 1,024 calls', () => {
    const { worker, posted } = pair(() => undefined);
    for (let i = 0; i < 1024; i += 1) worker.notify('n', i);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.calls).toHaveLength(1024);
    worker.notify('n', 1024);
    expect(posted).toHaveLength(1);
  });

  it('rejects a request with the other side’s error, keeping its code', async () => {
    const { worker } = pair((method) => {
      if (method === 'sync') throw Object.assign(new Error('port taken'), { code: 'EADDRINUSE' });
      return Promise.reject(new Error('later'));
    });
    await expect(worker.request('sync')).rejects.toMatchObject({
      message: 'port taken',
      code: 'EADDRINUSE',
    });
    await expect(worker.request('async')).rejects.toThrow('later');
  });

  it('keeps running a batch when one notification throws', async () => {
    const seen: number[] = [];
    const { worker } = pair((method, args) => {
      if (method === 'bad') throw new Error('boom');
      seen.push(args[0] as number);
      return true;
    });
    worker.notify('ok', 1);
    worker.notify('bad');
    expect(await worker.request('ok', 2)).toBe(true);
    expect(seen).toEqual([1, 2]);
  });

  it('sends an end-of-batch request after every call of its batch, shared by all who asked', async () => {
    const { worker, posted } = pair(() => 'done');
    worker.notify('a');
    const first = worker.requestAtEndOfBatch('sync');
    worker.notify('b');
    const second = worker.requestAtEndOfBatch('sync');
    expect(second).toBe(first);
    await first;
    const batch = posted.find((p) => p.from === 'worker')?.calls ?? [];
    expect(batch.map((call) => call[0])).toEqual(['a', 'b', 'sync']);
    // The next batch asks again.
    const third = worker.requestAtEndOfBatch('sync');
    expect(third).not.toBe(first);
    expect(await third).toBe('done');
  });

  it('fails open requests when closed, and every later one', async () => {
    const { worker } = pair(() => new Promise(() => undefined));
    const open = worker.request('never');
    const endOfBatch = worker.requestAtEndOfBatch('sync');
    worker.close(new Error('thread gone'));
    await expect(open).rejects.toThrow('thread gone');
    await expect(endOfBatch).rejects.toThrow('thread gone');
    await expect(worker.request('again')).rejects.toThrow('thread gone');
  });
});

describe('NodePortBridge', () => {
  /** The real port's calls as the main thread made them. */
  function recordingPort(log: string[]): NodeGatewayPort {
    const record =
      (name: string) =>
      (...args: unknown[]) => {
        log.push(`${name}:${JSON.stringify(args)}`);
      };
    return {
      authenticateNode: (nodeId: string, password: string) =>
        Promise.resolve(nodeId === 'N1' && password === 'secret'),
      nodeConnected: record('connected'),
      nodeDisconnected: record('disconnected'),
      sweepUnconfirmed: () => Promise.resolve(0),
      nodeConfig: record('config'),
      nodeParams: record('params'),
      nodeAlert: record('alert'),
      nodeUserMapping: record('mapping'),
      nodeOtaFetch: record('otafetch'),
      nodeOtaStatus: record('otastatus'),
      nodeDiagnostics: record('diagnostics'),
      nodeDiagnosticsRejected: record('rejected'),
      whenDurable: () => {
        log.push('whenDurable');
        return Promise.resolve();
      },
      whenAnswered: () => {
        log.push('whenAnswered');
        return Promise.resolve();
      },
      flush: () => Promise.resolve(),
    };
  }

  it('carries the port’s calls to the main thread in order; durability comes after them', async () => {
    const log: string[] = [];
    const port = recordingPort(log);
    const { worker } = pair((method, args) => callNodePort(port, method, args));
    const bridge = new NodePortBridge(worker);
    expect(await bridge.authenticateNode('N1', 'secret')).toBe(true);
    expect(await bridge.authenticateNode('N1', 'wrong')).toBe(false);
    bridge.nodeConnected('N1', 1, 10);
    bridge.nodeParams('N1', { Washer: { Power: true } }, false, 11);
    const durable = bridge.whenDurable();
    bridge.nodeDiagnostics('N1', { message: {}, elfMissing: new Set([2]) }, 12);
    await durable;
    expect(log).toEqual([
      'connected:["N1",1,10]',
      'params:["N1",{"Washer":{"Power":true}},false,11]',
      // A Set crosses as a Set (JSON shows it as {}).
      'diagnostics:["N1",{"message":{},"elfMissing":{}},12]',
      'whenDurable',
    ]);
  });

  it('asks whether a question is answered after handing it over, beside a pending durability wait', async () => {
    const log: string[] = [];
    const port = recordingPort(log);
    const { worker } = pair((method, args) => callNodePort(port, method, args));
    const bridge = new NodePortBridge(worker);
    bridge.nodeOtaFetch('N1', { node_id: 'N1' }, 10);
    // What the embedded broker waits for before it acknowledges an otafetch.
    await Promise.all([bridge.whenDurable(), bridge.whenAnswered()]);
    expect(log[0]).toBe('otafetch:["N1",{"node_id":"N1"},10]');
    expect(log.slice(1).sort()).toEqual(['whenAnswered', 'whenDurable']);
  });

  it('refuses calls that are not the bridged port methods', () => {
    const port = recordingPort([]);
    for (const method of ['sweepUnconfirmed', 'constructor', '__proto__', 'toString', 'x']) {
      expect(() => callNodePort(port, method, [])).toThrow(`not a node port call: ${method}`);
    }
  });
});
