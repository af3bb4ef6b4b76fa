import { z } from 'zod';
import { DEFAULT_EMAIL_TEMPLATE_TYPE, INVITE_MESSAGE_TEMPLATE_TYPE } from '../constants.js';
import { MESSAGES } from '../messages.js';
import { SERVER_MESSAGES } from '../errors.js';

/**
 * The e-mail templates Fleetdeck sends, with the label the Email Configurations tab shows. The
 * spec's default type 'Welcome Email Notification' is the label of INVITE_MESSAGE: the mail a new
 * user receives (docs/adr/0013-user-administration-and-invitations.md).
 */
export const TEMPLATE_TYPES = [
  { type: INVITE_MESSAGE_TEMPLATE_TYPE, label: DEFAULT_EMAIL_TEMPLATE_TYPE },
] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number]['type'];
const TEMPLATE_TYPE_NAMES = TEMPLATE_TYPES.map((entry) => entry.type) as [
  TemplateType,
  ...TemplateType[],
];

/** Placeholders a template may use, each with what it becomes (listed by the API and on screen). */
export const TEMPLATE_PLACEHOLDERS = [
  { name: 'first_name', description: "The new user's first name" },
  { name: 'last_name', description: "The new user's last name" },
  { name: 'user_name', description: "The new user's e-mail address (their user name)" },
  { name: 'roles', description: 'The roles given to the new user' },
  { name: 'code', description: 'The one-time code that lets the user set a password' },
  { name: 'link', description: 'The link to the page where the user sets a password' },
  { name: 'dashboard_url', description: 'The address of this dashboard' },
] as const;
export type TemplatePlaceholder = (typeof TEMPLATE_PLACEHOLDERS)[number]['name'];

/**
 * `{{ name }}` in a subject or body; the name is `placeholderName(match[1])`. The braces' content
 * is one greedy run without braces, trimmed afterwards: the former `\{\{\s*([^{}]*?)\s*\}\}` let
 * its two `\s*` and the lazy group share every space, so an unclosed `{{` followed by spaces took
 * cubic time (20,000 characters, the body's cap, held the event loop for hours).
 */
export const PLACEHOLDER_PATTERN = /\{\{([^{}]*)\}\}/g;

/** The placeholder name of a PLACEHOLDER_PATTERN match's group (`' link '` → `'link'`). */
export function placeholderName(inner: string | undefined): string {
  return (inner ?? '').trim();
}

/** The placeholder names used in a text that Fleetdeck does not know. */
export function unknownPlaceholders(text: string): string[] {
  const known = new Set<string>(TEMPLATE_PLACEHOLDERS.map((entry) => entry.name));
  const unknown = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER_PATTERN)) {
    const name = placeholderName(match[1]);
    if (!known.has(name)) unknown.add(name);
  }
  return [...unknown];
}

export const TEMPLATE_SUBJECT_MAX_LENGTH = 200;
export const TEMPLATE_TEXT_MAX_LENGTH = 20_000;
export const TEMPLATE_FROM_NAME_MAX_LENGTH = 64;

const TemplateTypeSchema = z.enum(TEMPLATE_TYPE_NAMES, {
  error: `Invalid message template type. Valid values are ${TEMPLATE_TYPE_NAMES.join(', ')}`,
});

/** GET /v1/admin/message_template query (default: the invitation). */
export const TemplateQuerySchema = z.object({
  template_type: TemplateTypeSchema.default(INVITE_MESSAGE_TEMPLATE_TYPE),
});
export type TemplateQuery = z.infer<typeof TemplateQuerySchema>;

/** Refuses placeholders that do not exist, naming them. */
function knownPlaceholdersOnly(text: string, ctx: z.RefinementCtx): void {
  const unknown = unknownPlaceholders(text);
  if (unknown.length > 0)
    ctx.addIssue({
      code: 'custom',
      message: `${SERVER_MESSAGES.templateUnknownPlaceholder} ${unknown.map((name) => `{{${name}}}`).join(', ')}. Supported: ${TEMPLATE_PLACEHOLDERS.map((entry) => `{{${entry.name}}}`).join(', ')}.`,
    });
}

/** POST /v1/admin/message_template (and the form of the Email Configurations tab). */
export const TemplateBodySchema = z.object({
  template_type: TemplateTypeSchema,
  message_subject: z
    .string({ error: SERVER_MESSAGES.templateSubjectEmpty })
    .trim()
    .min(1, { error: SERVER_MESSAGES.templateSubjectEmpty })
    .max(TEMPLATE_SUBJECT_MAX_LENGTH, { error: SERVER_MESSAGES.templateSubjectTooLong })
    .refine((value) => !/[\r\n]/.test(value), { error: SERVER_MESSAGES.templateSubjectLines })
    .superRefine(knownPlaceholdersOnly),
  message_text: z
    .string({ error: SERVER_MESSAGES.templateBodyEmpty })
    .min(1, { error: SERVER_MESSAGES.templateBodyEmpty })
    .max(TEMPLATE_TEXT_MAX_LENGTH, { error: SERVER_MESSAGES.templateBodyTooLong })
    .refine((value) => value.trim().length > 0, { error: SERVER_MESSAGES.templateBodyEmpty })
    .superRefine(knownPlaceholdersOnly)
    .refine((value) => /\{\{\s*(link|code)\s*\}\}/.test(value), {
      error: SERVER_MESSAGES.templateNeedsLink,
    }),
  /** One of the verified sender addresses; empty for the deployment's own MAIL_FROM. */
  from_email_address: z
    .string()
    .trim()
    .max(320)
    .transform((value) => value.toLowerCase())
    .optional(),
  from_user_name: z
    .string()
    .trim()
    .max(TEMPLATE_FROM_NAME_MAX_LENGTH, { error: SERVER_MESSAGES.templateFromNameTooLong })
    .refine((value) => !/[\r\n"<>]/.test(value), { error: SERVER_MESSAGES.templateFromNameTooLong })
    .optional(),
});
export type TemplateBody = z.infer<typeof TemplateBodySchema>;

/** One template as GET returns it. */
export const MessageTemplateSchema = z.object({
  template_type: z.string(),
  /** The label the screen shows for the type. */
  template_label: z.string(),
  message_subject: z.string(),
  message_text: z.string(),
  from_email_address: z.string(),
  from_user_name: z.string(),
  /** true while no template is stored and Fleetdeck's default is shown. */
  default: z.boolean(),
  updated_at: z.number().int().nullable(),
});
export type MessageTemplate = z.infer<typeof MessageTemplateSchema>;

/** GET /v1/admin/message_template answer: the template, the types and the placeholders. */
export const TemplateResponseSchema = z.object({
  template: MessageTemplateSchema,
  template_types: z.array(z.object({ type: z.string(), label: z.string() })),
  placeholders: z.array(z.object({ name: z.string(), description: z.string() })),
});
export type TemplateResponse = z.infer<typeof TemplateResponseSchema>;

/** GET /v1/admin/ses_verified_email: verified senders (the spec's name) and pending ones. */
export const VerifiedSendersSchema = z.object({
  verified_email_ids: z.array(z.string()),
  /** Addresses that were sent a code and have not confirmed it yet. */
  pending_email_ids: z.array(z.string()),
  /** The deployment's own sender (MAIL_FROM), always verified and not removable. */
  default_email_id: z.string(),
});
export type VerifiedSenders = z.infer<typeof VerifiedSendersSchema>;

const SenderEmailSchema = z
  .string({ error: MESSAGES.invalidEmailAddress })
  .trim()
  .max(320, { error: MESSAGES.invalidEmailAddress })
  .pipe(z.email({ error: MESSAGES.invalidEmailAddress }))
  .transform((value) => value.toLowerCase());

/** POST /v1/admin/ses_verified_email: mail a code to a new sender address. */
export const SenderRequestBodySchema = z.object({ email: SenderEmailSchema });
export type SenderRequestBody = z.infer<typeof SenderRequestBodySchema>;

/** PUT /v1/admin/ses_verified_email: confirm the code the address received. */
export const SenderVerifyBodySchema = z.object({
  email: SenderEmailSchema,
  verification_code: z
    .string({ error: MESSAGES.enterVerificationCode })
    .trim()
    .min(1, { error: MESSAGES.enterVerificationCode })
    .max(16, { error: MESSAGES.verificationCodeNotValid }),
});
export type SenderVerifyBody = z.infer<typeof SenderVerifyBodySchema>;

/** DELETE /v1/admin/ses_verified_email?email=. */
export const SenderQuerySchema = z.object({ email: SenderEmailSchema });
