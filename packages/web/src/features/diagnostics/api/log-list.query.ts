import { DIAGNOSTICS_PATHS, type LogListResponse } from '@fleetdeck/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { diagnosticsKeys } from './diagnostics.keys';
import { insightsUrl } from './insights-url';
import { logWindowParams, type LogWindowRequest } from './log-count.query';
import { loadDiagnosticsSchemas } from './load-diagnostics-schemas';

export type LogListRequest = LogWindowRequest & { page_token?: string | undefined };

/** GET /insights/v1/node/log/list: one page of the window's entries, newest first. */
export async function fetchLogList(
  request: LogListRequest,
  signal?: AbortSignal,
): Promise<LogListResponse> {
  const { LogListResponseSchema } = await loadDiagnosticsSchemas();
  return apiJson(
    insightsUrl(DIAGNOSTICS_PATHS.logList, {
      ...logWindowParams(request),
      page_token: request.page_token,
    }),
    LogListResponseSchema,
    signal ? { signal } : {},
  );
}

export const logListQueryOptions = (request: LogListRequest) =>
  queryOptions({
    queryKey: diagnosticsKeys.logList(request),
    queryFn: ({ signal }) => fetchLogList(request, signal),
    // The previous page stays (dimmed) while the next loads, so the list never jumps.
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });

export function useLogList(request: LogListRequest, enabled: boolean) {
  return useQuery({ ...logListQueryOptions(request), enabled });
}
