import {
  DIAGNOSTICS_PATHS,
  type DiagnosticsInterval,
  type LogCountResponse,
} from '@fleetdeck/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { diagnosticsKeys } from './diagnostics.keys';
import { insightsUrl } from './insights-url';
import { loadDiagnosticsSchemas } from './load-diagnostics-schemas';

/** The window of the report: interval, its first second and the viewer's offset (seconds). */
export interface LogWindowRequest {
  node_id: string;
  time: DiagnosticsInterval;
  start: number;
  tz: number;
}

/** The query string of a window, in the spec's order (node_id, time, start, tz). */
export function logWindowParams(request: LogWindowRequest) {
  return { node_id: request.node_id, time: request.time, start: request.start, tz: request.tz };
}

/** GET /insights/v1/node/log/count: crash, reboot, error, warning and event counts. */
export async function fetchLogCount(
  request: LogWindowRequest,
  signal?: AbortSignal,
): Promise<LogCountResponse> {
  const { LogCountResponseSchema } = await loadDiagnosticsSchemas();
  return apiJson(
    insightsUrl(DIAGNOSTICS_PATHS.logCount, logWindowParams(request)),
    LogCountResponseSchema,
    signal ? { signal } : {},
  );
}

export const logCountQueryOptions = (request: LogWindowRequest) =>
  queryOptions({
    queryKey: diagnosticsKeys.logCount(request),
    queryFn: ({ signal }) => fetchLogCount(request, signal),
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });

export function useLogCount(request: LogWindowRequest, enabled: boolean) {
  return useQuery({ ...logCountQueryOptions(request), enabled });
}
