import {
  ERROR_CODES,
  INVITE_MESSAGE_TEMPLATE_TYPE,
  PLACEHOLDER_PATTERN,
  placeholderName,
  SERVER_MESSAGES,
  TEMPLATE_TYPES,
  type MessageTemplate,
  type TemplateBody,
  type TemplatePlaceholder,
  type TemplateType,
  type VerifiedSenders,
} from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import type { Database, MessageTemplatesTable } from '../../db/schema.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import {
  deleteSender,
  findSender,
  findTemplate,
  listSenders,
  markSenderVerified,
  saveTemplate,
  templatesUsingSender,
  upsertPendingSender,
} from '../../repositories/template.repository.js';
import type { MessagingService, OutgoingMail } from '../messaging/messaging.service.js';
import type { VerificationCodes } from '../messaging/verification-codes.js';

/** Codes mailed to a would-be sender address stay valid this long. */
const SENDER_CODE_TTL_SECONDS = 24 * 3600;
/** A wrong sender code (RainMaker 100066; the contract has no name for it yet). */
const SENDER_CODE_INCORRECT = 100066;

/** What Fleetdeck sends when no admin has saved an invitation template. */
export const DEFAULT_TEMPLATES: Record<
  TemplateType,
  Pick<MessageTemplatesTable, 'message_subject' | 'message_text'>
> = {
  INVITE_MESSAGE: {
    message_subject: 'Your Fleetdeck account is ready',
    message_text: [
      'Hello {{first_name}},',
      '',
      'An administrator has created a Fleetdeck account for you ({{user_name}}) with the role {{roles}}.',
      '',
      'Choose your password here to sign in:',
      '{{link}}',
      '',
      'If the link does not open, go to {{dashboard_url}}/set-new-password and enter the code {{code}}.',
      'The code can be used once and is valid for 7 days.',
    ].join('\n'),
  },
};

/** The address part of a MAIL_FROM value such as `Fleetdeck <no-reply@example.com>`. */
export function addressOf(from: string): string {
  const angle = /<([^<>]+)>/.exec(from);
  return (angle?.[1] ?? from).trim().toLowerCase();
}

/** The display-name part of a MAIL_FROM value, if any. */
function nameOf(from: string): string {
  const angle = from.indexOf('<');
  return angle > 0 ? from.slice(0, angle).trim().replace(/^"|"$/g, '') : '';
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** Values for the placeholders of one mail. */
export type PlaceholderValues = Record<TemplatePlaceholder, string>;

/** A rendered mail, ready for `MessagingService.sendMail`. */
export type RenderedMail = Pick<OutgoingMail, 'subject' | 'text' | 'html' | 'from'>;

/**
 * Fills a template. The text part gets the values as they are; the HTML part is the template
 * text escaped, with each value escaped too (a first name cannot inject markup) and `{{link}}` as
 * an anchor. Subjects lose line breaks so a value cannot add mail headers.
 */
export function renderTemplate(
  template: Pick<MessageTemplatesTable, 'message_subject' | 'message_text'>,
  values: PlaceholderValues,
): Pick<RenderedMail, 'subject' | 'text' | 'html'> {
  const valueOf = (name: string): string =>
    name in values ? values[name as TemplatePlaceholder] : '';
  const subject = template.message_subject
    .replace(PLACEHOLDER_PATTERN, (_whole, inner: string) => valueOf(placeholderName(inner)))
    .replace(/[\r\n]+/g, ' ')
    .trim();
  const text = template.message_text.replace(PLACEHOLDER_PATTERN, (_whole, inner: string) =>
    valueOf(placeholderName(inner)),
  );
  let html = '';
  let last = 0;
  for (const match of template.message_text.matchAll(PLACEHOLDER_PATTERN)) {
    html += escapeHtml(template.message_text.slice(last, match.index));
    const name = placeholderName(match[1]);
    const value = escapeHtml(valueOf(name));
    html += name === 'link' && value ? `<a href="${value}">${value}</a>` : value;
    last = match.index + match[0].length;
  }
  html += escapeHtml(template.message_text.slice(last));
  html = `<!doctype html><html><body><div style="font-family:sans-serif;line-height:1.5">${html.replace(/\r?\n/g, '<br>\n')}</div></body></html>`;
  return { subject, text, html };
}

function labelOf(type: string): string {
  return TEMPLATE_TYPES.find((entry) => entry.type === type)?.label ?? type;
}

export interface TemplateServiceOptions {
  /** The deployment's MAIL_FROM (verified by definition). */
  mailFrom: string;
}

/**
 * E-mail templates (the invitation) and the verified sender addresses they may send from. A
 * sender address is verified when its owner enters the code Fleetdeck mailed to it; the
 * deployment's own MAIL_FROM counts as verified.
 */
export class TemplateService {
  private readonly defaultSender: string;
  private readonly defaultSenderName: string;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly messaging: MessagingService,
    private readonly codes: VerificationCodes,
    options: TemplateServiceOptions,
    private readonly clock: () => number = Date.now,
  ) {
    this.defaultSender = addressOf(options.mailFrom);
    this.defaultSenderName = nameOf(options.mailFrom);
  }

  private now(): number {
    return Math.floor(this.clock() / 1000);
  }

  /** The stored template of a type, or Fleetdeck's default. */
  async get(type: TemplateType): Promise<MessageTemplate> {
    const stored = await findTemplate(this.db, type);
    if (stored)
      return {
        template_type: stored.template_type,
        template_label: labelOf(stored.template_type),
        message_subject: stored.message_subject,
        message_text: stored.message_text,
        from_email_address: stored.from_email_address || this.defaultSender,
        from_user_name: stored.from_user_name,
        default: false,
        updated_at: Number(stored.updated_at),
      };
    return {
      template_type: type,
      template_label: labelOf(type),
      ...DEFAULT_TEMPLATES[type],
      from_email_address: this.defaultSender,
      from_user_name: this.defaultSenderName,
      default: true,
      updated_at: null,
    };
  }

  /** Saves a template; its from address must be a verified sender. */
  async save(body: TemplateBody, actorUserId: string): Promise<void> {
    const from = body.from_email_address ?? '';
    if (from && from !== this.defaultSender && !(await this.isVerified(from)))
      throw badRequest(SERVER_MESSAGES.senderNotVerified, ERROR_CODES.senderNotVerified);
    await saveTemplate(this.db, {
      template_type: body.template_type,
      message_subject: body.message_subject,
      message_text: body.message_text,
      from_email_address: from === this.defaultSender ? '' : from,
      from_user_name: body.from_user_name ?? '',
      updated_by: actorUserId,
      updated_at: this.now(),
    });
  }

  /**
   * The mail of a template type for these values. A from address that has since lost its
   * verification falls back to MAIL_FROM rather than sending from an unconfirmed address.
   */
  async render(type: TemplateType, values: PlaceholderValues): Promise<RenderedMail> {
    const template = await this.get(type);
    const rendered = renderTemplate(template, values);
    const address =
      template.from_email_address === this.defaultSender ||
      (await this.isVerified(template.from_email_address))
        ? template.from_email_address
        : this.defaultSender;
    const name = template.from_user_name || this.defaultSenderName;
    return { ...rendered, from: name ? { address, name } : { address } };
  }

  private async isVerified(email: string): Promise<boolean> {
    const sender = await findSender(this.db, email);
    return sender?.verified_at !== null && sender?.verified_at !== undefined;
  }

  /** Verified senders (MAIL_FROM first) and those still waiting for their code. */
  async senders(): Promise<VerifiedSenders> {
    const rows = await listSenders(this.db);
    const verified = rows
      .filter((row) => row.verified_at !== null && row.email !== this.defaultSender)
      .map((row) => row.email);
    return {
      verified_email_ids: [this.defaultSender, ...verified],
      pending_email_ids: rows
        .filter((row) => row.verified_at === null && row.email !== this.defaultSender)
        .map((row) => row.email),
      default_email_id: this.defaultSender,
    };
  }

  /** Mails a 6-digit code to a new sender address (which stays pending until confirmed). */
  async requestSender(email: string, actorUserId: string): Promise<void> {
    if (email === this.defaultSender || (await this.isVerified(email)))
      throw badRequest(SERVER_MESSAGES.senderAlreadyVerified, ERROR_CODES.senderNotVerified);
    await upsertPendingSender(this.db, email, actorUserId, this.now());
    const code = await this.codes.issue('sender_verify', email, SENDER_CODE_TTL_SECONDS);
    await this.messaging.sendMail({
      to: email,
      subject: 'Confirm this address as a Fleetdeck sender',
      text: [
        'A Fleetdeck administrator asked to send e-mail (such as user invitations) from this address.',
        '',
        `Your verification code is ${code}`,
        '',
        'Enter it under Deployment Settings › Email Configurations within 24 hours.',
        'If you did not expect this, ignore this message; nothing will be sent from your address.',
      ].join('\n'),
      purpose: 'sender_verify',
      // The asking admin's hourly cap: one account cannot mail any number of addresses.
      account: actorUserId,
    });
  }

  /** Confirms a sender address with the code it received. */
  async verifySender(email: string, code: string): Promise<void> {
    const sender = await findSender(this.db, email);
    if (!sender) throw notFound(SERVER_MESSAGES.senderNotFound, ERROR_CODES.senderNotVerified);
    if (sender.verified_at !== null)
      throw badRequest(SERVER_MESSAGES.senderAlreadyVerified, ERROR_CODES.senderNotVerified);
    const check = await this.codes.consume('sender_verify', email, code);
    if (!check.ok) {
      if (check.reason === 'expired')
        throw badRequest(
          SERVER_MESSAGES.verificationCodeExpired,
          ERROR_CODES.verificationCodeExpired,
        );
      // A limit hit: 429, as every burnt code answers.
      if (check.reason === 'exhausted')
        throw new AppError(
          429,
          ERROR_CODES.verificationCodeAttempts,
          SERVER_MESSAGES.verificationCodeAttempts,
        );
      throw badRequest(SERVER_MESSAGES.senderCodeIncorrect, SENDER_CODE_INCORRECT);
    }
    await markSenderVerified(this.db, email, this.now());
  }

  /** Removes a sender address, unless it is MAIL_FROM or a template sends from it. */
  async removeSender(email: string): Promise<void> {
    if (email === this.defaultSender)
      throw badRequest(SERVER_MESSAGES.senderIsDefault, ERROR_CODES.senderInUse);
    if ((await templatesUsingSender(this.db, email)).length > 0)
      throw badRequest(SERVER_MESSAGES.senderInUse, ERROR_CODES.senderInUse);
    if (!(await deleteSender(this.db, email)))
      throw notFound(SERVER_MESSAGES.senderNotFound, ERROR_CODES.senderNotVerified);
  }

  /** The invitation type, for callers that only send invitations. */
  static readonly INVITE: TemplateType = INVITE_MESSAGE_TEMPLATE_TYPE;
}

/** An error of the mail transport during an invitation, kept distinct for the caller. */
export const isDeliveryFailure = (error: unknown): boolean =>
  error instanceof AppError && error.errorCode === 100026;
