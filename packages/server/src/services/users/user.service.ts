import { randomUUID } from 'node:crypto';
import {
  CUSTOM_DATA_KEY_PATTERN,
  CUSTOM_DATA_MAX_BYTES,
  ERROR_CODES,
  INVITE_MESSAGE_TEMPLATE_TYPE,
  ROLE_LABELS,
  SERVER_MESSAGES,
  isRole,
  type AdminUser,
  type CreateUserBody,
  type CustomDataMap,
  type CustomDataQuery,
  type CustomDataUpdate,
  type Role,
  type UpdateUserBody,
  type UserList,
} from '@fleetdeck/contract';
import type { Kysely, Transaction } from 'kysely';
import { isUniqueViolation } from '../../db/database.js';
import { lockAccountsAndSuperAdmins, lockNodeOwnership } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import { AppError, badRequest, forbidden, notFound } from '../../errors.js';
import {
  customDataOf,
  deleteCustomData,
  putCustomData,
} from '../../repositories/custom-data.repository.js';
import {
  countAdminUsers,
  deleteUserRow,
  findAdminUser,
  findUserById,
  findUserByName,
  hasOtherSuperAdmin,
  hasSuperAdmin,
  insertUser,
  listAdminUsers,
  nodesHeldBy,
  releaseNodesOf,
  replaceUserRoles,
  updateUserDisplayName,
  upsertUserProfile,
  type AdminUserRow,
  type UserProfileFields,
  type UserRecord,
} from '../../repositories/user.repository.js';
import { revokeUserSessions } from '../../repositories/session.repository.js';
import type { AuthService, AuthUser } from '../auth/auth.service.js';
import { assertNotCommon } from '../auth/auth.service.js';
import { hashPassword } from '../auth/password.js';
import type { MessagingService } from '../messaging/messaging.service.js';
import type { VerificationCodes } from '../messaging/verification-codes.js';
import { recordRelease, recordUsersCreated } from '../stats/stats-events.js';
import type { TemplateService } from '../templates/template.service.js';
import { transactionWithRetry } from '../../db/transaction-retry.js';

/** An invitation code lets its user set a first password for a week. */
export const INVITE_CODE_TTL_SECONDS = 7 * 24 * 3600;
/** A deletion code is good for ten minutes. */
const DELETE_CODE_TTL_SECONDS = 10 * 60;

/** What user administration needs besides the database. */
export interface UserServiceDeps {
  auth: AuthService;
  messaging: MessagingService;
  codes: VerificationCodes;
  templates: TemplateService;
  publicUrl: string;
  clock?: () => number;
}

/**
 * The code check outcome → the failure the caller sees. A code burnt by wrong guesses is a limit
 * hit, so it answers 429 like every other limit (QUALITY.md S3), keeping the spec's own code and
 * message that tell the admin to request the deletion again.
 */
function codeFailure(reason: 'invalid' | 'expired' | 'exhausted'): AppError {
  switch (reason) {
    case 'expired':
      return badRequest(SERVER_MESSAGES.userDeleteCodeExpired, ERROR_CODES.verificationCodeExpired);
    case 'exhausted':
      return new AppError(
        429,
        ERROR_CODES.userDeleteAttemptsExceeded,
        SERVER_MESSAGES.userDeleteAttemptsExceeded,
      );
    case 'invalid':
      return badRequest(
        SERVER_MESSAGES.userDeleteCodeIncorrect,
        ERROR_CODES.userDeleteCodeIncorrect,
      );
  }
}

/** A super admin by flag or by role (the two are kept in step, but either one counts). */
function isSuperAdmin(row: Pick<AdminUserRow, 'super_admin' | 'roles'>): boolean {
  return row.super_admin === 1 || row.roles.includes('super_admin');
}

function parseValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function customDataMap(entries: Map<string, string> | undefined): CustomDataMap {
  const map: CustomDataMap = {};
  for (const [key, value] of entries ?? []) map[key] = { value: parseValue(value) };
  return map;
}

function present(row: AdminUserRow, custom: Map<string, string> | undefined): AdminUser {
  const roles =
    row.super_admin === 1 && !row.roles.includes('super_admin')
      ? ['super_admin', ...row.roles]
      : row.roles;
  return {
    user_id: row.user_id,
    user_name: row.user_name,
    user_role: roles,
    super_admin: row.super_admin === 1,
    first_name: row.first_name,
    last_name: row.last_name,
    city: row.city,
    phone_number: row.phone_number,
    geo_region: row.geo_region,
    registration_date: row.registration_date,
    password_set: row.has_password,
    custom_data: customDataMap(custom),
    created_at: row.created_at,
  };
}

function profileFields(body: Partial<UserProfileFields>): Partial<UserProfileFields> {
  const fields: Partial<UserProfileFields> = {};
  for (const key of [
    'first_name',
    'last_name',
    'city',
    'phone_number',
    'geo_region',
    'registration_date',
  ] as const) {
    const value = body[key];
    if (value !== undefined) fields[key] = value;
  }
  return fields;
}

/**
 * User administration for super admins: accounts with their Add User profile, invitations built
 * from the INVITE_MESSAGE template, custom data, and deletion confirmed by a code mailed to the
 * admin who asks for it.
 */
export class UserService {
  private readonly clock: () => number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly deps: UserServiceDeps,
  ) {
    this.clock = deps.clock ?? Date.now;
  }

  private now(): number {
    return Math.floor(this.clock() / 1000);
  }

  /** Creates a verified e-mail account with a password and roles; returns its user id. */
  async createUser(userName: string, password: string, roles: readonly Role[]): Promise<string> {
    return (await this.create({ user_name: userName, password, roles: [...roles] }, undefined))
      .userId;
  }

  /**
   * Creates an account with its profile. Without a password the account is unverified and its
   * owner receives the invitation; if that mail cannot be sent, the account is removed again so
   * the admin can simply retry.
   */
  async create(
    body: CreateUserBody,
    actor: AuthUser | undefined,
  ): Promise<{ userId: string; invited: boolean }> {
    const roles = body.roles.filter(isRole);
    if (roles.includes('super_admin') && actor && !actor.superAdmin)
      throw forbidden(SERVER_MESSAGES.onlySuperAdminGrantsSuperAdmin);
    if (body.password) assertNotCommon(body.password, body.user_name);
    const now = this.now();
    const userId = randomUUID();
    const passwordHash = body.password ? await hashPassword(body.password) : null;
    const fields = profileFields(body);
    const name = [body.first_name, body.last_name].filter(Boolean).join(' ');
    try {
      await transactionWithRetry(this.db, async (trx) => {
        await insertUser(
          trx,
          {
            user_id: userId,
            user_name: body.user_name,
            password_hash: passwordHash,
            name,
            super_admin: roles.includes('super_admin') ? 1 : 0,
            verified: passwordHash ? 1 : 0,
            mfa: 0,
            phone_number: null,
            created_at: now,
            updated_at: now,
            password_changed_at: passwordHash ? now : null,
          },
          roles,
        );
        if (Object.keys(fields).length > 0)
          await upsertUserProfile(trx, userId, fields, now, actor?.userId);
        await recordUsersCreated(trx, 1, now);
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw badRequest(SERVER_MESSAGES.userExists, ERROR_CODES.userExists);
      throw error;
    }
    if (passwordHash) return { userId, invited: false };
    try {
      await this.sendInvitation(
        body.user_name,
        body.first_name ?? '',
        body.last_name ?? '',
        roles,
        actor?.userId,
      );
    } catch (error) {
      await transactionWithRetry(this.db, async (trx) => {
        if (await deleteUserRow(trx, userId)) await recordUsersCreated(trx, -1, now);
      });
      throw error;
    }
    return { userId, invited: true };
  }

  /**
   * Mails the INVITE_MESSAGE template with a one-time code (the forgot-password purpose, so the
   * set-new-password screen and `PUT /v1/forgotpassword` accept it) and a link carrying it.
   */
  private async sendInvitation(
    userName: string,
    firstName: string,
    lastName: string,
    roles: readonly Role[],
    /** The inviting admin: invitations count toward their hourly send cap too. */
    invitedBy: string | undefined,
  ): Promise<void> {
    const subject = userName.toLowerCase();
    const code = await this.deps.codes.issue('forgot_password', subject, INVITE_CODE_TTL_SECONDS);
    const link = `${this.deps.publicUrl}/set-new-password?user_name=${encodeURIComponent(subject)}&code=${code}`;
    const mail = await this.deps.templates.render(INVITE_MESSAGE_TEMPLATE_TYPE, {
      first_name: firstName || subject,
      last_name: lastName,
      user_name: subject,
      roles: roles.map((role) => ROLE_LABELS[role]).join(', '),
      code,
      link,
      dashboard_url: this.deps.publicUrl,
    });
    await this.deps.messaging.sendMail({
      to: subject,
      ...mail,
      purpose: 'invite',
      ...(invitedBy ? { account: invitedBy } : {}),
    });
  }

  /** A page of users by user name (see GET /v1/admin/user2). */
  async list(options: {
    userName?: string;
    startId?: string;
    limit: number;
    everyone: boolean;
  }): Promise<UserList> {
    const rows = await listAdminUsers(this.db, {
      limit: options.limit,
      everyone: options.everyone || options.userName !== undefined,
      ...(options.startId ? { startName: options.startId.toLowerCase() } : {}),
      ...(options.userName !== undefined ? { userName: options.userName } : {}),
    });
    const page = rows.slice(0, options.limit);
    const custom = await customDataOf(
      this.db,
      page.map((row) => row.user_id),
    );
    const total =
      options.userName !== undefined
        ? page.length
        : await countAdminUsers(this.db, options.everyone);
    const next = rows[options.limit];
    return {
      users_list: page.map((row) => present(row, custom.get(row.user_id))),
      total,
      ...(next ? { next_id: next.user_name } : {}),
    };
  }

  private async requireUser(userName: string): Promise<AdminUserRow> {
    const row = await findAdminUser(this.db, userName);
    if (!row) throw notFound(SERVER_MESSAGES.userNotFound, ERROR_CODES.userNotFound);
    return row;
  }

  /** Changes profile fields and, when given, the roles. */
  async update(userName: string, body: UpdateUserBody, actor: AuthUser): Promise<AdminUser> {
    const row = await this.requireUser(userName);
    const roles = body.roles?.filter(isRole);
    if (roles) {
      if (roles.includes('super_admin') && !actor.superAdmin)
        throw forbidden(SERVER_MESSAGES.onlySuperAdminGrantsSuperAdmin);
      if (row.user_id === actor.userId && !roles.includes('super_admin') && actor.superAdmin)
        throw badRequest(SERVER_MESSAGES.selfDeletion, ERROR_CODES.selfOperation);
    }
    const now = this.now();
    const fields = profileFields(body);
    await transactionWithRetry(this.db, async (trx) => {
      if (roles) await this.lockAndRecheck(trx, actor, row);
      await upsertUserProfile(trx, row.user_id, fields, now, actor.userId);
      if (roles) {
        await replaceUserRoles(trx, row.user_id, roles, now);
        // Sequentially unreachable (no one can demote themselves); kept as the invariant's guard.
        if (!(await hasSuperAdmin(trx)))
          throw badRequest(
            SERVER_MESSAGES.lastSuperAdminRoleRemoval,
            ERROR_CODES.superAdminDeletion,
          );
      }
      if (body.first_name !== undefined || body.last_name !== undefined) {
        const first = body.first_name ?? row.first_name;
        const last = body.last_name ?? row.last_name;
        await updateUserDisplayName(trx, row.user_id, [first, last].filter(Boolean).join(' '), now);
      }
    });
    // New roles apply from the user's next request, not after the auth cache's 5 s.
    if (roles) this.deps.auth.forgetUser(row.user_id);
    return this.details(row.user_name);
  }

  /**
   * Inside a role change or deletion: locks the caller's, the target's and every super admin's
   * account (db/dialect.ts), then checks again what the request was allowed on. The caller's
   * rights came from its token before the transaction; two super admins demoting each other at
   * once would otherwise both pass and leave none. Answers as the sequential request would: 403
   * for a caller who lost super admin meanwhile (unless `ownAccount`: deleting oneself needs no
   * role), 404 for a target deleted meanwhile.
   */
  private async lockAndRecheck(
    trx: Transaction<Database>,
    actor: AuthUser,
    target: AdminUserRow,
    ownAccount = false,
  ): Promise<UserRecord> {
    await lockAccountsAndSuperAdmins(trx, [actor.userId, target.user_id]);
    if (!ownAccount) {
      const caller = await findUserById(trx, actor.userId);
      if (!caller || (actor.superAdmin && !isSuperAdmin(caller))) throw forbidden();
    }
    const current = await findUserById(trx, target.user_id);
    if (!current) throw notFound(SERVER_MESSAGES.userNotFound, ERROR_CODES.userNotFound);
    return current;
  }

  /** One user with profile and custom data. */
  async details(userName: string): Promise<AdminUser> {
    const row = await this.requireUser(userName);
    const custom = await customDataOf(this.db, [row.user_id]);
    return present(row, custom.get(row.user_id));
  }

  private async deletable(userName: string, actor: AuthUser): Promise<AdminUserRow> {
    const row = await this.requireUser(userName);
    if (row.user_id === actor.userId)
      throw badRequest(SERVER_MESSAGES.selfDeletion, ERROR_CODES.selfOperation);
    if (isSuperAdmin(row))
      throw badRequest(SERVER_MESSAGES.superAdminDeletion, ERROR_CODES.superAdminDeletion);
    return row;
  }

  /** Codes are bound to who asks and whom they delete (the same user for a self-deletion). */
  private deleteSubject(actor: AuthUser, target: AdminUserRow): string {
    return `${actor.userId}:${target.user_id}`;
  }

  /** Mails a fresh deletion code, valid for ten minutes, to the one who asks for it. */
  private async mailDeleteCode(
    actor: AuthUser,
    target: AdminUserRow,
    mail: { subject: string; reason: string },
  ): Promise<void> {
    const code = await this.deps.codes.issue(
      'user_delete',
      this.deleteSubject(actor, target),
      DELETE_CODE_TTL_SECONDS,
    );
    await this.deps.messaging.sendMail({
      to: actor.userName,
      account: actor.userId,
      subject: mail.subject,
      text: [
        mail.reason,
        '',
        `Your verification code is ${code}`,
        '',
        'Enter it in the dashboard within 10 minutes to confirm. If you did not ask for this, ignore this message; nothing will be deleted.',
      ].join('\n'),
      purpose: 'user_delete',
    });
  }

  /**
   * The second step both deletions share: with the right code, deletes the account. In one
   * transaction that first locks the accounts involved and checks again that the deletion is
   * still allowed (see lockAndRecheck; another admin may have deleted the account, or it may
   * have become a super admin, or the last one), its sessions are revoked, its nodes lose their
   * user (with the claimed-node statistics updated), and the account's registration is taken out
   * of the daily rollup, as a rebuild from the users table would. So two admins confirming at
   * once delete once, count once, and the later one gets the 404 of a sequential request.
   */
  private async deleteWithCode(actor: AuthUser, target: AdminUserRow, code: string): Promise<void> {
    const check = await this.deps.codes.consume(
      'user_delete',
      this.deleteSubject(actor, target),
      code,
    );
    if (!check.ok) throw codeFailure(check.reason);
    const now = this.now();
    const self = actor.userId === target.user_id;
    await transactionWithRetry(this.db, async (trx) => {
      // Node claims take this lock before they touch the user's row; taking it before the row
      // locks too keeps one order, so a claim during the deletion waits instead of deadlocking.
      await lockNodeOwnership(trx);
      const current = await this.lockAndRecheck(trx, actor, target, self);
      if (isSuperAdmin(current)) {
        if (!self)
          throw badRequest(SERVER_MESSAGES.superAdminDeletion, ERROR_CODES.superAdminDeletion);
        if (!(await hasOtherSuperAdmin(trx, current.user_id)))
          throw badRequest(
            SERVER_MESSAGES.lastSuperAdminSelfDeletion,
            ERROR_CODES.superAdminDeletion,
          );
      }
      await revokeUserSessions(trx, target.user_id, 'user_deleted', now);
      for (const nodeId of await nodesHeldBy(trx, target.user_id))
        await recordRelease(trx, nodeId, now);
      await releaseNodesOf(trx, target.user_id);
      if (!(await deleteUserRow(trx, target.user_id)))
        throw notFound(SERVER_MESSAGES.userNotFound, ERROR_CODES.userNotFound);
      await recordUsersCreated(trx, -1, target.created_at);
    });
    this.deps.auth.forgetUser(target.user_id);
  }

  /** Step one of a deletion: mails a 6-digit code to the admin who asks (A.3). */
  async requestDelete(userName: string, actor: AuthUser): Promise<void> {
    const target = await this.deletable(userName, actor);
    await this.mailDeleteCode(actor, target, {
      subject: 'Confirm deleting a Fleetdeck user',
      reason: `You asked to delete the user ${target.user_name}.`,
    });
  }

  /** Step two: with the right code, deletes the account (see deleteWithCode). */
  async delete(userName: string, code: string | undefined, actor: AuthUser): Promise<void> {
    if (!code)
      throw badRequest(SERVER_MESSAGES.userDeleteCodeMissing, ERROR_CODES.userDeleteCodeMissing);
    const target = await this.deletable(userName, actor);
    await this.deleteWithCode(actor, target, code);
  }

  /** The caller's own account, unless it is the last super admin (who would lock everyone out). */
  private async selfDeletable(actor: AuthUser): Promise<AdminUserRow> {
    const row = await findAdminUser(this.db, actor.userName);
    if (!row || row.user_id !== actor.userId)
      throw notFound(SERVER_MESSAGES.userNotFound, ERROR_CODES.userNotFound);
    if (isSuperAdmin(row) && !(await hasOtherSuperAdmin(this.db, row.user_id)))
      throw badRequest(SERVER_MESSAGES.lastSuperAdminSelfDeletion, ERROR_CODES.superAdminDeletion);
    return row;
  }

  /** Step one of deleting one's own account: mails a 6-digit code to the caller (A.2). */
  async requestSelfDelete(actor: AuthUser): Promise<void> {
    const self = await this.selfDeletable(actor);
    await this.mailDeleteCode(actor, self, {
      subject: 'Confirm deleting your Fleetdeck account',
      reason: `You asked to delete your Fleetdeck account ${self.user_name}. This signs you out everywhere, releases the devices you claimed and cannot be undone.`,
    });
  }

  /**
   * Step two: with the right code (bound to the caller), deletes the caller's own account. The
   * deletion checks again under lock that another super admin remains, so two super admins
   * confirming at once cannot both go, on one instance or several.
   */
  async deleteSelf(code: string | undefined, actor: AuthUser): Promise<void> {
    if (!code)
      throw badRequest(SERVER_MESSAGES.userDeleteCodeMissing, ERROR_CODES.userDeleteCodeMissing);
    const self = await this.selfDeletable(actor);
    await this.deleteWithCode(actor, self, code);
  }

  private async customDataUser(query: CustomDataQuery): Promise<string> {
    const byName = query.user_email ?? query.user_name;
    const user = byName
      ? await findUserByName(this.db, byName)
      : query.user_id
        ? await findUserById(this.db, query.user_id)
        : undefined;
    if (!byName && !query.user_id)
      throw badRequest(SERVER_MESSAGES.customDataUserMissing, ERROR_CODES.customDataUserMissing);
    if (!user) throw notFound(SERVER_MESSAGES.userNotFound, ERROR_CODES.userNotFound);
    return user.user_id;
  }

  /** A user's custom data. */
  async getCustomData(query: CustomDataQuery): Promise<CustomDataMap> {
    const userId = await this.customDataUser(query);
    return customDataMap((await customDataOf(this.db, [userId])).get(userId));
  }

  /**
   * Sets or deletes (value null) custom-data entries; the user's whole custom data may not exceed
   * CUSTOM_DATA_MAX_BYTES. Returns the resulting map.
   */
  async putCustomData(query: CustomDataQuery, update: CustomDataUpdate): Promise<CustomDataMap> {
    const userId = await this.customDataUser(query);
    for (const key of Object.keys(update))
      if (!CUSTOM_DATA_KEY_PATTERN.test(key))
        throw badRequest(SERVER_MESSAGES.customDataInvalidKey, ERROR_CODES.customDataInvalidKey);
    const now = this.now();
    return transactionWithRetry(this.db, async (trx) => {
      const current = (await customDataOf(trx, [userId])).get(userId) ?? new Map<string, string>();
      for (const [key, entry] of Object.entries(update)) {
        if (entry === null || entry.value === null || entry.value === undefined) {
          current.delete(key);
          await deleteCustomData(trx, userId, key);
        } else {
          const text = JSON.stringify(entry.value);
          current.set(key, text);
          await putCustomData(trx, userId, key, text, now);
        }
      }
      const size = [...current].reduce(
        (sum, [key, value]) => sum + Buffer.byteLength(key) + Buffer.byteLength(value),
        0,
      );
      if (size > CUSTOM_DATA_MAX_BYTES)
        throw badRequest(SERVER_MESSAGES.payloadTooLarge, ERROR_CODES.payloadTooLarge);
      return customDataMap(current);
    });
  }
}
