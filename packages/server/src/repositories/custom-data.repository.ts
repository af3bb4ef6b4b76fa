import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** The custom-data entries of the given users: user id → key → JSON text of the value. */
export async function customDataOf(
  db: Db,
  userIds: readonly string[],
): Promise<Map<string, Map<string, string>>> {
  const result = new Map<string, Map<string, string>>();
  if (userIds.length === 0) return result;
  const rows = await db
    .selectFrom('user_custom_data')
    .select(['user_id', 'data_key', 'value'])
    .where('user_id', 'in', [...userIds])
    .orderBy('data_key')
    .execute();
  for (const row of rows) {
    const entries = result.get(row.user_id) ?? new Map<string, string>();
    entries.set(row.data_key, row.value);
    result.set(row.user_id, entries);
  }
  return result;
}

/** Writes one entry (insert or replace). */
export async function putCustomData(
  db: Db,
  userId: string,
  key: string,
  value: string,
  now: number,
): Promise<void> {
  const updated = await db
    .updateTable('user_custom_data')
    .set({ value, updated_at: now })
    .where('user_id', '=', userId)
    .where('data_key', '=', key)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0)
    await db
      .insertInto('user_custom_data')
      .values({ user_id: userId, data_key: key, value, updated_at: now })
      .execute();
}

/** Removes one entry. */
export async function deleteCustomData(db: Db, userId: string, key: string): Promise<void> {
  await db
    .deleteFrom('user_custom_data')
    .where('user_id', '=', userId)
    .where('data_key', '=', key)
    .execute();
}
