import { randomUUID } from 'node:crypto';
import { MESSAGES } from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Database, OutboxMessagesTable } from '../../db/schema.js';
import { AppError, tooManyRequests } from '../../errors.js';
import type { Logger } from '../../logger.js';
import {
  countSentFor,
  countSentTo,
  insertOutboxMessage,
  listOutboxMessages,
  lockSendKeys,
  markOutboxDelivery,
} from '../../repositories/outbox.repository.js';
import { transactionWithRetry } from '../../db/transaction-retry.js';

/** One e-mail to send. `purpose` names the flow (sign-up, invite…) for the outbox and the cap. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Sender; the deployment's MAIL_FROM when absent. */
  from?: { address: string; name?: string };
  purpose: string;
  /** The account the mail goes out on behalf of (capped per hour too), when there is one. */
  account?: string;
}

/** One text message. */
export interface OutgoingSms {
  to: string;
  text: string;
  purpose: string;
  /** The account the text goes out on behalf of (capped per hour too), when there is one. */
  account?: string;
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
  /** Mails or texts one recipient may receive per hour. */
  sendsPerHour: number;
  /** Mails and texts sent on behalf of one account per hour, to anyone; `sendsPerHour` if absent. */
  sendsPerAccountPerHour?: number;
  sms?: SmsProvider;
  clock?: () => number;
  /** How long SMTP may stay silent; SMTP_TIMEOUTS unless a test shortens them. */
  smtpTimeouts?: SmtpTimeouts;
}

/** nodemailer's three waits, in milliseconds. */
export interface SmtpTimeouts {
  /** For the TCP (and TLS) connection to open. */
  connectionMs: number;
  /** For the server's 220 greeting once connected. */
  greetingMs: number;
  /** For any answer once the conversation runs (the reply to the mail's final dot included). */
  socketMs: number;
}

/**
 * Invites, deletion and sender codes wait for SMTP inside the API request, so an SMTP host that
 * accepts and says nothing must fail the request in seconds. nodemailer's defaults (2 min to
 * connect, 30 s for the greeting, 10 min of silence) held such a request for up to 10 minutes.
 * A relay answers each step in well under a second; 10 s + 10 s + 20 s leaves a slow one room.
 */
export const SMTP_TIMEOUTS: SmtpTimeouts = {
  connectionMs: 10_000,
  greetingMs: 10_000,
  socketMs: 20_000,
};

/** Failure to hand a message to SMTP or the SMS provider (RainMaker 100026, mail failed). */
const DELIVERY_FAILED = 100026;

/**
 * Sends mail over SMTP (nodemailer) when SMTP_URL is set and texts through an SmsProvider when one
 * is given; otherwise keeps each message in `outbox_messages` and logs a line, so a fresh install
 * works and an operator can read what would have gone out. Every message is recorded either way,
 * and each recipient gets at most `sendsPerHour` messages an hour, each account has at most
 * `sendsPerAccountPerHour` sent on its behalf (429 beyond, and nothing is sent).
 */
export class MessagingService {
  private readonly transport: Transporter | undefined;
  private readonly clock: () => number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly logger: Logger,
    private readonly options: MessagingOptions,
  ) {
    const timeouts = options.smtpTimeouts ?? SMTP_TIMEOUTS;
    this.transport = options.smtpUrl
      ? nodemailer.createTransport({
          url: options.smtpUrl,
          connectionTimeout: timeouts.connectionMs,
          greetingTimeout: timeouts.greetingMs,
          socketTimeout: timeouts.socketMs,
        })
      : undefined;
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

  /**
   * Records a message unless the recipient or the account already had its hourly share (429).
   * The count and the insert run in one transaction holding a lock per key, so parallel sends
   * cannot both pass the last free place.
   */
  private async record(message: OutboxMessagesTable): Promise<void> {
    const now = message.created_at;
    const since = now - 3600;
    const account = message.account_id;
    await transactionWithRetry(this.db, async (trx) => {
      const keys = [`to:${message.recipient}`];
      if (account !== null) keys.push(`account:${account}`);
      await lockSendKeys(trx, keys, now);
      if ((await countSentTo(trx, message.recipient, since)) >= this.options.sendsPerHour)
        throw tooManyRequests();
      const perAccount = this.options.sendsPerAccountPerHour ?? this.options.sendsPerHour;
      if (account !== null && (await countSentFor(trx, account, since)) >= perAccount)
        throw tooManyRequests();
      await insertOutboxMessage(trx, message);
    });
  }

  async sendMail(mail: OutgoingMail): Promise<void> {
    const to = mail.to.trim().toLowerCase();
    const from = mail.from
      ? mail.from.name
        ? `"${mail.from.name.replace(/["\\\r\n]/g, '')}" <${mail.from.address}>`
        : mail.from.address
      : this.options.from;
    const messageId = randomUUID();
    await this.record({
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
      account_id: mail.account ?? null,
    });
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
      throw new AppError(500, DELIVERY_FAILED, MESSAGES.mailDeliveryFailed);
    }
  }

  async sendSms(sms: OutgoingSms): Promise<void> {
    const to = sms.to.replace(/\s+/g, '');
    const messageId = randomUUID();
    const provider = this.options.sms;
    await this.record({
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
      account_id: sms.account ?? null,
    });
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
      throw new AppError(500, DELIVERY_FAILED, MESSAGES.smsDeliveryFailed);
    }
  }

  private async markDelivered(messageId: string, error: string | null): Promise<void> {
    await markOutboxDelivery(this.db, messageId, error, this.now());
  }

  /** The newest messages first, for the operator's outbox view. */
  async listOutbox(limit: number, channel?: 'email' | 'sms') {
    return listOutboxMessages(this.db, limit, channel);
  }

  async close(): Promise<void> {
    this.transport?.close();
  }
}
