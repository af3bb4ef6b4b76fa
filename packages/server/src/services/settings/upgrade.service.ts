import { formatMessage, SETTINGS_MESSAGES, type UpgradeApisResponse } from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import { migrateToLatest } from '../../db/migrator.js';
import type { Database } from '../../db/schema.js';
import type { ConfigReloader } from './config-reloader.js';

/**
 * "Upgrade APIs": what RainMaker does by redeploying its API gateway stage, Fleetdeck does by
 * applying pending migrations (after an upgrade of the server binary) and reloading the API
 * configuration on every instance.
 */
export class UpgradeService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly reloader: ConfigReloader,
    private readonly migrate: (db: Kysely<Database>) => Promise<string[]> = migrateToLatest,
  ) {}

  /** Applies pending migrations, bumps the configuration generation and says what it did. */
  async upgrade(): Promise<Omit<UpgradeApisResponse, 'status'>> {
    const applied = await this.migrate(this.db);
    const { generation, reloaded } = await this.reloader.bump();
    return {
      description: formatMessage(SETTINGS_MESSAGES.upgradeDone, {
        count: applied.length,
        names: applied.length > 0 ? ` (${applied.join(', ')})` : '',
        generation,
        reloaded:
          reloaded.length > 0 ? reloaded.join(', ') : SETTINGS_MESSAGES.upgradeNothingReloaded,
      }),
      applied_migrations: applied,
      config_generation: generation,
      reloaded,
    };
  }
}
