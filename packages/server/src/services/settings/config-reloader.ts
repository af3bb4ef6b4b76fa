import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Logger } from '../../logger.js';
import {
  bumpConfigGeneration,
  readConfigGeneration,
} from '../../repositories/settings.repository.js';

/** Something that caches configuration and can read it again. */
export type ConfigReload = () => Promise<void> | void;

/**
 * Keeps every instance's configuration caches in step (docs/adr/0014): a write that changes
 * cached configuration — or `PUT admin/update_apigateway` — bumps the `config_generation` row;
 * each instance polls it and, when it moved, runs every registered reload. The instance that made
 * the change reloads at once, the others within one poll interval, or at once when they share
 * Redis (REDIS_URL: the change is announced to them, ADR 38).
 */
export class ConfigReloader {
  private readonly reloads = new Map<string, ConfigReload>();
  private generation = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private peers: (() => void) | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly logger: Logger,
    private readonly pollMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Adds a cache to reload; `name` shows in the upgrade answer. */
  register(name: string, reload: ConfigReload): void {
    this.reloads.set(name, reload);
  }

  /** The generation this instance last loaded. */
  get current(): number {
    return this.generation;
  }

  /** Reads the generation and every cache once, then polls (unref'd timer). */
  async start(): Promise<void> {
    this.generation = await readConfigGeneration(this.db);
    await this.reloadAll();
    if (this.pollMs > 0 && !this.timer) {
      this.timer = setInterval(() => {
        this.polling ??= this.poll().then(
          () => {
            this.polling = undefined;
          },
          () => {
            this.polling = undefined;
          },
        );
      }, this.pollMs);
      this.timer.unref();
    }
  }

  /** Stops polling and waits for a poll in flight. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.polling;
  }

  /** Tells the other instances to poll now instead of at their next interval (ADR 38). */
  setPeers(peers: (() => void) | undefined): void {
    this.peers = peers;
  }

  /** Marks configuration as changed for every instance and reloads this one; the new generation. */
  async bump(): Promise<{ generation: number; reloaded: string[] }> {
    this.generation = await bumpConfigGeneration(this.db, Math.floor(this.clock() / 1000));
    this.peers?.();
    return { generation: this.generation, reloaded: await this.reloadAll() };
  }

  /** One poll: reload when another instance moved the generation. */
  async poll(): Promise<boolean> {
    try {
      const seen = await readConfigGeneration(this.db);
      if (seen === this.generation) return false;
      this.generation = seen;
      await this.reloadAll();
      return true;
    } catch (error) {
      this.logger.warn({ err: error }, 'configuration generation poll failed');
      return false;
    }
  }

  private async reloadAll(): Promise<string[]> {
    const done: string[] = [];
    for (const [name, reload] of this.reloads) {
      try {
        await reload();
        done.push(name);
      } catch (error) {
        this.logger.error({ err: error, cache: name }, 'configuration reload failed');
      }
    }
    return done;
  }
}
