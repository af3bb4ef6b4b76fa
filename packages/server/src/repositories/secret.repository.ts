import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Returns the stored secret `name`, creating it with `create()` on first use. Safe when several
 * instances start at once: the first insert wins and everyone reads the winner back.
 */
export async function getOrCreateSecret(
  db: Kysely<Database>,
  name: string,
  create: () => Promise<string>,
  now: number,
): Promise<string> {
  const existing = await db
    .selectFrom('system_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  if (existing) return existing.value;
  const value = await create();
  await db
    .insertInto('system_secrets')
    .values({ name, value, created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = await db
    .selectFrom('system_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return stored.value;
}
