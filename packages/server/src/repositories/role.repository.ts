import { ROLE_LABELS, ROLE_PERMISSIONS, ROLES } from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { transactionWithRetry } from '../db/transaction-retry.js';

/** Keeps the roles and role_permissions tables equal to the table in `contract`. */
export async function syncRolesFromContract(db: Kysely<Database>): Promise<void> {
  await transactionWithRetry(db, async (trx) => {
    for (const role of ROLES) {
      await trx
        .insertInto('roles')
        .values({ role, label: ROLE_LABELS[role] })
        .onConflict((oc) => oc.column('role').doUpdateSet({ label: ROLE_LABELS[role] }))
        .execute();
    }
    await trx.deleteFrom('role_permissions').execute();
    const rows = ROLES.flatMap((role) =>
      ROLE_PERMISSIONS[role].map((permission) => ({ role, permission })),
    );
    await trx.insertInto('role_permissions').values(rows).execute();
  });
}

/** The permissions stored for the given roles. */
export async function findPermissionsOfRoles(
  db: Kysely<Database>,
  roles: readonly string[],
): Promise<string[]> {
  if (roles.length === 0) return [];
  const rows = await db
    .selectFrom('role_permissions')
    .select('permission')
    .distinct()
    .where('role', 'in', roles)
    .execute();
  return rows.map((row) => row.permission);
}
