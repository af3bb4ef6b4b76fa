import {
  CommonCustomDataQuerySchema,
  CommonCustomDataResponseSchema,
  FAULT_PATHS,
  FaultBreakdownQuerySchema,
  FaultBreakdownSchema,
  FaultHistoryQuerySchema,
  FaultHistorySchema,
  FaultNodesListSchema,
  FaultNodesQuerySchema,
  ParamByValueCountQuerySchema,
  ParamByValueCountSchema,
  ParamValueListQuerySchema,
  ParamValueListSchema,
  PutCommonCustomDataBodySchema,
  SERVER_MESSAGES,
  SuccessBodySchema,
} from '@fleetdeck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../../services/auth/auth.service.js';
import type { FaultService } from '../../services/faults/fault.service.js';
import { authOf, requireAuth } from '../plugins/auth.plugin.js';

export interface FaultRoutesOptions {
  auth: AuthService;
  faults: FaultService;
}

/**
 * Fault catalogues (`admin/common_custom_data`), the insights fault calls
 * (`/insights/v1/param/...`) and Fleetdeck's fault device list, breakdown and history.
 */
export const faultRoutes: FastifyPluginAsyncZod<FaultRoutesOptions> = async (
  app,
  { auth, faults },
) => {
  app.get(
    FAULT_PATHS.commonCustomData,
    {
      preValidation: requireAuth(auth, 'faults.read'),
      schema: {
        tags: ['faults'],
        summary:
          'Common custom data by name (fault catalogues: ac_faults, refrigerator_faults, washing_machine_faults); data[0].value is the value',
        querystring: CommonCustomDataQuerySchema,
        response: { 200: CommonCustomDataResponseSchema },
      },
    },
    async (request) => faults.getCustomData(request.query.name),
  );

  app.put(
    FAULT_PATHS.commonCustomData,
    {
      // Super admins only: the spec's "admin permission".
      preValidation: requireAuth(auth, 'admin'),
      schema: {
        tags: ['faults'],
        summary:
          'Save common custom data {name, value}; a fault catalogue must be a valid list of {err_code, disp_code, description}',
        body: PutCommonCustomDataBodySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      const { deleted } = await faults.putCustomData(request.body, authOf(request).user.userId);
      return {
        status: 'success' as const,
        description: deleted ? SERVER_MESSAGES.customDataDeleted : SERVER_MESSAGES.customDataSaved,
      };
    },
  );

  app.get(
    FAULT_PATHS.paramValueList,
    {
      preValidation: requireAuth(auth, 'faults.read'),
      schema: {
        tags: ['faults'],
        summary:
          'Nodes whose current value of a fault dimension is in include / not in exclude, by node id (pagetoken)',
        querystring: ParamValueListQuerySchema,
        response: { 200: ParamValueListSchema },
      },
    },
    async (request) => faults.valueList(request.query),
  );

  app.get(
    FAULT_PATHS.paramByValueCount,
    {
      preValidation: requireAuth(auth, 'faults.read'),
      schema: {
        tags: ['faults'],
        summary: 'How many nodes report each value of a fault dimension, most frequent first',
        querystring: ParamByValueCountQuerySchema,
        response: { 200: ParamByValueCountSchema },
      },
    },
    async (request) => faults.byValueCount(request.query),
  );

  app.get(
    FAULT_PATHS.faultNodes,
    {
      preValidation: requireAuth(auth, 'faults.read'),
      schema: {
        tags: ['faults'],
        summary:
          'Devices of a type reporting a fault now (one code; exact search by display code or device id)',
        querystring: FaultNodesQuerySchema,
        response: { 200: FaultNodesListSchema },
      },
    },
    async (request) => faults.faultNodes(request.query),
  );

  app.get(
    FAULT_PATHS.faultBreakdown,
    {
      preValidation: requireAuth(auth, 'faults.read'),
      schema: {
        tags: ['faults'],
        summary: 'The devices reporting a fault split by firmware version, model and city',
        querystring: FaultBreakdownQuerySchema,
        response: { 200: FaultBreakdownSchema },
      },
    },
    async (request) => faults.breakdown(request.query),
  );

  app.get(
    FAULT_PATHS.faultHistory,
    {
      preValidation: requireAuth(auth, 'faults.read'),
      schema: {
        tags: ['faults'],
        summary: 'Nodes with their fault changes, newest first (node_id exact or search by prefix)',
        querystring: FaultHistoryQuerySchema,
        response: { 200: FaultHistorySchema },
      },
    },
    async (request) => faults.history(request.query),
  );
};
