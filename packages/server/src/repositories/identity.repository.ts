import type { Insertable, Kysely, Transaction } from 'kysely';
import type {
  AppClientsTable,
  Database,
  IdentityProvidersTable,
  OAuthRequestsTable,
  SocialIdentitiesTable,
} from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** The identity providers of one pool, by type. */
export async function listIdentityProviders(
  db: Db,
  pool: string,
): Promise<IdentityProvidersTable[]> {
  return db
    .selectFrom('identity_providers')
    .selectAll()
    .where('pool', '=', pool)
    .orderBy('provider_type')
    .execute();
}

/** One provider of a pool. */
export async function findIdentityProvider(
  db: Db,
  pool: string,
  providerType: string,
): Promise<IdentityProvidersTable | undefined> {
  return db
    .selectFrom('identity_providers')
    .selectAll()
    .where('pool', '=', pool)
    .where('provider_type', '=', providerType)
    .executeTakeFirst();
}

/** Inserts a provider, or replaces the one of the same pool and type. */
export async function upsertIdentityProvider(db: Db, row: IdentityProvidersTable): Promise<void> {
  const { pool: _pool, provider_type: _type, created_at: _created, ...changes } = row;
  await db
    .insertInto('identity_providers')
    .values(row)
    .onConflict((oc) => oc.columns(['pool', 'provider_type']).doUpdateSet(changes))
    .execute();
}

/** Deletes a provider; whether one was there. */
export async function deleteIdentityProvider(
  db: Db,
  pool: string,
  providerType: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('identity_providers')
    .where('pool', '=', pool)
    .where('provider_type', '=', providerType)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The app clients of a pool, oldest first. */
export async function listAppClients(db: Db, pool: string): Promise<AppClientsTable[]> {
  return db
    .selectFrom('app_clients')
    .selectAll()
    .where('pool', '=', pool)
    .orderBy('created_at')
    .orderBy('client_id')
    .execute();
}

/** Inserts app clients (several at once on restore). */
export async function insertAppClients(db: Db, rows: readonly AppClientsTable[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('app_clients')
    .values([...rows])
    .execute();
}

/** Sets one client's callback URLs and providers; whether it exists in the pool. */
export async function updateAppClient(
  db: Db,
  pool: string,
  clientId: string,
  changes: Pick<AppClientsTable, 'callback_urls' | 'identity_providers' | 'updated_at'>,
): Promise<boolean> {
  const result = await db
    .updateTable('app_clients')
    .set(changes)
    .where('pool', '=', pool)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Removes every app client of a pool (restore puts the backup back in their place). */
export async function deleteAppClientsOfPool(db: Db, pool: string): Promise<void> {
  await db.deleteFrom('app_clients').where('pool', '=', pool).execute();
}

/** The domain of a pool. */
export async function findDomain(
  db: Db,
  pool: string,
): Promise<{ domain_name: string; pool: string } | undefined> {
  return db
    .selectFrom('cognito_domains')
    .select(['domain_name', 'pool'])
    .where('pool', '=', pool)
    .executeTakeFirst();
}

/** The pool a domain name belongs to, if any. */
export async function findDomainByName(
  db: Db,
  domainName: string,
): Promise<{ domain_name: string; pool: string } | undefined> {
  return db
    .selectFrom('cognito_domains')
    .select(['domain_name', 'pool'])
    .where('domain_name', '=', domainName)
    .executeTakeFirst();
}

/** Sets (or replaces) the domain of a pool. */
export async function upsertDomain(
  db: Db,
  pool: string,
  domainName: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('cognito_domains')
    .values({ pool, domain_name: domainName, created_at: now })
    .onConflict((oc) => oc.column('pool').doUpdateSet({ domain_name: domainName, created_at: now }))
    .execute();
}

/** Deletes the domain of a pool; whether there was one. */
export async function deleteDomain(db: Db, pool: string): Promise<boolean> {
  const result = await db.deleteFrom('cognito_domains').where('pool', '=', pool).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The app-client backup of a pool. */
export async function findAppClientBackup(
  db: Db,
  pool: string,
): Promise<{ app_clients: string; client_count: number; created_at: number } | undefined> {
  const row = await db
    .selectFrom('app_client_backups')
    .select(['app_clients', 'client_count', 'created_at'])
    .where('pool', '=', pool)
    .executeTakeFirst();
  return row
    ? { ...row, client_count: Number(row.client_count), created_at: Number(row.created_at) }
    : undefined;
}

/** Stores the backup of a pool, replacing an older one. */
export async function upsertAppClientBackup(
  db: Db,
  pool: string,
  appClients: string,
  clientCount: number,
  now: number,
): Promise<void> {
  await db
    .insertInto('app_client_backups')
    .values({ pool, app_clients: appClients, client_count: clientCount, created_at: now })
    .onConflict((oc) =>
      oc
        .column('pool')
        .doUpdateSet({ app_clients: appClients, client_count: clientCount, created_at: now }),
    )
    .execute();
}

/** The account a provider identity is linked to. */
export async function findSocialIdentity(
  db: Db,
  issuer: string,
  subject: string,
): Promise<SocialIdentitiesTable | undefined> {
  return db
    .selectFrom('social_identities')
    .selectAll()
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

/** Links a provider identity to an account. */
export async function insertSocialIdentity(db: Db, row: SocialIdentitiesTable): Promise<void> {
  await db.insertInto('social_identities').values(row).execute();
}

/** Notes a sign-in through a linked identity. */
export async function touchSocialIdentity(
  db: Db,
  issuer: string,
  subject: string,
  email: string | null,
  now: number,
): Promise<void> {
  await db
    .updateTable('social_identities')
    .set({ last_login_at: now, email })
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .execute();
}

/** Stores a pending sign-in or a one-time code. */
export async function insertOAuthRequest(
  db: Db,
  row: Insertable<OAuthRequestsTable>,
): Promise<void> {
  await db.insertInto('oauth_requests').values(row).execute();
}

/**
 * Marks a live, unused request of the given kind as used and returns it; undefined when it does
 * not exist, has expired or was used already (one conditional update, so two callbacks racing
 * with the same state cannot both win).
 */
export async function claimOAuthRequest(
  db: Db,
  keyHash: string,
  kind: string,
  now: number,
): Promise<OAuthRequestsTable | undefined> {
  const row = await db
    .updateTable('oauth_requests')
    .set({ used_at: now })
    .where('key_hash', '=', keyHash)
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
  return row
    ? {
        ...row,
        created_at: Number(row.created_at),
        expires_at: Number(row.expires_at),
        used_at: row.used_at === null ? null : Number(row.used_at),
      }
    : undefined;
}

/** Deletes requests that expired before `before`. */
export async function purgeOAuthRequests(db: Db, before: number): Promise<void> {
  await db.deleteFrom('oauth_requests').where('expires_at', '<', before).execute();
}
