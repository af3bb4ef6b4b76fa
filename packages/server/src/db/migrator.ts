import {
  Migrator,
  type Kysely,
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
} from 'kysely';
import * as m0001 from './migrations/0001-initial.js';
import * as m0002 from './migrations/0002-nodes.js';
import * as m0003 from './migrations/0003-broker-credentials.js';
import * as m0004 from './migrations/0004-groups.js';
import * as m0005 from './migrations/0005-ota.js';
import * as m0006 from './migrations/0006-stats.js';
import * as m0007 from './migrations/0007-faults.js';
import * as m0008 from './migrations/0008-diagnostics.js';
import * as m0009 from './migrations/0009-messaging.js';
import * as m0010 from './migrations/0010-accounts.js';
import * as m0011 from './migrations/0011-identity.js';
import * as m0012 from './migrations/0012-user-admin.js';
import * as m0013 from './migrations/0013-deployment-settings.js';
import * as m0014 from './migrations/0014-node-facet-counts.js';
import * as m0015 from './migrations/0015-code-limits.js';
import * as m0016 from './migrations/0016-sharing-automations.js';
import * as m0017 from './migrations/0017-group-member-counts.js';
import * as m0018 from './migrations/0018-node-id-version.js';
import * as m0019 from './migrations/0019-node-configs.js';
import * as m0020 from './migrations/0020-diag-metric-points-covering.js';
import * as m0021 from './migrations/0021-node-state-type-counts.js';
import * as m0022 from './migrations/0022-ota-history-seq.js';
import * as m0023 from './migrations/0023-counter-lock-order.js';
import type { Database } from './schema.js';

/** Migrations in order; the names are stored in `kysely_migration` on both dialects. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-initial': m0001,
  '0002-nodes': m0002,
  '0003-broker-credentials': m0003,
  '0004-groups': m0004,
  '0005-ota': m0005,
  '0006-stats': m0006,
  '0007-faults': m0007,
  '0008-diagnostics': m0008,
  '0009-messaging': m0009,
  '0010-accounts': m0010,
  '0011-identity': m0011,
  '0012-user-admin': m0012,
  '0013-deployment-settings': m0013,
  '0014-node-facet-counts': m0014,
  '0015-code-limits': m0015,
  '0016-sharing-automations': m0016,
  '0017-group-member-counts': m0017,
  '0018-node-id-version': m0018,
  '0019-node-configs': m0019,
  '0020-diag-metric-points-covering': m0020,
  '0021-node-state-type-counts': m0021,
  '0022-ota-history-seq': m0022,
  '0023-counter-lock-order': m0023,
};

class StaticMigrationProvider implements MigrationProvider {
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(MIGRATIONS);
  }
}

/** Applies every pending migration; throws with the failing migration's name on error. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  // Unordered: a migration merged from a parallel branch (numbered below one already applied)
  // still runs, instead of the server refusing to start.
  const migrator = new Migrator({
    db,
    provider: new StaticMigrationProvider(),
    allowUnorderedMigrations: true,
  });
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`, {
      cause: error,
    });
  }
  return (results ?? [])
    .filter((result) => result.status === 'Success')
    .map((result) => result.migrationName);
}

/** Applies the migrations up to and including `name` (tests of a migration over older data). */
export async function migrateUpTo(db: Kysely<Database>, name: string): Promise<void> {
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider() });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(JSON.stringify(error));
}
