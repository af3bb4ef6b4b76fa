import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { DEFAULT_REDIS_KEY_PREFIX } from '../config/env.js';
import type { Logger } from '../logger.js';
import type { LimiterFactory } from '../services/auth/rate-limiter.js';
import type { NodeEvents, RelayedEvent } from '../services/nodes/node-events.js';
import { redisLimiters } from './redis-window-limiter.js';

/** How long a request waits for Redis before it is answered 503 (limits) or let through (caps). */
const COMMAND_TIMEOUT_MS = 2000;

/** What several instances share through Redis (ADR 38). */
export interface SharedState {
  /** Sign-in, MFA, sign-up and reset windows in Redis. */
  limiters: LimiterFactory;
  /** The command connection (the per-minute request caps of @fastify/rate-limit use it too). */
  redis: Redis;
  /** Keys and channel names start with this. */
  namespace: string;
  /** Tells the other instances (not this one) something their caches must follow. */
  announce(notice: PeerNotice): void;
  /** Hears what other instances announce. */
  onNotice(listener: (notice: PeerNotice) => void): void;
  /** Stops relaying and closes both connections. */
  close(): Promise<void>;
}

/**
 * What one instance tells the others so their caches follow at once: tokens to stop trusting
 * (a logout, a password or role change elsewhere), or configuration that changed.
 */
export type PeerNotice =
  { kind: 'forget-tokens'; userId?: string; sessionId?: string } | { kind: 'config-changed' };

type RelayMessage = { from: string } & (
  { relayed: RelayedEvent; notice?: undefined } | { notice: PeerNotice; relayed?: undefined }
);

function isRelayedEvent(value: unknown): value is RelayedEvent {
  if (typeof value !== 'object' || value === null) return false;
  const relayed = value as Partial<RelayedEvent>;
  return (
    (relayed.kind === 'connectivity' || relayed.kind === 'ota-job') &&
    typeof relayed.event === 'object' &&
    relayed.event !== null
  );
}

function isPeerNotice(value: unknown): value is PeerNotice {
  if (typeof value !== 'object' || value === null) return false;
  const notice = value as { kind?: unknown; userId?: unknown; sessionId?: unknown };
  if (notice.kind === 'config-changed') return true;
  return (
    notice.kind === 'forget-tokens' &&
    (notice.userId === undefined || typeof notice.userId === 'string') &&
    (notice.sessionId === undefined || typeof notice.sessionId === 'string')
  );
}

/** The start-up failure when REDIS_URL does not answer: says what to do. */
export class SharedStateConnectError extends Error {}

/**
 * Connects to Redis (REDIS_URL): one connection for commands and publishing, one subscribed to
 * the deployment's event channel. Connectivity and job events this instance commits are published
 * there; those of other instances reach this one's dashboards. Notices (tokens to forget,
 * configuration changed) travel the same channel. Fails at start-up when Redis does
 * not answer, rather than running with limits that other instances do not see.
 */
export async function connectSharedState(
  url: string,
  events: NodeEvents,
  logger: Logger,
  namespace: string = DEFAULT_REDIS_KEY_PREFIX,
): Promise<SharedState> {
  const instance = randomUUID();
  const channel = `${namespace}events`;
  const redis = new Redis(url, {
    lazyConnect: true,
    connectionName: 'fleetdeck',
    commandTimeout: COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    enableAutoPipelining: true,
  });
  const subscriber = redis.duplicate({ connectionName: 'fleetdeck-events' });
  let lastWarning = 0;
  const warn = (error: unknown, what: string) => {
    // A Redis outage fails every call: one line every 10 s says so without flooding the log.
    const now = Date.now();
    if (now - lastWarning < 10_000) return;
    lastWarning = now;
    logger.warn({ err: error instanceof Error ? error.message : error }, what);
  };
  redis.on('error', (error: unknown) => warn(error, 'Redis (REDIS_URL) connection error'));
  subscriber.on('error', (error: unknown) => warn(error, 'Redis (REDIS_URL) subscriber error'));
  try {
    await redis.connect();
    await redis.ping();
    await subscriber.connect();
    await subscriber.subscribe(channel);
  } catch (error) {
    redis.disconnect();
    subscriber.disconnect();
    throw new SharedStateConnectError(
      `Redis at REDIS_URL did not answer (${error instanceof Error ? error.message : String(error)}): start Redis, fix REDIS_URL, or unset it to keep limits and live updates in this one process.`,
    );
  }
  const noticeListeners: ((notice: PeerNotice) => void)[] = [];
  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    let message: Partial<RelayMessage>;
    try {
      message = JSON.parse(text) as Partial<RelayMessage>;
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null || message.from === instance) return;
    if (isRelayedEvent(message.relayed)) events.deliverRemote(message.relayed);
    const notice = message.notice;
    if (isPeerNotice(notice)) for (const listener of noticeListeners) listener(notice);
  });
  const publish = (message: RelayMessage) => {
    redis
      .publish(channel, JSON.stringify(message))
      .catch((error: unknown) => warn(error, 'a message to other instances could not be sent'));
  };
  events.setRelay((relayed) => publish({ from: instance, relayed }));
  return {
    limiters: redisLimiters(redis, namespace),
    redis,
    namespace,
    announce: (notice) => publish({ from: instance, notice }),
    onNotice: (listener) => {
      noticeListeners.push(listener);
    },
    close: async () => {
      events.setRelay(undefined);
      await Promise.allSettled([subscriber.quit(), redis.quit()]);
    },
  };
}
