import { z } from 'zod';

/** GET /v1/admin/outbox query: the newest messages first. */
export const OutboxQuerySchema = z.object({
  channel: z.enum(['email', 'sms']).optional(),
  num_records: z.coerce.number().int().min(1).max(200).default(50),
});
export type OutboxQuery = z.infer<typeof OutboxQuerySchema>;

/** One mail or text Fleetdeck sent, or kept because no transport is configured. */
export const OutboxMessageSchema = z.object({
  message_id: z.string(),
  channel: z.enum(['email', 'sms']),
  recipient: z.string(),
  sender: z.string().nullable(),
  subject: z.string().nullable(),
  body_text: z.string(),
  purpose: z.string(),
  /** 'smtp' or 'sms' when a transport took it; 'outbox' when it was only kept here. */
  transport: z.enum(['smtp', 'sms', 'outbox']),
  created_at: z.number().int(),
  delivered_at: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type OutboxMessage = z.infer<typeof OutboxMessageSchema>;

export const OutboxResponseSchema = z.object({
  smtp_configured: z.boolean(),
  messages: z.array(OutboxMessageSchema),
});
export type OutboxResponse = z.infer<typeof OutboxResponseSchema>;
