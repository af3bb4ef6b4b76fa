/** Booleans are stored as 0/1 integers so one schema serves SQLite and PostgreSQL. */
export type DbBool = number;
/** Times are epoch seconds (bigint on PostgreSQL, parsed back to numbers). */
export type EpochSeconds = number;

export interface UsersTable {
  user_id: string;
  user_name: string;
  password_hash: string | null;
  name: string;
  super_admin: DbBool;
  verified: DbBool;
  mfa: DbBool;
  phone_number: string | null;
  created_at: EpochSeconds;
  updated_at: EpochSeconds;
  password_changed_at: EpochSeconds | null;
}

export interface UserRolesTable {
  user_id: string;
  role: string;
}

export interface RolesTable {
  role: string;
  label: string;
}

export interface RolePermissionsTable {
  role: string;
  permission: string;
}

/** A session is one refresh-token family: revoking it ends every token issued in it. */
export interface SessionsTable {
  session_id: string;
  user_id: string;
  created_at: EpochSeconds;
  expires_at: EpochSeconds;
  revoked_at: EpochSeconds | null;
  revoked_reason: string | null;
  user_agent: string | null;
  ip: string | null;
}

export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  issued_at: EpochSeconds;
  expires_at: EpochSeconds;
  rotated_at: EpochSeconds | null;
}

export interface SystemSecretsTable {
  name: string;
  value: string;
  created_at: EpochSeconds;
}

/** Every table Kysely knows about. */
export interface Database {
  users: UsersTable;
  user_roles: UserRolesTable;
  roles: RolesTable;
  role_permissions: RolePermissionsTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  system_secrets: SystemSecretsTable;
}
