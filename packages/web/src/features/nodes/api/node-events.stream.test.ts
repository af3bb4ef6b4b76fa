import type { OtaJobEvent } from '@fleetdeck/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectivityUpdate } from '../model/connectivity-cache';
import {
  FLUSH_INTERVAL_MS,
  NODE_EVENTS_PATH,
  OTA_JOB_FLUSH_INTERVAL_MS,
  publishOtaJobNotice,
  reconnectDelayMs,
  startNodeEventStream,
  subscribeOtaJobEvents,
  type EventSourceLike,
  type OtaJobNotice,
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

describe('ota.job events', () => {
  const jobEvent = (jobId: string, status: 'active' | 'finished' | 'cancelled') =>
    JSON.stringify({ type: 'ota.job', ota_job_id: jobId, status });

  function setupWithJobs() {
    const sources: FakeEventSource[] = [];
    const jobBatches: Map<string, OtaJobEvent>[] = [];
    const connectivity: Map<string, ConnectivityUpdate>[] = [];
    const stop = startNodeEventStream({
      createSource: (url) => {
        const source = new FakeEventSource(url);
        sources.push(source);
        return source;
      },
      parse,
      onUpdates: (updates) => connectivity.push(new Map(updates)),
      onResync: () => undefined,
      otaJobs: {
        parse: (data) => {
          const value = JSON.parse(String(data)) as Partial<OtaJobEvent>;
          return value.type === 'ota.job' && typeof value.ota_job_id === 'string'
            ? (value as OtaJobEvent)
            : null;
        },
        onEvents: (events) => jobBatches.push(new Map(events)),
      },
      random: () => 1,
    });
    const latest = () => {
      const source = sources.at(-1);
      if (!source) throw new Error('no source opened');
      return source;
    };
    return { jobBatches, connectivity, latest, stop };
  }

  it('hands the first job event over at once and later ones at most once a second', async () => {
    const { jobBatches, latest, stop } = setupWithJobs();
    await vi.advanceTimersByTimeAsync(0);
    latest().emit('ota.job', jobEvent('j1', 'active'));
    await vi.advanceTimersByTimeAsync(0);
    expect(jobBatches).toHaveLength(1);

    for (let i = 0; i < 20; i += 1) {
      latest().emit('ota.job', jobEvent('j1', 'active'));
      latest().emit('ota.job', jobEvent('j2', i === 19 ? 'finished' : 'active'));
      await vi.advanceTimersByTimeAsync(50);
    }
    // 1 s of events (40 of them): one batch at the 1 s mark, the newest event per job.
    expect(jobBatches).toHaveLength(2);
    expect([...(jobBatches[1]?.keys() ?? [])]).toEqual(['j1', 'j2']);
    expect(jobBatches[1]?.get('j2')?.status).toBe('finished');

    latest().emit('ota.job', jobEvent('j3', 'active'));
    await vi.advanceTimersByTimeAsync(OTA_JOB_FLUSH_INTERVAL_MS - 1);
    expect(jobBatches).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(jobBatches).toHaveLength(3);
    expect([...(jobBatches[2]?.keys() ?? [])]).toEqual(['j3']);
    stop();
  });

  it('keeps job events apart from connectivity and drops ones that do not match', async () => {
    const { jobBatches, connectivity, latest, stop } = setupWithJobs();
    await vi.advanceTimersByTimeAsync(0);
    latest().emit('ota.job', JSON.stringify({ type: 'other' }));
    latest().emit('node.connectivity', event('a', true, 1));
    await vi.advanceTimersByTimeAsync(OTA_JOB_FLUSH_INTERVAL_MS);
    expect(jobBatches).toHaveLength(0);
    expect(connectivity).toHaveLength(1);
    stop();
  });

  it('delivers no job event after stop', async () => {
    const { jobBatches, latest, stop } = setupWithJobs();
    await vi.advanceTimersByTimeAsync(0);
    latest().emit('ota.job', jobEvent('j1', 'active'));
    await vi.advanceTimersByTimeAsync(0);
    latest().emit('ota.job', jobEvent('j1', 'finished'));
    stop();
    await vi.advanceTimersByTimeAsync(OTA_JOB_FLUSH_INTERVAL_MS * 3);
    expect(jobBatches).toHaveLength(1);
  });
});

describe('subscribeOtaJobEvents', () => {
  it('passes notices to subscribers until they unsubscribe', () => {
    const heard: OtaJobNotice[] = [];
    const unsubscribe = subscribeOtaJobEvents((notice) => heard.push(notice));
    publishOtaJobNotice({ kind: 'resync' });
    unsubscribe();
    publishOtaJobNotice({ kind: 'resync' });
    expect(heard).toEqual([{ kind: 'resync' }]);
  });
});
