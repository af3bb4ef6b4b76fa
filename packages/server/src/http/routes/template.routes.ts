import {
  MESSAGES,
  SERVER_MESSAGES,
  SenderQuerySchema,
  SenderRequestBodySchema,
  SenderVerifyBodySchema,
  SuccessBodySchema,
  TEMPLATE_PLACEHOLDERS,
  TEMPLATE_TYPES,
  TemplateBodySchema,
  TemplateQuerySchema,
  TemplateResponseSchema,
  VerifiedSendersSchema,
} from '@fleetdeck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../../services/auth/auth.service.js';
import type { TemplateService } from '../../services/templates/template.service.js';
import { authOf, requireAuth } from '../plugins/auth.plugin.js';

export interface TemplateRoutesOptions {
  auth: AuthService;
  templates: TemplateService;
}

/** `admin/message_template` and `admin/ses_verified_email` (super admins, templates.manage). */
export const templateRoutes: FastifyPluginAsyncZod<TemplateRoutesOptions> = async (
  app,
  { auth, templates },
) => {
  const guard = requireAuth(auth, 'templates.manage');

  app.get(
    '/v1/admin/message_template',
    {
      preValidation: guard,
      schema: {
        tags: ['templates'],
        summary:
          'The e-mail template of a type (stored or the default), the types and the supported placeholders',
        querystring: TemplateQuerySchema,
        response: { 200: TemplateResponseSchema },
      },
    },
    async (request) => ({
      template: await templates.get(request.query.template_type),
      template_types: TEMPLATE_TYPES.map((entry) => ({ ...entry })),
      placeholders: TEMPLATE_PLACEHOLDERS.map((entry) => ({ ...entry })),
    }),
  );

  app.post(
    '/v1/admin/message_template',
    {
      preValidation: guard,
      schema: {
        tags: ['templates'],
        summary: 'Save an e-mail template; the from address must be a verified sender',
        body: TemplateBodySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await templates.save(request.body, authOf(request).user.userId);
      return { status: 'success' as const, description: MESSAGES.emailTemplateUpdated };
    },
  );

  app.get(
    '/v1/admin/ses_verified_email',
    {
      preValidation: guard,
      schema: {
        tags: ['templates'],
        summary: 'Verified sender addresses (MAIL_FROM first) and those waiting for their code',
        response: { 200: VerifiedSendersSchema },
      },
    },
    async () => templates.senders(),
  );

  app.post(
    '/v1/admin/ses_verified_email',
    {
      preValidation: guard,
      schema: {
        tags: ['templates'],
        summary: 'Mail a 6-digit code to an address to verify it as a sender',
        body: SenderRequestBodySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await templates.requestSender(request.body.email, authOf(request).user.userId);
      return { status: 'success' as const, description: SERVER_MESSAGES.senderCodeSent };
    },
  );

  app.put(
    '/v1/admin/ses_verified_email',
    {
      preValidation: guard,
      schema: {
        tags: ['templates'],
        summary: 'Confirm a sender address with the code it received',
        body: SenderVerifyBodySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await templates.verifySender(request.body.email, request.body.verification_code);
      return { status: 'success' as const, description: SERVER_MESSAGES.senderVerified };
    },
  );

  app.delete(
    '/v1/admin/ses_verified_email',
    {
      preValidation: guard,
      schema: {
        tags: ['templates'],
        summary: 'Remove a sender address (not MAIL_FROM, not one a template sends from)',
        querystring: SenderQuerySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await templates.removeSender(request.query.email);
      return { status: 'success' as const, description: SERVER_MESSAGES.senderRemoved };
    },
  );
};
