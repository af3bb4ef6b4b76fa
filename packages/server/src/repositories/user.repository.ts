import type { Kysely, Transaction } from 'kysely';
import type { Database, UsersTable } from '../db/schema.js';

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
