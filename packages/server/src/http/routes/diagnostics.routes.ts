import {
  DIAGNOSTICS_PATHS,
  DeploymentCapabilityQuerySchema,
  DeploymentCapabilitySchema,
  EventListQuerySchema,
  LogByIntervalResponseSchema,
  LogCountResponseSchema,
  LogListQuerySchema,
  LogListResponseSchema,
  LogWindowQuerySchema,
  MetricListQuerySchema,
  MetricListResponseSchema,
  MetricMetaResponseSchema,
  NodeDiagnosticsInfoSchema,
  NodeIdQuerySchema,
  ParamListQuerySchema,
  ParamListResponseSchema,
  ParamMetaResponseSchema,
} from '@fleetdeck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../../services/auth/auth.service.js';
import type { DiagnosticsService } from '../../services/diagnostics/diagnostics.service.js';
import { requireAuth } from '../plugins/auth.plugin.js';

export interface DiagnosticsRoutesOptions {
  auth: AuthService;
  diagnostics: DiagnosticsService;
}

/**
 * The insights API (`/insights/v1`, access §7 Diagnostics) and the deployment capability that
 * names it. Diagnostics belong to devices, so they need the devices' read permission as well as
 * the diagnostics one.
 */
export const diagnosticsRoutes: FastifyPluginAsyncZod<DiagnosticsRoutesOptions> = async (
  app,
  { auth, diagnostics },
) => {
  const guard = requireAuth(auth, 'nodes.read', 'diagnostics.read');
  const tags = ['diagnostics'];

  app.get(
    DIAGNOSTICS_PATHS.deploymentCapabilities,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: 'A deployment capability: InsightsAPIUrl is the base URL of the insights API',
        querystring: DeploymentCapabilityQuerySchema,
        response: { 200: DeploymentCapabilitySchema },
      },
    },
    async (request) => diagnostics.capability(request.query.name),
  );

  app.get(
    DIAGNOSTICS_PATHS.nodeInfo,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: "A node's diagnostics info (project, app_version)",
        querystring: NodeIdQuerySchema,
        response: { 200: NodeDiagnosticsInfoSchema },
      },
    },
    async (request) => diagnostics.nodeInfo(request.query.node_id),
  );

  app.get(
    DIAGNOSTICS_PATHS.logCount,
    {
      preValidation: guard,
      schema: {
        tags,
        summary:
          'Log counts by type (crash, reboot, error, warning, event) in a Day/Week/Month window',
        querystring: LogWindowQuerySchema,
        response: { 200: LogCountResponseSchema },
      },
    },
    async (request) => diagnostics.logCount(request.query),
  );

  app.get(
    DIAGNOSTICS_PATHS.logByIntervalCount,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: 'Log counts per timeline bar: 24 hourly (Day), 7 or 30 local days (Week, Month)',
        querystring: LogWindowQuerySchema,
        response: { 200: LogByIntervalResponseSchema },
      },
    },
    async (request) => diagnostics.logByInterval(request.query),
  );

  app.get(
    DIAGNOSTICS_PATHS.logList,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: 'Log entries of the window, newest first, paged by page_token',
        querystring: LogListQuerySchema,
        response: { 200: LogListResponseSchema },
      },
    },
    async (request) => diagnostics.logList(request.query),
  );

  app.get(
    DIAGNOSTICS_PATHS.metricMeta,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: "A node's metrics with labels and units",
        querystring: NodeIdQuerySchema,
        response: { 200: MetricMetaResponseSchema },
      },
    },
    async (request) => diagnostics.metricMeta(request.query.node_id),
  );

  app.get(
    DIAGNOSTICS_PATHS.metricList,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: 'Metric points in a range (id repeated); at most the range limit per metric',
        querystring: MetricListQuerySchema,
        response: { 200: MetricListResponseSchema },
      },
    },
    async (request) => diagnostics.metricList(request.query),
  );

  app.get(
    DIAGNOSTICS_PATHS.paramMeta,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: "A node's variables tree (folders and params)",
        querystring: NodeIdQuerySchema,
        response: { 200: ParamMetaResponseSchema },
      },
    },
    async (request) => diagnostics.paramMeta(request.query.node_id),
  );

  app.get(
    DIAGNOSTICS_PATHS.paramList,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: 'Variable values in a range (id repeated), newest first',
        querystring: ParamListQuerySchema,
        response: { 200: ParamListResponseSchema },
      },
    },
    async (request) => diagnostics.paramList(request.query),
  );

  app.get(
    DIAGNOSTICS_PATHS.eventList,
    {
      preValidation: guard,
      schema: {
        tags,
        summary:
          "A node's diagnostics events, newest first, 10 per page from the start of the month",
        querystring: EventListQuerySchema,
        response: { 200: LogListResponseSchema },
      },
    },
    async (request) => diagnostics.eventList(request.query),
  );
};
