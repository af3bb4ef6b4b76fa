import { randomUUID } from 'node:crypto';
import type { Role } from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import { insertUser } from '../../repositories/user.repository.js';
import { assertNotCommon } from '../auth/auth.service.js';
import { hashPassword } from '../auth/password.js';
import { recordUsersCreated } from '../stats/stats-events.js';

/** Creating accounts. (The full user registration with profiles comes with user management.) */
export class UserService {
  constructor(private readonly db: Kysely<Database>) {}

  /** Creates a verified e-mail account with the given roles; returns its user id. */
  async createUser(userName: string, password: string, roles: readonly Role[]): Promise<string> {
    assertNotCommon(password, userName);
    const now = Math.floor(Date.now() / 1000);
    const userId = randomUUID();
    const passwordHash = await hashPassword(password);
    try {
      await this.db.transaction().execute(async (trx) => {
        await insertUser(
          trx,
          {
            user_id: userId,
            user_name: userName,
            password_hash: passwordHash,
            name: '',
            super_admin: roles.includes('super_admin') ? 1 : 0,
            verified: 1,
            mfa: 0,
            phone_number: null,
            created_at: now,
            updated_at: now,
            password_changed_at: now,
          },
          roles,
        );
        await recordUsersCreated(trx, 1, now);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw badRequest('User account already exist', 101006);
      throw error;
    }
    return userId;
  }
}
