import { API_PATHS, UserListSchema, type AdminUser, type UserList } from '@fleetdeck/contract';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { userKeys } from './users.keys';

/** Pages read at most (100 users each) for the client-side list. */
const MAX_PAGES = 50;

/** GET /v1/admin/user2: one keyset page. */
export function fetchUserPage(
  request: { start_id?: string | undefined; num_records: number; user_name?: string },
  signal?: AbortSignal,
): Promise<UserList> {
  const params = new URLSearchParams({ num_records: String(request.num_records) });
  if (request.start_id) params.set('start_id', request.start_id);
  if (request.user_name) params.set('user_name', request.user_name);
  return apiJson(`${API_PATHS.adminUser2}?${params}`, UserListSchema, signal ? { signal } : {});
}

/**
 * Every staff user (following next_id): the User Registration list searches and pages on the
 * client (fleet-management §2).
 */
export async function fetchAllUsers(signal?: AbortSignal): Promise<AdminUser[]> {
  const users: AdminUser[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const list = await fetchUserPage({ start_id: cursor, num_records: 100 }, signal);
    users.push(...list.users_list);
    if (!list.next_id || list.next_id === cursor) break;
    cursor = list.next_id;
  }
  return users;
}

export function useAllUsers() {
  return useQuery({
    queryKey: userKeys.list(),
    queryFn: ({ signal }) => fetchAllUsers(signal),
    refetchOnWindowFocus: false,
  });
}

/** One user by user name; undefined when there is none. */
export async function fetchUser(userName: string, signal?: AbortSignal) {
  const list = await fetchUserPage({ user_name: userName, num_records: 1 }, signal);
  return list.users_list[0] ?? null;
}

export function useUser(userName: string) {
  return useQuery({
    queryKey: userKeys.details(userName),
    queryFn: ({ signal }) => fetchUser(userName, signal),
    refetchOnWindowFocus: false,
  });
}
