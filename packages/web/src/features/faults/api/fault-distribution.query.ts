import { FAULT_DATATYPE, FAULT_PATHS, INSIGHTS_MAX_LIMIT } from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-error';
import { otaUrl } from '../../ota/api/ota-url';
import { FAULT_TYPES, type FaultTypeKey } from '../model/fault-types';
import { faultKeys } from './faults.keys';
import { loadFaultSchemas } from './load-fault-schemas';

export function faultDistributionPath(type: FaultTypeKey): string {
  return otaUrl(FAULT_PATHS.paramByValueCount, {
    dimensionname: FAULT_TYPES[type].dimension,
    datatype: FAULT_DATATYPE,
    limit: INSIGHTS_MAX_LIMIT,
  });
}

/**
 * GET /insights/v1/param/byvalue/count: how many devices of a type report each code now, as a
 * map from error code to count. A catalogue holds at most 500 codes, so one page of 1000 values
 * covers it; a 404 means no device reports anything.
 */
export async function fetchFaultDistribution(
  type: FaultTypeKey,
  signal?: AbortSignal,
): Promise<ReadonlyMap<string, number>> {
  const { ParamByValueCountSchema } = await loadFaultSchemas();
  try {
    const body = await apiJson(
      faultDistributionPath(type),
      ParamByValueCountSchema,
      signal ? { signal } : {},
    );
    return new Map(body.distribution.map((bucket) => [bucket.value, bucket.count]));
  } catch (error) {
    if (isApiError(error) && error.status === 404) return new Map();
    throw error;
  }
}

export const faultDistributionQueryOptions = (type: FaultTypeKey) =>
  queryOptions({
    queryKey: faultKeys.distribution(type),
    queryFn: ({ signal }) => fetchFaultDistribution(type, signal),
    refetchOnWindowFocus: false,
  });

export function useFaultDistribution(type: FaultTypeKey) {
  return useQuery(faultDistributionQueryOptions(type));
}
