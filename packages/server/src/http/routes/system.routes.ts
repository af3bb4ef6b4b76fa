import {
  API_PATHS,
  DeploymentInfoSchema,
  HealthSchema,
  type IdentityProviderType,
} from '@fleetdeck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppConfig } from '../../config/env.js';
import { isDatabaseReachable, type DatabaseHandle } from '../../db/database.js';

export interface SystemRoutesOptions {
  config: AppConfig;
  database: DatabaseHandle;
  version: string;
  /** Set to done by main once start-up (including the first super admin) has finished. */
  startup: { done: boolean };
  /** The social providers the login page may offer (identity settings of the active pool). */
  socialProviders?: () => Promise<IdentityProviderType[]>;
}

/** Liveness, readiness, public deployment facts and the OpenAPI document. */
export const systemRoutes: FastifyPluginAsyncZod<SystemRoutesOptions> = async (
  app,
  { config, database, version, startup, socialProviders },
) => {
  app.get(
    API_PATHS.healthz,
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness: the process answers',
        security: [],
        response: { 200: HealthSchema },
      },
    },
    () => ({ status: 'ok' as const }),
  );

  app.get(
    API_PATHS.readyz,
    {
      schema: {
        tags: ['system'],
        summary: 'Readiness: start-up has finished and the database is reachable',
        security: [],
        response: { 200: HealthSchema, 503: HealthSchema },
      },
    },
    async (_request, reply) => {
      const started = startup.done;
      const databaseOk = await isDatabaseReachable(database.db);
      const ok = started && databaseOk;
      return reply.code(ok ? 200 : 503).send({
        status: ok ? ('ok' as const) : ('unavailable' as const),
        checks: {
          startup: started ? ('ok' as const) : ('failed' as const),
          database: databaseOk ? ('ok' as const) : ('failed' as const),
        },
      });
    },
  );

  app.get(
    API_PATHS.deploymentInfo,
    {
      schema: {
        tags: ['system'],
        summary: 'What the sign-in page needs to know before anyone signs in',
        security: [],
        response: { 200: DeploymentInfoSchema },
      },
    },
    async () => ({
      deployment_mode: config.deploymentMode,
      sign_up_enabled: config.deploymentMode === 'standard',
      social_providers: socialProviders ? await socialProviders() : [],
      diagnostics_links: config.diagnosticsLinks,
      version,
    }),
  );

  app.get(API_PATHS.openapi, { schema: { hide: true } }, () => app.swagger());
};
