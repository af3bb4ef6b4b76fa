import { ROLE_PERMISSIONS, ROLES } from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { syncRolesFromContract } from '../src/repositories/role.repository.js';
import { bootstrapFirstSuperAdmin } from '../src/services/auth/bootstrap-admin.js';
import { createTestDatabase } from './helpers/test-database.js';

/**
 * Several instances started at once on one fresh PostgreSQL database (a scaled deployment's first
 * rollout, or every instance restarted together) run the start-up steps of main.ts side by side:
 * none of them may fail, and what they leave is what one start leaves.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('instances starting at once (PostgreSQL)', () => {
  const INSTANCES = 4;
  let cleanup: () => Promise<void>;
  let databases: DatabaseHandle[] = [];

  beforeAll(async () => {
    const created = await createTestDatabase('postgres');
    cleanup = created.cleanup;
    databases = Array.from({ length: INSTANCES }, () =>
      openDatabase({ databaseUrl: created.env.DATABASE_URL, dataDir: created.env.DATA_DIR! }),
    );
  });
  afterAll(async () => {
    await Promise.all(databases.map((database) => database.close()));
    await cleanup?.();
  });

  it('migrate, sync the roles and create one first super admin, however they interleave', async () => {
    const expected = ROLES.flatMap((role) => ROLE_PERMISSIONS[role].map((p) => `${role}:${p}`));
    for (let round = 0; round < 10; round += 1) {
      const results = await Promise.allSettled(
        databases.map(async (database) => {
          await migrateToLatest(database.db);
          await syncRolesFromContract(database.db);
          return bootstrapFirstSuperAdmin(database.db, {
            email: 'first@fleetdeck.test',
            password: undefined,
          });
        }),
      );
      const failures = results.flatMap((result) =>
        result.status === 'rejected' ? [String(result.reason)] : [],
      );
      expect(failures, `round ${round}`).toEqual([]);
      // One instance created the account (and shows its generated password) in the first round.
      const created = results.filter(
        (result) => result.status === 'fulfilled' && result.value !== undefined,
      );
      expect(created).toHaveLength(round === 0 ? 1 : 0);

      const db = databases[0]!.db;
      const permissions = await db
        .selectFrom('role_permissions')
        .select(['role', 'permission'])
        .execute();
      expect(permissions.map((row) => `${row.role}:${row.permission}`).sort()).toEqual(
        [...expected].sort(),
      );
      const roles = await db.selectFrom('roles').select('role').execute();
      expect(roles.map((row) => row.role).sort()).toEqual([...ROLES].sort());
      const users = await db.selectFrom('users').select('user_name').execute();
      expect(users).toEqual([{ user_name: 'first@fleetdeck.test' }]);
    }
  });
});
