import { FAULT_PATHS, type FaultHistory } from '@fleetdeck/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-error';
import { otaUrl } from '../../ota/api/ota-url';
import { faultKeys } from './faults.keys';
import { loadFaultSchemas } from './load-fault-schemas';

/** One page request of Fault History. */
export interface FaultHistoryRequest {
  /** A product id (device id), already normalised; undefined lists every node with faults. */
  search?: string | undefined;
  start_id?: string | undefined;
  num_records: number;
}

const EMPTY: FaultHistory = { nodes: [], total: 0 };

export function faultHistoryApiPath(request: FaultHistoryRequest): string {
  return otaUrl(FAULT_PATHS.faultHistory, {
    search: request.search,
    start_id: request.start_id,
    num_records: request.num_records,
  });
}

/**
 * GET /v1/admin/faults/history: one page of nodes with their fault changes, newest first. The
 * server answers an empty result with 404 'Nodes not found.'; that is an empty page here.
 */
export async function fetchFaultHistory(
  request: FaultHistoryRequest,
  signal?: AbortSignal,
): Promise<FaultHistory> {
  const { FaultHistorySchema } = await loadFaultSchemas();
  try {
    return await apiJson(
      faultHistoryApiPath(request),
      FaultHistorySchema,
      signal ? { signal } : {},
    );
  } catch (error) {
    if (isApiError(error) && error.status === 404) return EMPTY;
    throw error;
  }
}

export const faultHistoryQueryOptions = (request: FaultHistoryRequest) =>
  queryOptions({
    queryKey: faultKeys.history(request),
    queryFn: ({ signal }) => fetchFaultHistory(request, signal),
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });

export function useFaultHistory(request: FaultHistoryRequest) {
  return useQuery(faultHistoryQueryOptions(request));
}
