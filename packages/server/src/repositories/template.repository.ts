import type { Kysely, Transaction } from 'kysely';
import type { Database, MessageTemplatesTable, SenderAddressesTable } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** The stored template of a type, if an admin saved one. */
export async function findTemplate(
  db: Db,
  templateType: string,
): Promise<MessageTemplatesTable | undefined> {
  return db
    .selectFrom('message_templates')
    .selectAll()
    .where('template_type', '=', templateType)
    .executeTakeFirst();
}

/** Stores a template (insert or replace). */
export async function saveTemplate(db: Db, template: MessageTemplatesTable): Promise<void> {
  const { template_type: templateType, ...fields } = template;
  const updated = await db
    .updateTable('message_templates')
    .set(fields)
    .where('template_type', '=', templateType)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0)
    await db.insertInto('message_templates').values(template).execute();
}

/** Templates that send from this address. */
export async function templatesUsingSender(db: Db, email: string): Promise<string[]> {
  const rows = await db
    .selectFrom('message_templates')
    .select('template_type')
    .where('from_email_address', '=', email)
    .execute();
  return rows.map((row) => row.template_type);
}

/** Every sender address, verified or pending, by address. */
export async function listSenders(db: Db): Promise<SenderAddressesTable[]> {
  return db.selectFrom('sender_addresses').selectAll().orderBy('email').execute();
}

/** One sender address. */
export async function findSender(db: Db, email: string): Promise<SenderAddressesTable | undefined> {
  return db
    .selectFrom('sender_addresses')
    .selectAll()
    .where('email', '=', email)
    .executeTakeFirst();
}

/** Records a verification request (a pending sender), keeping an earlier verification. */
export async function upsertPendingSender(
  db: Db,
  email: string,
  requestedBy: string,
  now: number,
): Promise<void> {
  const updated = await db
    .updateTable('sender_addresses')
    .set({ requested_by: requestedBy, requested_at: now })
    .where('email', '=', email)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0)
    await db
      .insertInto('sender_addresses')
      .values({ email, requested_by: requestedBy, requested_at: now, verified_at: null })
      .execute();
}

/** Marks a sender verified. */
export async function markSenderVerified(db: Db, email: string, now: number): Promise<void> {
  await db
    .updateTable('sender_addresses')
    .set({ verified_at: now })
    .where('email', '=', email)
    .execute();
}

/** Removes a sender address. */
export async function deleteSender(db: Db, email: string): Promise<boolean> {
  const result = await db
    .deleteFrom('sender_addresses')
    .where('email', '=', email)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
