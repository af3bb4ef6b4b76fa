import { randomInt, randomUUID } from 'node:crypto';
import { NewPasswordSchema, UserNameSchema } from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { countUsers, insertUser } from '../../repositories/user.repository.js';
import { assertNotCommon } from './auth.service.js';
import { hashPassword } from './password.js';
import { recordUsersCreated } from '../stats/stats-events.js';
import { transactionWithRetry } from '../../db/transaction-retry.js';

/** The default e-mail of the first super admin when FLEETDECK_ADMIN_EMAIL is not set. */
export const DEFAULT_ADMIN_EMAIL = 'admin@fleetdeck.local';

/** What the first start created, so `main` can print it once. */
export interface BootstrapResult {
  userName: string;
  /** Present only when Fleetdeck generated the password (it is never stored in clear). */
  generatedPassword: string | undefined;
}

const ALPHABET = {
  upper: 'ABCDEFGHJKLMNPQRSTUVWXYZ',
  lower: 'abcdefghijkmnopqrstuvwxyz',
  digit: '23456789',
};

/** A 20-character random password with upper, lower and digits (about 115 bits). */
export function generateStrongPassword(length = 20): string {
  const all = ALPHABET.upper + ALPHABET.lower + ALPHABET.digit;
  const pick = (set: string) => set.charAt(randomInt(set.length));
  const chars = [pick(ALPHABET.upper), pick(ALPHABET.lower), pick(ALPHABET.digit)];
  while (chars.length < length) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j] as string, chars[i] as string];
  }
  return chars.join('');
}

/**
 * Creates the first super admin when the database has no users: from the configured e-mail and
 * password, or with a generated password. Does nothing on later starts. Safe when several
 * instances start at once (the unique user name decides).
 */
export async function bootstrapFirstSuperAdmin(
  db: Kysely<Database>,
  options: { email: string | undefined; password: string | undefined },
): Promise<BootstrapResult | undefined> {
  if ((await countUsers(db)) > 0) return undefined;
  const email = UserNameSchema.safeParse(options.email ?? DEFAULT_ADMIN_EMAIL);
  if (!email.success)
    throw new Error(
      'FLEETDECK_ADMIN_EMAIL must be a valid e-mail address of at most 64 characters.',
    );
  let password = options.password;
  if (password !== undefined) {
    if (!NewPasswordSchema.safeParse(password).success) {
      throw new Error(
        'FLEETDECK_ADMIN_PASSWORD must be 8 to 64 characters with an uppercase letter, a lowercase letter and a digit.',
      );
    }
    try {
      assertNotCommon(password, email.data);
    } catch {
      throw new Error('FLEETDECK_ADMIN_PASSWORD is a well-known password; choose another one.');
    }
  }
  const generated = password === undefined;
  password ??= generateStrongPassword();
  const now = Math.floor(Date.now() / 1000);
  const passwordHash = await hashPassword(password);
  try {
    await transactionWithRetry(db, async (trx) => {
      if ((await countUsers(trx)) > 0) throw new AlreadyBootstrapped();
      await insertUser(
        trx,
        {
          user_id: randomUUID(),
          user_name: email.data,
          password_hash: passwordHash,
          name: 'Administrator',
          super_admin: 1,
          verified: 1,
          mfa: 0,
          phone_number: null,
          created_at: now,
          updated_at: now,
          password_changed_at: now,
        },
        ['super_admin'],
      );
      await recordUsersCreated(trx, 1, now);
    });
  } catch (error) {
    if (error instanceof AlreadyBootstrapped || isUniqueViolation(error)) return undefined;
    throw error;
  }
  return { userName: email.data, generatedPassword: generated ? password : undefined };
}

class AlreadyBootstrapped extends Error {}
