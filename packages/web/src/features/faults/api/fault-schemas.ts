/**
 * The contract schemas the fault screens validate with. Only ever imported through
 * loadFaultSchemas(), so that zod stays out of the route chunk (as lib/lazy-schemas.ts does for
 * the rest of the app).
 */
export {
  FaultBreakdownSchema,
  FaultCatalogueResponseSchema,
  FaultHistorySchema,
  FaultNodesListSchema,
  ParamByValueCountSchema,
} from '@fleetdeck/contract';
