import type { Kysely } from 'kysely';

/**
 * Each node's MQTT password also in Mosquitto's own `$7$` (PBKDF2-SHA512) form, written at
 * registration — the only moment the password is known — so the password file of an external
 * broker can be generated at any time later.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('nodes').addColumn('broker_credential', 'varchar(256)').execute();
}

/** Drops the column again. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('nodes').dropColumn('broker_credential').execute();
}
