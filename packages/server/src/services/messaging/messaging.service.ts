import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Database } from '../../db/schema.js';
import { AppError, tooManyRequests } from '../../errors.js';
import type { Logger } from '../../logger.js';

/** One e-mail to send. `purpose` names the flow (sign-up, invite…) for the outbox and the cap. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Sender; the deployment's MAIL_FROM when absent. */
  from?: { address: string; name?: string };
  purpose: string;
}

/** One text message. */
export interface OutgoingSms {
  to: string;
  text: string;
  purpose: string;
}

/**
 * A text-message provider (a paid outside service: Twilio, SNS…). Fleetdeck ships none; without
 * one, messages stay in the outbox for an operator to read, as mail does without SMTP.
 */
export interface SmsProvider {
  readonly name: string;
  send(to: string, text: string): Promise<void>;
}

export interface MessagingOptions {
  smtpUrl: string | undefined;
  from: string;
  /** Mails or texts one recipient may receive per hour (and per purpose family). */
  sendsPerHour: number;
  sms?: SmsProvider;
  clock?: () => number;
}

/** Failure to hand a message to SMTP or the SMS provider (RainMaker 100026, mail failed). */
const DELIVERY_FAILED = 100026;

/**
 * Sends mail over SMTP (nodemailer) when SMTP_URL is set and texts through an SmsProvider when one
 * is given; otherwise keeps each message in `outbox_messages` and logs a line, so a fresh install
 * works and an operator can read what would have gone out. Every message is recorded either way,
 * and each recipient gets at most `sendsPerHour` messages an hour (429 beyond).
 */
export class MessagingService {
  private readonly transport: Transporter | undefined;
  private readonly clock: () => number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly logger: Logger,
    private readonly options: MessagingOptions,
  ) {
    this.transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : undefined;
    this.clock = options.clock ?? Date.now;
  }

  /** Whether mail really leaves the server (SMTP configured). */
  get smtpConfigured(): boolean {
    return this.transport !== undefined;
  }

  get defaultFrom(): string {
    return this.options.from;
  }

  private now(): number {
    return Math.floor(this.clock() / 1000);
  }

  /** Refuses with 429 when the recipient already had its hourly share. */
  private async assertUnderCap(recipient: string): Promise<void> {
    const since = this.now() - 3600;
    const row = await this.db
      .selectFrom('outbox_messages')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('recipient', '=', recipient)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= this.options.sendsPerHour) throw tooManyRequests();
  }

  async sendMail(mail: OutgoingMail): Promise<void> {
    const to = mail.to.trim().toLowerCase();
    await this.assertUnderCap(to);
    const from = mail.from
      ? mail.from.name
        ? `"${mail.from.name.replace(/["\\\r\n]/g, '')}" <${mail.from.address}>`
        : mail.from.address
      : this.options.from;
    const messageId = randomUUID();
    await this.db
      .insertInto('outbox_messages')
      .values({
        message_id: messageId,
        channel: 'email',
        recipient: to,
        sender: from,
        subject: mail.subject,
        body_text: mail.text,
        body_html: mail.html ?? null,
        purpose: mail.purpose,
        transport: this.transport ? 'smtp' : 'outbox',
        created_at: this.now(),
        delivered_at: null,
        error: null,
      })
      .execute();
    if (!this.transport) {
      this.logger.info(
        { to, subject: mail.subject, purpose: mail.purpose, messageId },
        'mail kept in the outbox (SMTP_URL is not set)',
      );
      return;
    }
    try {
      await this.transport.sendMail({
        from,
        to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
      });
      await this.markDelivered(messageId, null);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await this.markDelivered(messageId, reason);
      this.logger.error({ to, purpose: mail.purpose, err: reason }, 'SMTP delivery failed');
      throw new AppError(500, DELIVERY_FAILED, 'Failed to send the e-mail. Please try later.');
    }
  }

  async sendSms(sms: OutgoingSms): Promise<void> {
    const to = sms.to.replace(/\s+/g, '');
    await this.assertUnderCap(to);
    const messageId = randomUUID();
    const provider = this.options.sms;
    await this.db
      .insertInto('outbox_messages')
      .values({
        message_id: messageId,
        channel: 'sms',
        recipient: to,
        sender: provider?.name ?? null,
        subject: null,
        body_text: sms.text,
        body_html: null,
        purpose: sms.purpose,
        transport: provider ? 'sms' : 'outbox',
        created_at: this.now(),
        delivered_at: null,
        error: null,
      })
      .execute();
    if (!provider) {
      this.logger.info(
        { to, purpose: sms.purpose, messageId },
        'text message kept in the outbox (no SMS provider is configured)',
      );
      return;
    }
    try {
      await provider.send(to, sms.text);
      await this.markDelivered(messageId, null);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await this.markDelivered(messageId, reason);
      throw new AppError(
        500,
        DELIVERY_FAILED,
        'Failed to send the text message. Please try later.',
      );
    }
  }

  private async markDelivered(messageId: string, error: string | null): Promise<void> {
    await this.db
      .updateTable('outbox_messages')
      .set(error === null ? { delivered_at: this.now() } : { error: error.slice(0, 1000) })
      .where('message_id', '=', messageId)
      .execute();
  }

  /** The newest messages first, for the operator's outbox view. */
  async listOutbox(limit: number, channel?: 'email' | 'sms') {
    let query = this.db
      .selectFrom('outbox_messages')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('message_id', 'desc')
      .limit(limit);
    if (channel) query = query.where('channel', '=', channel);
    return query.execute();
  }

  async close(): Promise<void> {
    this.transport?.close();
  }
}
