import {
  EventFilterBodySchema,
  EventFilterListSchema,
  EventFilterQuerySchema,
  MobilePlatformCreateBodySchema,
  MobilePlatformCreateResponseSchema,
  MobilePlatformDeleteQuerySchema,
  MobilePlatformListSchema,
  PlatformEndpointCreateBodySchema,
  PlatformEndpointCreateResponseSchema,
  PlatformEndpointDeleteQuerySchema,
  PlatformEndpointListSchema,
  PUSH_MESSAGES,
  SuccessBodySchema,
  WebhookIntegrationBodySchema,
  WebhookIntegrationListSchema,
  WebhookIntegrationQuerySchema,
} from '@fleetdeck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../../services/auth/auth.service.js';
import type { PushService } from '../../services/push/push.service.js';
import { authOf, requireAuth } from '../plugins/auth.plugin.js';

export interface PushRoutesOptions {
  auth: AuthService;
  push: PushService;
}

/**
 * Push notifications (ADR 14): the master switch, per-event filters and mobile platforms for
 * deployment admins; device registration for end users.
 */
export const pushRoutes: FastifyPluginAsyncZod<PushRoutesOptions> = async (app, { auth, push }) => {
  const settingsAdmin = requireAuth(auth, 'admin', 'settings.deployment');

  app.get(
    '/v1/admin/webhook_integration',
    {
      preValidation: settingsAdmin,
      schema: {
        tags: ['push'],
        summary: 'The push master switch (service and endpoint mobile_push_notification)',
        querystring: WebhookIntegrationQuerySchema,
        response: { 200: WebhookIntegrationListSchema },
      },
    },
    async (request) => ({
      integration_info_list: await push.integrations(
        request.query.service_name,
        request.query.endpoint_name,
      ),
    }),
  );

  for (const method of ['POST', 'PUT'] as const) {
    app.route({
      method,
      url: '/v1/admin/webhook_integration',
      preValidation: settingsAdmin,
      schema: {
        tags: ['push'],
        summary:
          method === 'POST'
            ? 'Create the push master switch (refused when it exists)'
            : 'Turn the push master switch on or off (refused when it was never created)',
        body: WebhookIntegrationBodySchema,
        response: { 200: SuccessBodySchema },
      },
      handler: async (request) => {
        if (method === 'POST') await push.createIntegration(request.body);
        else await push.updateIntegration(request.body);
        return { status: 'success' as const, description: PUSH_MESSAGES.integrationSaved };
      },
    });
  }

  app.get(
    '/v1/admin/event_filter',
    {
      preValidation: settingsAdmin,
      schema: {
        tags: ['push'],
        summary:
          'Event filters (per-event push switches), e.g. ?event_type=rmaker.event.node_connected',
        querystring: EventFilterQuerySchema,
        response: { 200: EventFilterListSchema },
      },
    },
    async (request) => ({ event_entity_mapping_list: await push.eventFilters(request.query) }),
  );

  for (const method of ['POST', 'PUT'] as const) {
    app.route({
      method,
      url: '/v1/admin/event_filter',
      preValidation: settingsAdmin,
      schema: {
        tags: ['push'],
        summary:
          method === 'POST'
            ? 'Create an event filter (refused when one exists for the event)'
            : 'Change an event filter (refused when none exists for the event)',
        body: EventFilterBodySchema,
        response: { 200: SuccessBodySchema },
      },
      handler: async (request) => {
        if (method === 'POST') await push.createEventFilter(request.body);
        else await push.updateEventFilter(request.body);
        return { status: 'success' as const, description: PUSH_MESSAGES.filterSaved };
      },
    });
  }

  app.get(
    '/v1/admin/push_notification/mobile_platform',
    {
      preValidation: settingsAdmin,
      schema: {
        tags: ['push'],
        summary: 'Mobile platform applications; 400 (114037) when none exists',
        response: { 200: MobilePlatformListSchema },
      },
    },
    async () => ({ platform_applications: await push.platformList() }),
  );

  app.post(
    '/v1/admin/push_notification/mobile_platform',
    {
      preValidation: settingsAdmin,
      schema: {
        tags: ['push'],
        summary:
          'Create a platform: GCM {api_key: service-account JSON} or APNS/APNS_SANDBOX {ssl_certificate, private_key}',
        body: MobilePlatformCreateBodySchema,
        response: { 201: MobilePlatformCreateResponseSchema },
      },
    },
    async (request, reply) => {
      const arn = await push.createPlatform(request.body);
      return reply.code(201).send({
        status: 'success' as const,
        description: PUSH_MESSAGES.platformCreated,
        platform_application_arn: arn,
      });
    },
  );

  app.delete(
    '/v1/admin/push_notification/mobile_platform',
    {
      preValidation: settingsAdmin,
      schema: {
        tags: ['push'],
        summary: 'Delete a platform application (its registered devices go with it)',
        querystring: MobilePlatformDeleteQuerySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await push.deletePlatform(request.query.platform_application_arn);
      return { status: 'success' as const, description: PUSH_MESSAGES.platformDeleted };
    },
  );

  const endUser = requireAuth(auth, 'user.self');
  const endpointUrl = '/v1/user/push_notification/mobile_platform_endpoint';

  app.post(
    endpointUrl,
    {
      preValidation: endUser,
      schema: {
        tags: ['push'],
        summary: "Register the caller's phone for push notifications",
        body: PlatformEndpointCreateBodySchema,
        response: { 201: PlatformEndpointCreateResponseSchema },
      },
    },
    async (request, reply) => {
      const arn = await push.registerEndpoint(authOf(request).user.userId, request.body);
      return reply.code(201).send({ status: 'success' as const, platform_endpoint_arn: arn });
    },
  );

  app.get(
    endpointUrl,
    {
      preValidation: endUser,
      schema: {
        tags: ['push'],
        summary: "The caller's registered phones",
        response: { 200: PlatformEndpointListSchema },
      },
    },
    async (request) => ({ platform_endpoints: await push.endpoints(authOf(request).user.userId) }),
  );

  app.delete(
    endpointUrl,
    {
      preValidation: endUser,
      schema: {
        tags: ['push'],
        summary: "Unregister one of the caller's phones (mobile_device_token or endpoint)",
        querystring: PlatformEndpointDeleteQuerySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await push.removeEndpoint(authOf(request).user.userId, request.query);
      return { status: 'success' as const, description: PUSH_MESSAGES.endpointDeleted };
    },
  );
};
