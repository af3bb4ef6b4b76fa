import type { AdminNodesList, AdminNodesQuery } from '@fleetdeck/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, checkContract } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { useCurrentUser } from '../../auth/api/current-user.query';
import { nodeKeys } from './nodes.keys';

/** The fleet list (not yet in the contract's API_PATHS). */
export const ADMIN_NODES_PATH = '/v1/admin/nodes';
/** An end user's own nodes, with the same filters (for users without the fleet permission). */
export const USER_NODES_PATH = '/v1/user/nodes';

/** The filters a node screen sets; paging is added by the list. */
export type AdminNodesFilters = Partial<
  Pick<AdminNodesQuery, 'node_status' | 'type' | 'search' | 'city' | 'serial' | 'node_id'>
>;

/** One page request of GET /v1/admin/nodes. */
export type AdminNodesRequest = AdminNodesFilters & {
  num_records: number;
  start_id?: string | undefined;
  /** List only the caller's own nodes (end users, who may not read the fleet). */
  own?: boolean | undefined;
};

/** The query parameters in a fixed order, so equal requests are equal URLs (and cache hits). */
const PARAM_ORDER = [
  'start_id',
  'num_records',
  'node_id',
  'search',
  'node_status',
  'type',
  'city',
  'serial',
] as const satisfies readonly (keyof AdminNodesRequest)[];

/** The URL of one page; empty filters are left out. */
export function adminNodesPath(request: AdminNodesRequest): string {
  const params = new URLSearchParams();
  for (const key of PARAM_ORDER) {
    const value = request[key];
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  if (request.own) {
    params.set('node_details', 'true');
    return `${USER_NODES_PATH}?${params.toString()}`;
  }
  return `${ADMIN_NODES_PATH}?${params.toString()}`;
}

/**
 * GET /v1/admin/nodes: one cursor page of the fleet, checked against the contract. The request
 * is sent before anything is awaited, i.e. in the caller's task (a filter's input handler, B8);
 * the schemas' chunk loads meanwhile.
 */
export async function fetchAdminNodes(
  request: AdminNodesRequest,
  signal?: AbortSignal,
): Promise<AdminNodesList> {
  const path = adminNodesPath(request);
  const [payload, schemas] = await Promise.all([
    apiRequest(path, signal ? { signal } : {}),
    loadSchemas(),
  ]);
  if (!request.own) return checkContract(path, schemas.AdminNodesListSchema, payload);
  const own = checkContract(path, schemas.UserNodesListSchema, payload);
  return {
    nodes: own.nodes,
    node_info: own.node_info,
    total: own.total,
    ...(own.next_id ? { next_id: own.next_id } : {}),
  };
}

/**
 * A page of the fleet list. The list must not jump while the operator works in it: the previous
 * page stays on screen while the next one loads, and a returning window does not refetch
 * (connectivity arrives live over the event stream; the refresh button reloads the rest).
 */
export const adminNodesQueryOptions = (request: AdminNodesRequest) =>
  queryOptions({
    queryKey: nodeKeys.list(request),
    queryFn: ({ signal }) => fetchAdminNodes(request, signal),
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
    staleTime: 60_000,
  });

/** Whether the signed-in user sees only their own nodes (no fleet permission). */
export function useOwnNodesOnly(): boolean {
  const user = useCurrentUser().data;
  return user != null && !user.permissions.includes('nodes.read');
}

export function useAdminNodes(request: AdminNodesRequest, options: { enabled?: boolean } = {}) {
  return useQuery({ ...adminNodesQueryOptions(request), enabled: options.enabled ?? true });
}
