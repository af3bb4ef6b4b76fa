import { FAULT_PATHS, type FaultBreakdown } from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { otaUrl } from '../../ota/api/ota-url';
import { FAULT_TYPES, type FaultTypeKey } from '../model/fault-types';
import { faultKeys } from './faults.keys';
import { loadFaultSchemas } from './load-fault-schemas';

export function faultBreakdownPath(type: FaultTypeKey, code: string): string {
  return otaUrl(FAULT_PATHS.faultBreakdown, { type: FAULT_TYPES[type].nodeType, code });
}

/** GET /v1/admin/faults/breakdown: the devices reporting a code by firmware, model and city. */
export async function fetchFaultBreakdown(
  type: FaultTypeKey,
  code: string,
  signal?: AbortSignal,
): Promise<FaultBreakdown> {
  const { FaultBreakdownSchema } = await loadFaultSchemas();
  return apiJson(faultBreakdownPath(type, code), FaultBreakdownSchema, signal ? { signal } : {});
}

export const faultBreakdownQueryOptions = (type: FaultTypeKey, code: string) =>
  queryOptions({
    queryKey: faultKeys.breakdown(type, code),
    queryFn: ({ signal }) => fetchFaultBreakdown(type, code, signal),
    refetchOnWindowFocus: false,
  });

export function useFaultBreakdown(type: FaultTypeKey, code: string, enabled = true) {
  return useQuery({ ...faultBreakdownQueryOptions(type, code), enabled });
}
