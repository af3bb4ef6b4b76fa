import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { groupKeys } from './groups.keys';
import { MATCH_COUNT_PATH } from './node-group-path';

/** GET /v1/admin/node_group/match_count?…: how many nodes the filters match now. */
export async function fetchMatchCount(params: string, signal?: AbortSignal): Promise<number> {
  const { GroupMatchCountSchema } = await loadSchemas();
  const body = await apiJson(
    `${MATCH_COUNT_PATH}?${params}`,
    GroupMatchCountSchema,
    signal ? { signal } : {},
  );
  return body.total;
}

/** The live count of the create modal; `params` is '' while no filter is set (no request). */
export function useMatchCount(params: string) {
  return useQuery({
    queryKey: groupKeys.matchCount(params),
    queryFn: ({ signal }) => fetchMatchCount(params, signal),
    enabled: params !== '',
    staleTime: 10_000,
    refetchOnWindowFocus: false,
  });
}
