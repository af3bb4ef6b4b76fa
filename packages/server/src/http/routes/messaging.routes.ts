import { API_PATHS, OutboxQuerySchema, OutboxResponseSchema } from '@fleetdeck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../../services/auth/auth.service.js';
import type { MessagingService } from '../../services/messaging/messaging.service.js';
import { requireAuth } from '../plugins/auth.plugin.js';

export interface MessagingRoutesOptions {
  auth: AuthService;
  messaging: MessagingService;
}

/** The outbox: what Fleetdeck mailed or texted (or kept, without SMTP), for super admins. */
export const messagingRoutes: FastifyPluginAsyncZod<MessagingRoutesOptions> = async (
  app,
  { auth, messaging },
) => {
  app.get(
    API_PATHS.outbox,
    {
      preValidation: requireAuth(auth, 'admin'),
      schema: {
        tags: ['messaging'],
        summary: 'Mails and texts sent or kept in the outbox, newest first',
        querystring: OutboxQuerySchema,
        response: { 200: OutboxResponseSchema },
      },
    },
    async (request) => {
      const rows = await messaging.listOutbox(request.query.num_records, request.query.channel);
      return {
        smtp_configured: messaging.smtpConfigured,
        messages: rows.map((row) => ({
          message_id: row.message_id,
          channel: row.channel,
          recipient: row.recipient,
          sender: row.sender,
          subject: row.subject,
          body_text: row.body_text,
          purpose: row.purpose,
          transport: row.transport,
          created_at: Number(row.created_at),
          delivered_at: row.delivered_at === null ? null : Number(row.delivered_at),
          error: row.error,
        })),
      };
    },
  );
};
