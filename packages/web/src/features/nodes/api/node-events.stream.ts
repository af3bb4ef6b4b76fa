import type { OtaJobEvent } from '@fleetdeck/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { ensureFreshSession } from '../../../lib/session';
import {
  mergeConnectivityUpdate,
  patchCachedNodeLists,
  type ConnectivityUpdate,
} from '../model/connectivity-cache';
import { nodeKeys } from './nodes.keys';

/** The server-sent event stream (not yet in the contract's API_PATHS). */
export const NODE_EVENTS_PATH = '/v1/events';
export const NODE_CONNECTIVITY_EVENT = 'node.connectivity';
/** A job's executions changed; job screens refetch what they show of it. */
export const OTA_JOB_EVENT = 'ota.job';

/** Updates are applied at most this often, so a reconnect storm re-renders ten times a second. */
export const FLUSH_INTERVAL_MS = 100;
/**
 * Job events are handed over at most this often: each one makes a job screen refetch, and a
 * rollout sends several a second per job.
 */
export const OTA_JOB_FLUSH_INTERVAL_MS = 1_000;
const RECONNECT_BASE_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;
/** EventSource.CLOSED, spelled out so this module also loads where EventSource does not exist. */
const READY_STATE_CLOSED = 2;

/** The part of EventSource the stream uses (a fake stands in for it in tests). */
export interface EventSourceLike {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  close(): void;
}

export interface NodeEventStreamOptions {
  createSource: (url: string) => EventSourceLike;
  /** Turns an event's data into an update, or null when it does not match the contract. */
  parse: (data: unknown) => ConnectivityUpdate | null;
  /** Receives the newest update per node, at most every FLUSH_INTERVAL_MS. */
  onUpdates: (updates: ReadonlyMap<string, ConnectivityUpdate>) => void;
  /** Called when the stream is back after a break: events may have been missed meanwhile. */
  onResync: () => void;
  /** `ota.job` events: merged per job and handed over at most every OTA_JOB_FLUSH_INTERVAL_MS. */
  otaJobs?: {
    /** Turns an event's data into a job event, or null when it does not match the contract. */
    parse: (data: unknown) => OtaJobEvent | null;
    /** Receives the newest event per job; the first arrives at once, later ones throttled. */
    onEvents: (events: ReadonlyMap<string, OtaJobEvent>) => void;
  };
  /** Awaited before each (re)connect, so a spent access token is refreshed first. */
  beforeConnect?: () => Promise<void>;
  random?: () => number;
}

/**
 * How long to wait before reconnection attempt `attempt` (0-based): doubling from 1 s up to
 * 30 s, with jitter so that many dashboards do not come back in the same instant.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, attempt));
  return Math.round(ceiling * (0.5 + random() * 0.5));
}

/**
 * Opens the node event stream and keeps it open until the returned stop function is called.
 * The browser retries a dropped connection by itself; when it gives up (the server answered with
 * an error, e.g. after a restart or a 401), this reconnects with back-off. After any break the
 * cached lists are resynchronised once, because events sent meanwhile are lost.
 */
export function startNodeEventStream(options: NodeEventStreamOptions): () => void {
  const { createSource, parse, onUpdates, onResync, beforeConnect, random, otaJobs } = options;
  let source: EventSourceLike | null = null;
  let stopped = false;
  let attempt = 0;
  let broken = false;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  let pending = new Map<string, ConnectivityUpdate>();
  let pendingJobs = new Map<string, OtaJobEvent>();
  let jobFlushTimer: ReturnType<typeof setTimeout> | undefined;
  let lastJobFlushAt = Number.NEGATIVE_INFINITY;

  const flush = () => {
    flushTimer = undefined;
    if (stopped || pending.size === 0) return;
    const updates = pending;
    pending = new Map();
    onUpdates(updates);
  };

  const flushJobs = () => {
    jobFlushTimer = undefined;
    if (stopped || pendingJobs.size === 0 || otaJobs === undefined) return;
    lastJobFlushAt = Date.now();
    const events = pendingJobs;
    pendingJobs = new Map();
    otaJobs.onEvents(events);
  };

  /** Leading and trailing throttle: a quiet job's first event goes out at once. */
  const scheduleJobFlush = () => {
    if (jobFlushTimer !== undefined) return;
    const wait = Math.max(0, lastJobFlushAt + OTA_JOB_FLUSH_INTERVAL_MS - Date.now());
    jobFlushTimer = setTimeout(flushJobs, wait);
  };

  const scheduleReconnect = () => {
    if (stopped || reconnectTimer !== undefined) return;
    const delay = reconnectDelayMs(attempt, random);
    attempt += 1;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void connect();
    }, delay);
  };

  const connect = async () => {
    try {
      await beforeConnect?.();
    } catch {
      // The refresh failed (offline): try the stream anyway; its own failure backs off.
    }
    if (stopped) return;
    const current = createSource(NODE_EVENTS_PATH);
    source = current;
    current.addEventListener('open', () => {
      if (stopped || source !== current) return;
      attempt = 0;
      if (broken) {
        broken = false;
        onResync();
      }
    });
    current.addEventListener(NODE_CONNECTIVITY_EVENT, (event) => {
      if (stopped || source !== current) return;
      const update = parse(event.data);
      if (update === null) return;
      mergeConnectivityUpdate(pending, update);
      flushTimer ??= setTimeout(flush, FLUSH_INTERVAL_MS);
    });
    if (otaJobs !== undefined) {
      current.addEventListener(OTA_JOB_EVENT, (event) => {
        if (stopped || source !== current) return;
        const jobEvent = otaJobs.parse(event.data);
        if (jobEvent === null) return;
        pendingJobs.set(jobEvent.ota_job_id, jobEvent);
        scheduleJobFlush();
      });
    }
    current.addEventListener('error', () => {
      if (stopped || source !== current) return;
      broken = true;
      if (current.readyState === READY_STATE_CLOSED) {
        current.close();
        source = null;
        scheduleReconnect();
      }
    });
  };

  void connect();

  return () => {
    stopped = true;
    clearTimeout(reconnectTimer);
    clearTimeout(flushTimer);
    clearTimeout(jobFlushTimer);
    source?.close();
    source = null;
  };
}

/** What job screens hear from the stream: changed jobs, or that events may have been missed. */
export type OtaJobNotice =
  { kind: 'jobs'; events: ReadonlyMap<string, OtaJobEvent> } | { kind: 'resync' };

const otaJobListeners = new Set<(notice: OtaJobNotice) => void>();

/**
 * Job screens subscribe here while they are mounted; the shell's one stream feeds them (throttled,
 * see OTA_JOB_FLUSH_INTERVAL_MS). Returns the unsubscribe function.
 */
export function subscribeOtaJobEvents(listener: (notice: OtaJobNotice) => void): () => void {
  otaJobListeners.add(listener);
  return () => {
    otaJobListeners.delete(listener);
  };
}

/** Hands a notice to every subscribed job screen (exported for the stream's tests). */
export function publishOtaJobNotice(notice: OtaJobNotice): void {
  for (const listener of [...otaJobListeners]) listener(notice);
}

/** JSON of an SSE message checked against a contract schema; null when it does not match. */
function parseEventData<T>(
  data: unknown,
  schema: { safeParse: (value: unknown) => { success: true; data: T } | { success: false } },
): T | null {
  if (typeof data !== 'string') return null;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/**
 * Keeps the cached node lists' status dots live while a signed-in user with the fleet
 * permission is in the dashboard: one EventSource for the whole app, closed when the dashboard
 * unmounts (logout, session expiry). The same stream tells subscribed OTA job screens which jobs
 * changed (subscribeOtaJobEvents).
 */
export function useNodeConnectivityStream(enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    loadSchemas()
      .then(({ NodeConnectivityEventSchema, OtaJobEventSchema }) => {
        if (cancelled) return;
        stop = startNodeEventStream({
          createSource: (url) => new EventSource(url),
          parse: (data) => parseEventData(data, NodeConnectivityEventSchema),
          onUpdates: (updates) => patchCachedNodeLists(queryClient, updates),
          otaJobs: {
            parse: (data) => parseEventData(data, OtaJobEventSchema),
            onEvents: (events) => publishOtaJobNotice({ kind: 'jobs', events }),
          },
          onResync: () => {
            void queryClient.invalidateQueries({ queryKey: nodeKeys.lists() });
            publishOtaJobNotice({ kind: 'resync' });
          },
          beforeConnect: ensureFreshSession,
        });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [enabled, queryClient]);
}
