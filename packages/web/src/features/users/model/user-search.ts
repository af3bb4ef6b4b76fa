import { SEARCH_MAX_LENGTH, type AdminUser } from '@fleetdeck/contract';
import { roleLabel } from './user-form';

/**
 * Client-side search of the user list (fleet-management §2, §5): at most 64 characters,
 * whitespace-only ignored; matches user name, id, names, city and role labels.
 */
export function searchUsers(users: readonly AdminUser[], search: string): AdminUser[] {
  const needle = search.slice(0, SEARCH_MAX_LENGTH).trim().toLowerCase();
  if (needle === '') return [...users];
  return users.filter((user) =>
    [
      user.user_name,
      user.user_id,
      user.first_name,
      user.last_name,
      user.city,
      ...user.user_role.map(roleLabel),
    ].some((text) => text.toLowerCase().includes(needle)),
  );
}

/** The path of a user's details screen. */
export const userDetailsPath = (userName: string) =>
  `/home/userregistration/${encodeURIComponent(userName)}`;
