import type { FaultDefinition } from '@fleetdeck/contract';
import { FAULT_PATHS } from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-error';
import { otaUrl } from '../../ota/api/ota-url';
import { FAULT_TYPES, type FaultTypeKey } from '../model/fault-types';
import { faultKeys } from './faults.keys';
import { loadFaultSchemas } from './load-fault-schemas';

/** The URL of one catalogue (access §7: fault definitions fetched by name). */
export function faultCataloguePath(type: FaultTypeKey): string {
  return otaUrl(FAULT_PATHS.commonCustomData, { name: FAULT_TYPES[type].catalogue });
}

/**
 * GET /v1/admin/common_custom_data?name=…: the fault definitions of one appliance type, read
 * from `data[0].value` as the spec does. A 404 (no catalogue stored) is an empty catalogue.
 */
export async function fetchFaultCatalogue(
  type: FaultTypeKey,
  signal?: AbortSignal,
): Promise<readonly FaultDefinition[]> {
  const { FaultCatalogueResponseSchema } = await loadFaultSchemas();
  try {
    const body = await apiJson(
      faultCataloguePath(type),
      FaultCatalogueResponseSchema,
      signal ? { signal } : {},
    );
    return body.data[0]?.value ?? body.value;
  } catch (error) {
    if (isApiError(error) && error.status === 404) return [];
    throw error;
  }
}

export const faultCatalogueQueryOptions = (type: FaultTypeKey) =>
  queryOptions({
    queryKey: faultKeys.catalogue(type),
    queryFn: ({ signal }) => fetchFaultCatalogue(type, signal),
    // Catalogues change only when a super admin edits one.
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: false,
  });

export function useFaultCatalogue(type: FaultTypeKey) {
  return useQuery(faultCatalogueQueryOptions(type));
}
