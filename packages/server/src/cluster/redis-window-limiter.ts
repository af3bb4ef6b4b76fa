import { createHash, randomUUID } from 'node:crypto';
import { ERROR_CODES, SERVER_MESSAGES } from '@fleetdeck/contract';
import type { Redis } from 'ioredis';
import { AppError } from '../errors.js';
import type { LimiterFactory, WindowLimiter, WindowPlace } from '../services/auth/rate-limiter.js';

/**
 * One key's window is a sorted set: a member per event (its ticket), scored by the event's time.
 * Taking a place drops what slid out of the window, counts, and adds the ticket in one script, so
 * instances taking places at the same moment never overshoot the limit. Answers the places left
 * after this one, or -1 when the window was full.
 */
const TAKE_SCRIPT = `
local cutoff = tonumber(ARGV[1]) - tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', cutoff)
local count = redis.call('ZCARD', KEYS[1])
local limit = tonumber(ARGV[3])
if count >= limit then return -1 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return limit - count - 1
`;

/** The commands the limiter defines on its connection. */
interface LimiterCommands {
  fleetdeckTakePlace(
    key: string,
    now: number,
    windowMs: number,
    limit: number,
    ticket: string,
  ): Promise<number>;
}

/** The shared store failed or did not answer in time: nothing was checked, so nothing passes. */
export function sharedStateUnavailable(): AppError {
  return new AppError(
    503,
    ERROR_CODES.sharedStateUnavailable,
    SERVER_MESSAGES.sharedStateUnavailable,
  );
}

async function orUnavailable<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch {
    throw sharedStateUnavailable();
  }
}

/**
 * A sliding-window limiter shared by every instance through Redis (ADR 38). Keys hold a hash of
 * the account, address or IP, never the text itself. A Redis failure answers 503: a limit that
 * cannot be checked is not waved through.
 */
export class RedisWindowLimiter implements WindowLimiter {
  private readonly redis: Redis & LimiterCommands;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {
    const withCommands = redis as Redis & Partial<LimiterCommands>;
    if (!withCommands.fleetdeckTakePlace)
      redis.defineCommand('fleetdeckTakePlace', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.redis = redis as Redis & LimiterCommands;
  }

  private key(key: string): string {
    return `${this.prefix}${createHash('sha256').update(key).digest('base64url')}`;
  }

  async take(key: string): Promise<WindowPlace | undefined> {
    const ticket = randomUUID();
    const left = await orUnavailable(
      this.redis.fleetdeckTakePlace(this.key(key), this.now(), this.windowMs, this.limit, ticket),
    );
    return left < 0 ? undefined : { ticket, left };
  }

  async isFull(key: string): Promise<boolean> {
    const inWindow = await orUnavailable(
      this.redis.zcount(this.key(key), `(${this.now() - this.windowMs}`, '+inf'),
    );
    return inWindow >= this.limit;
  }

  async giveBack(key: string, ticket: string): Promise<void> {
    await orUnavailable(this.redis.zrem(this.key(key), ticket));
  }

  async reset(key: string): Promise<void> {
    await orUnavailable(this.redis.del(this.key(key)));
  }
}

/** Limiters whose windows live in Redis under `<namespace>limit:<name>:`. */
export function redisLimiters(redis: Redis, namespace: string): LimiterFactory {
  return (name, limit, windowMs, clock) =>
    new RedisWindowLimiter(redis, `${namespace}limit:${name}:`, limit, windowMs, clock);
}
