import { DIAGNOSTICS_PATHS, type LogByIntervalResponse } from '@fleetdeck/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { diagnosticsKeys } from './diagnostics.keys';
import { insightsUrl } from './insights-url';
import { logWindowParams, type LogWindowRequest } from './log-count.query';
import { loadDiagnosticsSchemas } from './load-diagnostics-schemas';

/** GET /insights/v1/node/log/byinterval/count: the timeline's bars (intervals and data). */
export async function fetchLogIntervals(
  request: LogWindowRequest,
  signal?: AbortSignal,
): Promise<LogByIntervalResponse> {
  const { LogByIntervalResponseSchema } = await loadDiagnosticsSchemas();
  return apiJson(
    insightsUrl(DIAGNOSTICS_PATHS.logByIntervalCount, logWindowParams(request)),
    LogByIntervalResponseSchema,
    signal ? { signal } : {},
  );
}

export const logIntervalsQueryOptions = (request: LogWindowRequest) =>
  queryOptions({
    queryKey: diagnosticsKeys.logIntervals(request),
    queryFn: ({ signal }) => fetchLogIntervals(request, signal),
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });

export function useLogIntervals(request: LogWindowRequest, enabled: boolean) {
  return useQuery({ ...logIntervalsQueryOptions(request), enabled });
}
