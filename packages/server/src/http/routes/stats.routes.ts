import {
  StatsInfoQuerySchema,
  StatsInfoResponseSchema,
  StatsSummarySchema,
} from '@fleetdeck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../../services/auth/auth.service.js';
import type { StatsService } from '../../services/stats/stats.service.js';
import { requireAuth } from '../plugins/auth.plugin.js';

export interface StatsRoutesOptions {
  auth: AuthService;
  stats: StatsService;
}

/** Fleet statistics from the daily rollups (ADR 8). */
export const statsRoutes: FastifyPluginAsyncZod<StatsRoutesOptions> = async (
  app,
  { auth, stats },
) => {
  for (const url of ['/v1/admin/stats_info', '/v1/stats_info']) {
    app.get(
      url,
      {
        preValidation: requireAuth(auth, 'stats.read'),
        schema: {
          tags: ['stats'],
          summary:
            'Statistics per metric: total_count and, with a duration, daily/weekly/monthly/yearly series (UTC days)',
          querystring: StatsInfoQuerySchema,
          response: { 200: StatsInfoResponseSchema },
        },
      },
      async (request) => stats.statsInfo(request.query),
    );
  }

  app.get(
    '/v1/admin/stats_info/summary',
    {
      preValidation: requireAuth(auth, 'stats.read'),
      schema: {
        tags: ['stats'],
        summary:
          "The dashboard's current totals: online, offline, users, nodes, claims, certificates",
        response: { 200: StatsSummarySchema },
      },
    },
    async () => stats.summary(),
  );
};
