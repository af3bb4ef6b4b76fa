import type { Kysely, Transaction } from 'kysely';
import type { Database, UserProfilesTable, UsersTable } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** A user row with its roles. */
export interface UserRecord extends UsersTable {
  roles: string[];
}

/** Finds a user by e-mail (user names are stored lower-case). */
export async function findUserByName(db: Db, userName: string): Promise<UserRecord | undefined> {
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('user_name', '=', userName.toLowerCase())
    .executeTakeFirst();
  return user ? { ...user, roles: await findRoles(db, user.user_id) } : undefined;
}

/** Finds a user by id. */
export async function findUserById(db: Db, userId: string): Promise<UserRecord | undefined> {
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return user ? { ...user, roles: await findRoles(db, user.user_id) } : undefined;
}

async function findRoles(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('user_roles')
    .select('role')
    .where('user_id', '=', userId)
    .orderBy('role')
    .execute();
  return rows.map((row) => row.role);
}

/** Number of user accounts. */
export async function countUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Inserts a user and its roles (call inside a transaction). */
export async function insertUser(
  db: Db,
  user: UsersTable,
  roles: readonly string[],
): Promise<void> {
  await db
    .insertInto('users')
    .values({ ...user, user_name: user.user_name.toLowerCase() })
    .execute();
  if (roles.length > 0) {
    await db
      .insertInto('user_roles')
      .values(roles.map((role) => ({ user_id: user.user_id, role })))
      .execute();
  }
}

/** Stores a new password hash. */
export async function updatePasswordHash(
  db: Db,
  userId: string,
  passwordHash: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, password_changed_at: now, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
}

/**
 * Stores a new password hash only while the stored one is still `expectedHash` (the one the
 * caller checked the current password against); false when another change came first.
 */
export async function replacePasswordHash(
  db: Db,
  userId: string,
  expectedHash: string,
  passwordHash: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ password_hash: passwordHash, password_changed_at: now, updated_at: now })
    .where('user_id', '=', userId)
    .where('password_hash', '=', expectedHash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// --- User administration (migration 0012) ---

/** A user with its Add User profile, as the admin list and details read it. */
export interface AdminUserRow {
  user_id: string;
  user_name: string;
  super_admin: number;
  has_password: boolean;
  created_at: number;
  first_name: string;
  last_name: string;
  city: string;
  phone_number: string;
  geo_region: string;
  registration_date: string;
  roles: string[];
}

/** The profile columns an admin may set. */
export type UserProfileFields = Pick<
  UserProfilesTable,
  'first_name' | 'last_name' | 'city' | 'phone_number' | 'geo_region' | 'registration_date'
>;

function adminUserQuery(db: Db) {
  return db
    .selectFrom('users')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'users.user_id')
    .select([
      'users.user_id',
      'users.user_name',
      'users.super_admin',
      'users.password_hash',
      'users.created_at',
      'user_profiles.first_name',
      'user_profiles.last_name',
      'user_profiles.city',
      'user_profiles.phone_number',
      'user_profiles.geo_region',
      'user_profiles.registration_date',
    ]);
}

async function withRoles(
  db: Db,
  rows: Awaited<ReturnType<ReturnType<typeof adminUserQuery>['execute']>>,
): Promise<AdminUserRow[]> {
  if (rows.length === 0) return [];
  const roleRows = await db
    .selectFrom('user_roles')
    .select(['user_id', 'role'])
    .where(
      'user_id',
      'in',
      rows.map((row) => row.user_id),
    )
    .orderBy('role')
    .execute();
  const rolesOf = new Map<string, string[]>();
  for (const row of roleRows)
    rolesOf.set(row.user_id, [...(rolesOf.get(row.user_id) ?? []), row.role]);
  return rows.map((row) => ({
    user_id: row.user_id,
    user_name: row.user_name,
    super_admin: Number(row.super_admin),
    has_password: row.password_hash !== null,
    created_at: Number(row.created_at),
    first_name: row.first_name ?? '',
    last_name: row.last_name ?? '',
    city: row.city ?? '',
    phone_number: row.phone_number ?? '',
    geo_region: row.geo_region ?? '',
    registration_date: row.registration_date ?? '',
    roles: rolesOf.get(row.user_id) ?? [],
  }));
}

type SelectUsers = ReturnType<typeof adminUserQuery>;

/** Staff accounts: super admins and holders of any role other than the end-user role. */
function onlyStaff(query: SelectUsers): SelectUsers {
  return query.where((eb) =>
    eb.or([
      eb('users.super_admin', '=', 1),
      eb.exists(
        eb
          .selectFrom('user_roles')
          .select('user_roles.user_id')
          .whereRef('user_roles.user_id', '=', 'users.user_id')
          .where('user_roles.role', '<>', 'user'),
      ),
    ]),
  );
}

/**
 * One page of users ordered by user name, starting at (and including) `startName`; reads one
 * row more than asked so the caller learns the next page's first name.
 */
export async function listAdminUsers(
  db: Db,
  options: { startName?: string; limit: number; everyone: boolean; userName?: string },
): Promise<AdminUserRow[]> {
  let query = adminUserQuery(db);
  if (!options.everyone) query = onlyStaff(query);
  if (options.userName !== undefined) query = query.where('users.user_name', '=', options.userName);
  if (options.startName !== undefined)
    query = query.where('users.user_name', '>=', options.startName);
  const rows = await query
    .orderBy('users.user_name')
    .limit(options.limit + 1)
    .execute();
  return withRoles(db, rows);
}

/** How many users the list holds (staff only unless `everyone`). */
export async function countAdminUsers(db: Db, everyone: boolean): Promise<number> {
  let query = db.selectFrom('users').select((eb) => eb.fn.countAll<number | string>().as('n'));
  if (!everyone)
    query = query.where((eb) =>
      eb.or([
        eb('users.super_admin', '=', 1),
        eb.exists(
          eb
            .selectFrom('user_roles')
            .select('user_roles.user_id')
            .whereRef('user_roles.user_id', '=', 'users.user_id')
            .where('user_roles.role', '<>', 'user'),
        ),
      ]),
    );
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One user with its profile, by user name. */
export async function findAdminUser(db: Db, userName: string): Promise<AdminUserRow | undefined> {
  const rows = await adminUserQuery(db)
    .where('users.user_name', '=', userName.toLowerCase())
    .execute();
  return (await withRoles(db, rows))[0];
}

/** Creates or replaces the profile fields given (the others keep their value). */
export async function upsertUserProfile(
  db: Db,
  userId: string,
  fields: Partial<UserProfileFields>,
  now: number,
  createdBy?: string,
): Promise<void> {
  const existing = await db
    .selectFrom('user_profiles')
    .select('user_id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (existing) {
    if (Object.keys(fields).length === 0) return;
    await db
      .updateTable('user_profiles')
      .set({ ...fields, updated_at: now })
      .where('user_id', '=', userId)
      .execute();
    return;
  }
  await db
    .insertInto('user_profiles')
    .values({
      user_id: userId,
      first_name: fields.first_name ?? '',
      last_name: fields.last_name ?? '',
      city: fields.city ?? '',
      phone_number: fields.phone_number ?? '',
      geo_region: fields.geo_region ?? '',
      registration_date: fields.registration_date ?? '',
      created_by: createdBy ?? null,
      updated_at: now,
    })
    .execute();
}

/** Replaces a user's roles and its super_admin flag. */
export async function replaceUserRoles(
  db: Db,
  userId: string,
  roles: readonly string[],
  now: number,
): Promise<void> {
  await db.deleteFrom('user_roles').where('user_id', '=', userId).execute();
  if (roles.length > 0)
    await db
      .insertInto('user_roles')
      .values(roles.map((role) => ({ user_id: userId, role })))
      .execute();
  await db
    .updateTable('users')
    .set({ super_admin: roles.includes('super_admin') ? 1 : 0, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
}

/** Sets the display name kept on the account (first and last name). */
export async function updateUserDisplayName(
  db: Db,
  userId: string,
  name: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ name, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
}

/** Nodes whose primary user is this user. */
export async function nodesHeldBy(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('nodes')
    .select('node_id')
    .where('primary_user_id', '=', userId)
    .execute();
  return rows.map((row) => row.node_id);
}

/** Clears the primary user of the given nodes. */
export async function releaseNodesOf(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('nodes')
    .set({ primary_user_id: null, claimed_at: null })
    .where('primary_user_id', '=', userId)
    .execute();
}

/**
 * Deletes an account; sessions, roles, mappings, profile and custom data go with it (cascade).
 * False when there was no such account (another request deleted it first).
 */
export async function deleteUserRow(db: Db, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('users').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Super admins' accounts, by the flag or by the role (the two are kept in step). */
function superAdmins(db: Db) {
  return db
    .selectFrom('users')
    .select('users.user_id')
    .where((eb) =>
      eb.or([
        eb('users.super_admin', '=', 1),
        eb.exists(
          eb
            .selectFrom('user_roles')
            .select('user_roles.user_id')
            .whereRef('user_roles.user_id', '=', 'users.user_id')
            .where('user_roles.role', '=', 'super_admin'),
        ),
      ]),
    );
}

/** Whether a super admin other than `userId` exists (by the flag or by the role). */
export async function hasOtherSuperAdmin(db: Db, userId: string): Promise<boolean> {
  const row = await superAdmins(db)
    .where('users.user_id', '<>', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether any super admin exists. */
export async function hasSuperAdmin(db: Db): Promise<boolean> {
  return (await superAdmins(db).limit(1).executeTakeFirst()) !== undefined;
}
