import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, LicenseFilesTable } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** A named deployment value, or undefined. */
export async function readConfigValue(
  db: Db,
  name: string,
): Promise<{ value: string; updated_at: number } | undefined> {
  const row = await db
    .selectFrom('deployment_config')
    .select(['value', 'updated_at'])
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? { value: row.value, updated_at: Number(row.updated_at) } : undefined;
}

/** Inserts or replaces a named deployment value. */
export async function writeConfigValue(
  db: Db,
  name: string,
  value: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('deployment_config')
    .values({ name, value, updated_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: now }))
    .execute();
}

/** Removes a named deployment value; whether it existed. */
export async function deleteConfigValue(db: Db, name: string): Promise<boolean> {
  const result = await db
    .deleteFrom('deployment_config')
    .where('name', '=', name)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Adds one to the configuration generation in a single statement (safe with several instances
 * bumping at once) and returns the new value.
 */
export async function bumpConfigGeneration(db: Db, now: number): Promise<number> {
  await db
    .updateTable('deployment_config')
    .set({
      value: sql<string>`cast(cast(value as integer) + 1 as varchar(32))`,
      updated_at: now,
    })
    .where('name', '=', 'config_generation')
    .execute();
  return readConfigGeneration(db);
}

/** The current configuration generation (1 after installation). */
export async function readConfigGeneration(db: Db): Promise<number> {
  const row = await readConfigValue(db, 'config_generation');
  return row ? Number(row.value) : 0;
}

/** Every stored licence file, newest first. */
export async function listLicenseFiles(db: Db): Promise<LicenseFilesTable[]> {
  return db.selectFrom('license_files').selectAll().orderBy('date_modified', 'desc').execute();
}

/** Replaces the licence: one current file, whatever its name. */
export async function replaceLicenseFile(db: Db, file: LicenseFilesTable): Promise<void> {
  await db.deleteFrom('license_files').execute();
  await db.insertInto('license_files').values(file).execute();
}
