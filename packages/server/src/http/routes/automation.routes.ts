import {
  AutomationCreateBodySchema,
  AutomationCreateResponseSchema,
  AutomationIdQuerySchema,
  AutomationListQuerySchema,
  AutomationListSchema,
  AutomationUpdateBodySchema,
  SHARING_MESSAGES,
  SuccessBodySchema,
} from '@fleetdeck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../../services/auth/auth.service.js';
import type { AutomationService } from '../../services/automations/automation.service.js';
import { authOf, requireAuth } from '../plugins/auth.plugin.js';

export interface AutomationRoutesOptions {
  auth: AuthService;
  automations: AutomationService;
}

/** `user/node_automation`: end users' automations on the nodes they hold (ADR 14). */
export const automationRoutes: FastifyPluginAsyncZod<AutomationRoutesOptions> = async (
  app,
  { auth, automations },
) => {
  const signedIn = requireAuth(auth, 'user.self');

  app.post(
    '/v1/user/node_automation',
    {
      preValidation: signedIn,
      schema: {
        tags: ['automations'],
        summary:
          'Add an automation: one param condition on a node, params to set on nodes you hold',
        body: AutomationCreateBodySchema,
        response: { 200: AutomationCreateResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      description: SHARING_MESSAGES.automationCreated,
      automation_id: await automations.create(authOf(request).user.userId, request.body),
    }),
  );

  app.get(
    '/v1/user/node_automation',
    {
      preValidation: signedIn,
      schema: {
        tags: ['automations'],
        summary: 'Your automations: one by id, those of a node, or a keyset page (start_id)',
        querystring: AutomationListQuerySchema,
        response: { 200: AutomationListSchema },
      },
    },
    async (request) => {
      const page = await automations.list(authOf(request).user.userId, request.query);
      return {
        automation_trigger_actions: page.automations,
        ...(page.nextId ? { next_id: page.nextId } : {}),
      };
    },
  );

  app.put(
    '/v1/user/node_automation',
    {
      preValidation: signedIn,
      schema: {
        tags: ['automations'],
        summary: 'Change an automation (name, enabled, node, event, actions, retrigger)',
        querystring: AutomationIdQuerySchema,
        body: AutomationUpdateBodySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await automations.update(
        authOf(request).user.userId,
        request.query.automation_id,
        request.body,
      );
      return { status: 'success' as const, description: SHARING_MESSAGES.automationUpdated };
    },
  );

  app.delete(
    '/v1/user/node_automation',
    {
      preValidation: signedIn,
      schema: {
        tags: ['automations'],
        summary: 'Remove an automation',
        querystring: AutomationIdQuerySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await automations.delete(authOf(request).user.userId, request.query.automation_id);
      return { status: 'success' as const, description: SHARING_MESSAGES.automationDeleted };
    },
  );
};
