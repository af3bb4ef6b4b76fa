import { FAULT_PATHS, type FaultNodesList } from '@fleetdeck/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-error';
import { otaUrl } from '../../ota/api/ota-url';
import { FAULT_TYPES, type FaultTypeKey } from '../model/fault-types';
import { faultKeys } from './faults.keys';
import { loadFaultSchemas } from './load-fault-schemas';

/** One page request of the fault device list. */
export interface FaultNodesRequest {
  type: FaultTypeKey;
  /** The error code; undefined lists every fault of the type. */
  code?: string | undefined;
  /** A display code or device id, matched exactly (already normalised). */
  search?: string | undefined;
  start_id?: string | undefined;
  num_records: number;
}

const EMPTY: FaultNodesList = { count: 0, nodes: [] };

/** The URL of one page; paging first, empty parts left out. */
export function faultNodesPath(request: FaultNodesRequest): string {
  return otaUrl(FAULT_PATHS.faultNodes, {
    type: FAULT_TYPES[request.type].nodeType,
    code: request.code,
    search: request.search,
    start_id: request.start_id,
    num_records: request.num_records,
  });
}

/** GET /v1/admin/faults/nodes: one page of the devices reporting a fault; 404 reads as none. */
export async function fetchFaultNodes(
  request: FaultNodesRequest,
  signal?: AbortSignal,
): Promise<FaultNodesList> {
  const { FaultNodesListSchema } = await loadFaultSchemas();
  try {
    return await apiJson(faultNodesPath(request), FaultNodesListSchema, signal ? { signal } : {});
  } catch (error) {
    if (isApiError(error) && error.status === 404) return EMPTY;
    throw error;
  }
}

export const faultNodesQueryOptions = (request: FaultNodesRequest) =>
  queryOptions({
    queryKey: faultKeys.nodes(request),
    queryFn: ({ signal }) => fetchFaultNodes(request, signal),
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });

export function useFaultNodes(request: FaultNodesRequest, enabled = true) {
  return useQuery({ ...faultNodesQueryOptions(request), enabled });
}
