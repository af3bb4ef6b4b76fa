/**
 * The contract schemas of the insights answers. Only ever imported through
 * loadDiagnosticsSchemas(), so zod stays out of the diagnostics screens' first chunk (see
 * lib/lazy-schemas.ts).
 */
export {
  AdminNodesListSchema,
  LogByIntervalResponseSchema,
  LogCountResponseSchema,
  LogListResponseSchema,
  MetricListResponseSchema,
  MetricMetaResponseSchema,
  NodeDiagnosticsInfoSchema,
  ParamListResponseSchema,
  ParamMetaResponseSchema,
} from '@fleetdeck/contract';
