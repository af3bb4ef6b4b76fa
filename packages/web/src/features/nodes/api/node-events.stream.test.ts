import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectivityUpdate } from '../model/connectivity-cache';
import {
  FLUSH_INTERVAL_MS,
  NODE_EVENTS_PATH,
  reconnectDelayMs,
  startNodeEventStream,
  type EventSourceLike,
} from './node-events.stream';

class FakeEventSource implements EventSourceLike {
  readyState = 0;
  closed = false;
  private listeners = new Map<string, ((event: MessageEvent) => void)[]>();

  constructor(readonly url: string) {}

  addEventListener(type: string, listener: (event: MessageEvent) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close(): void {
    this.closed = true;
    this.readyState = 2;
  }

  emit(type: string, data?: string): void {
    if (type === 'open') this.readyState = 1;
    for (const listener of this.listeners.get(type) ?? []) {
      listener(new MessageEvent(type, { data }));
    }
  }

  /** The browser gave up: the server answered with an error status. */
  fail(): void {
    this.readyState = 2;
    this.emit('error');
  }
}

const event = (nodeId: string, connected: boolean, timestamp: number) =>
  JSON.stringify({ type: 'node.connectivity', node_id: nodeId, connected, timestamp });

function parse(data: unknown): ConnectivityUpdate | null {
  if (typeof data !== 'string') return null;
  const value = JSON.parse(data) as Partial<ConnectivityUpdate> & { type?: string };
  if (value.type !== 'node.connectivity' || typeof value.node_id !== 'string') return null;
  return {
    node_id: value.node_id,
    connected: value.connected === true,
    timestamp: value.timestamp ?? 0,
  };
}

function setup() {
  const sources: FakeEventSource[] = [];
  const batches: Map<string, ConnectivityUpdate>[] = [];
  const onResync = vi.fn();
  const stop = startNodeEventStream({
    createSource: (url) => {
      const source = new FakeEventSource(url);
      sources.push(source);
      return source;
    },
    parse,
    onUpdates: (updates) => batches.push(new Map(updates)),
    onResync,
    random: () => 1,
  });
  const latest = () => {
    const source = sources.at(-1);
    if (!source) throw new Error('no source opened');
    return source;
  };
  return { sources, batches, onResync, stop, latest };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('startNodeEventStream', () => {
  it('opens one stream on /v1/events', async () => {
    const { sources, stop } = setup();
    await vi.advanceTimersByTimeAsync(0);
    expect(sources.map((s) => s.url)).toEqual([NODE_EVENTS_PATH]);
    stop();
  });

  it('delivers connectivity changes within the flush interval, newest per node', async () => {
    const { batches, latest, stop } = setup();
    await vi.advanceTimersByTimeAsync(0);
    latest().emit('open');
    latest().emit('node.connectivity', event('a', true, 1));
    latest().emit('node.connectivity', event('a', false, 2));
    latest().emit('node.connectivity', event('b', true, 3));
    expect(batches).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(FLUSH_INTERVAL_MS);
    expect(batches).toHaveLength(1);
    expect([...(batches[0]?.values() ?? [])]).toEqual([
      { node_id: 'a', connected: false, timestamp: 2 },
      { node_id: 'b', connected: true, timestamp: 3 },
    ]);
    stop();
  });

  it('skips events that do not match the contract', async () => {
    const { batches, latest, stop } = setup();
    await vi.advanceTimersByTimeAsync(0);
    latest().emit('node.connectivity', JSON.stringify({ type: 'other' }));
    await vi.advanceTimersByTimeAsync(FLUSH_INTERVAL_MS * 2);
    expect(batches).toHaveLength(0);
    stop();
  });

  it('reconnects with back-off when the browser gives up, and resyncs once it is back', async () => {
    const { sources, onResync, latest, stop } = setup();
    await vi.advanceTimersByTimeAsync(0);
    latest().emit('open');
    expect(onResync).not.toHaveBeenCalled();

    latest().fail();
    expect(sources[0]?.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(reconnectDelayMs(0, () => 1) - 1);
    expect(sources).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sources).toHaveLength(2);

    latest().fail();
    await vi.advanceTimersByTimeAsync(reconnectDelayMs(1, () => 1));
    expect(sources).toHaveLength(3);
    latest().emit('open');
    expect(onResync).toHaveBeenCalledTimes(1);
    stop();
  });

  it('resyncs after the browser reconnected by itself', async () => {
    const { sources, onResync, latest, stop } = setup();
    await vi.advanceTimersByTimeAsync(0);
    latest().emit('open');
    latest().readyState = 0; // CONNECTING: the browser retries on its own
    latest().emit('error');
    latest().emit('open');
    expect(sources).toHaveLength(1);
    expect(onResync).toHaveBeenCalledTimes(1);
    stop();
  });

  it('closes the stream on stop and delivers nothing afterwards', async () => {
    const { batches, latest, stop, sources } = setup();
    await vi.advanceTimersByTimeAsync(0);
    latest().emit('node.connectivity', event('a', true, 1));
    stop();
    expect(latest().closed).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(batches).toHaveLength(0);
    expect(sources).toHaveLength(1);
  });
});

describe('reconnectDelayMs', () => {
  it('doubles from 1 s up to 30 s', () => {
    const top = () => 1;
    expect([0, 1, 2, 3, 4, 5, 6].map((attempt) => reconnectDelayMs(attempt, top))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
  });

  it('spreads reconnects over the upper half of the window', () => {
    expect(reconnectDelayMs(0, () => 0)).toBe(500);
    expect(reconnectDelayMs(3, () => 0.5)).toBe(6_000);
  });
});
