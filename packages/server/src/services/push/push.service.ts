import { createHash, randomUUID } from 'node:crypto';
import {
  MOBILE_PUSH_INTEGRATION,
  PUSH_ERROR_CODES,
  PUSH_EVENT_PREFIX,
  PUSH_EVENTS,
  PUSH_LIMITS,
  PUSH_MESSAGES,
  PUSH_PLATFORMS,
  systemEntityId,
  type EventFilter,
  type EventFilterBody,
  type MobilePlatform,
  type MobilePlatformCreateBody,
  type PlatformEndpointCreateBody,
  type PushEvent,
  type PushPlatform,
  type WebhookIntegration,
  type WebhookIntegrationBody,
} from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import type { Database, EventFiltersTable } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { findNode } from '../../repositories/node.repository.js';
import { nodeAudience } from '../../repositories/sharing.repository.js';
import {
  deleteEndpoint,
  deletePlatform,
  deleteUserEndpoints,
  endpointsOfUsers,
  findEndpointByToken,
  findPlatformByType,
  insertEndpoint,
  insertEventFilter,
  insertIntegration,
  insertPlatform,
  listEventFilters,
  listIntegrations,
  listPlatforms,
  listUserEndpoints,
  trimUserEndpoints,
  updateEventFilter,
  updateIntegration,
} from '../../repositories/push.repository.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { FleetActivity, NodeEvents } from '../nodes/node-events.js';
import type { ConfigReloader } from '../settings/config-reloader.js';
import { verifyPlatformCredentials, type PlatformCredentials } from './push-credentials.js';
import {
  PushDispatcher,
  DEFAULT_DISPATCHER_OPTIONS,
  type DispatcherOptions,
} from './push-dispatcher.js';
import type { PushSender } from './push-sender.js';
import { messageOf, type PushOccurrence } from './push-message.js';
import { transactionWithRetry } from '../../db/transaction-retry.js';

/** Occurrences waiting for their recipients to be looked up, at most. */
const MAX_PENDING_OCCURRENCES = 10_000;

const sealContext = (arn: string) => `push_platforms:${arn}`;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** An occurrence and who it goes to (`user_ids` given, or everyone told about the node). */
type Pending = PushOccurrence & { user_ids?: string[] };

interface LoadedPlatform {
  platform: PushPlatform;
  credentials: PlatformCredentials;
}

/**
 * Push notifications: the settings (master switch, event filters, platforms, end users' devices)
 * and the runtime that turns fleet events into notifications. The switches and credentials are
 * cached in memory (reloaded on every change and when the configuration generation moves), so an
 * event that is switched off costs one lookup in a Set and nothing else.
 */
export class PushService {
  private masterEnabled = false;
  private enabledEvents = new Set<PushEvent>();
  private platforms = new Map<string, LoadedPlatform>();
  private pending: Pending[] = [];
  private resolving: Promise<void> | undefined;
  private unsubscribe: Array<() => void> = [];
  /** Occurrences dropped because the lookup queue was full. */
  droppedOccurrences = 0;
  private readonly dispatcher: PushDispatcher;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
    private readonly reloader: ConfigReloader,
    sender: PushSender,
    private readonly logger: Logger,
    dispatcherOptions: Partial<DispatcherOptions> = {},
    private readonly clock: () => number = Date.now,
  ) {
    reloader.register('push notifications', () => this.reload());
    this.dispatcher = new PushDispatcher(sender, (arn) => deleteEndpoint(this.db, arn), logger, {
      ...DEFAULT_DISPATCHER_OPTIONS,
      ...dispatcherOptions,
    });
  }

  /** Delivery counters (sent, failed, dropped, retried, invalid tokens). */
  get counters(): PushDispatcher['counters'] {
    return this.dispatcher.counters;
  }

  private now(): number {
    return Math.floor(this.clock() / 1000);
  }

  /** Reads the switches and platform credentials into memory. */
  async reload(): Promise<void> {
    const [integrations, filters, platforms] = await Promise.all([
      listIntegrations(this.db, MOBILE_PUSH_INTEGRATION, MOBILE_PUSH_INTEGRATION),
      listEventFilters(this.db, { entity_type: 'System' }),
      listPlatforms(this.db),
    ]);
    this.masterEnabled = integrations.some((row) => row.enabled === 1);
    const enabled = new Set<PushEvent>();
    for (const row of filters) {
      const event = row.event_type.slice(PUSH_EVENT_PREFIX.length) as PushEvent;
      const integrationsOn = (JSON.parse(row.integrations) as string[]).includes(
        MOBILE_PUSH_INTEGRATION,
      );
      if (
        row.enabled === 1 &&
        integrationsOn &&
        row.entity_id === systemEntityId(row.event_type) &&
        (PUSH_EVENTS as readonly string[]).includes(event)
      )
        enabled.add(event);
    }
    this.enabledEvents = enabled;
    const loaded = new Map<string, LoadedPlatform>();
    for (const row of platforms) {
      try {
        const credentials = JSON.parse(
          this.box.open(row.credentials, sealContext(row.platform_application_arn)),
        ) as PlatformCredentials;
        loaded.set(row.platform_application_arn, {
          platform: row.platform as PushPlatform,
          credentials,
        });
      } catch (error) {
        this.logger.error(
          { err: error, arn: row.platform_application_arn },
          'cannot open push credentials',
        );
      }
    }
    this.platforms = loaded;
  }

  /** After a change: reload here, and make every other instance reload. */
  private async changed(): Promise<void> {
    await this.reloader.bump();
  }

  // --- Master switch (webhook integration) ---

  private assertMobileIntegration(serviceName: string, endpointName: string): void {
    if (serviceName !== MOBILE_PUSH_INTEGRATION || endpointName !== MOBILE_PUSH_INTEGRATION)
      throw badRequest(PUSH_MESSAGES.integrationInvalid, PUSH_ERROR_CODES.integrationInvalid);
  }

  /** The integrations (the master switch), optionally narrowed. */
  async integrations(serviceName?: string, endpointName?: string): Promise<WebhookIntegration[]> {
    const rows = await listIntegrations(this.db, serviceName, endpointName);
    return rows.map((row) => ({
      service_name: row.service_name,
      endpoint_name: row.endpoint_name,
      enabled: row.enabled === 1,
    }));
  }

  /** POST: creates the master switch; refuses when it exists. */
  async createIntegration(body: WebhookIntegrationBody): Promise<void> {
    this.assertMobileIntegration(body.service_name, body.endpoint_name);
    const created = await insertIntegration(this.db, {
      ...body,
      enabled: body.enabled ? 1 : 0,
      updated_at: this.now(),
    });
    if (!created)
      throw badRequest(PUSH_MESSAGES.integrationExists, PUSH_ERROR_CODES.integrationExists);
    await this.changed();
  }

  /** PUT: changes the master switch; refuses when it was never created. */
  async updateIntegration(body: WebhookIntegrationBody): Promise<void> {
    this.assertMobileIntegration(body.service_name, body.endpoint_name);
    const updated = await updateIntegration(this.db, {
      ...body,
      enabled: body.enabled ? 1 : 0,
      updated_at: this.now(),
    });
    if (!updated)
      throw badRequest(PUSH_MESSAGES.integrationMissing, PUSH_ERROR_CODES.integrationMissing);
    await this.changed();
  }

  // --- Event filters ---

  private filterRow(body: EventFilterBody): EventFiltersTable {
    if (body.entity_type !== 'System')
      throw badRequest(PUSH_MESSAGES.invalidEntityType, PUSH_ERROR_CODES.invalidEntityType);
    if (body.entity_id !== systemEntityId(body.event_type))
      throw badRequest(PUSH_MESSAGES.invalidEntityId);
    const integrations = [...new Set(body.enabled_for_integrations)];
    if (integrations.length === 0)
      throw badRequest(PUSH_MESSAGES.noIntegrations, PUSH_ERROR_CODES.noIntegrations);
    if (integrations.some((name) => name !== MOBILE_PUSH_INTEGRATION))
      throw badRequest(PUSH_MESSAGES.integrationInvalid, PUSH_ERROR_CODES.integrationInvalid);
    return {
      event_type: body.event_type,
      entity_type: body.entity_type,
      entity_id: body.entity_id,
      enabled: body.enabled ? 1 : 0,
      integrations: JSON.stringify(integrations),
      updated_at: this.now(),
    };
  }

  /** Event filters matching the query. */
  async eventFilters(where: {
    event_type?: string | undefined;
    entity_type?: string | undefined;
    entity_id?: string | undefined;
  }): Promise<EventFilter[]> {
    const rows = await listEventFilters(this.db, where);
    return rows.map((row) => ({
      event_type: row.event_type,
      entity_type: row.entity_type as EventFilter['entity_type'],
      entity_id: row.entity_id,
      enabled: row.enabled === 1,
      enabled_for_integrations: JSON.parse(row.integrations) as string[],
    }));
  }

  /** POST: creates an event filter; refuses when one exists for the event. */
  async createEventFilter(body: EventFilterBody): Promise<void> {
    const created = await insertEventFilter(this.db, this.filterRow(body));
    if (!created) throw badRequest(PUSH_MESSAGES.filterExists, PUSH_ERROR_CODES.filterExists);
    await this.changed();
  }

  /** PUT: changes an event filter; refuses when none exists for the event. */
  async updateEventFilter(body: EventFilterBody): Promise<void> {
    const updated = await updateEventFilter(this.db, this.filterRow(body));
    if (!updated) throw badRequest(PUSH_MESSAGES.filterMissing, PUSH_ERROR_CODES.filterMissing);
    await this.changed();
  }

  // --- Mobile platforms ---

  /** Every platform application; a 400 (114037) when there is none, as RainMaker answers. */
  async platformList(): Promise<MobilePlatform[]> {
    const rows = await listPlatforms(this.db);
    if (rows.length === 0)
      throw badRequest(PUSH_MESSAGES.noPlatforms, PUSH_ERROR_CODES.noPlatforms);
    return rows.map((row) => ({
      platform_application_arn: row.platform_application_arn,
      name: row.name,
      platform: row.platform as PushPlatform,
      Attributes: { Enabled: 'true', ...(JSON.parse(row.attributes) as Record<string, string>) },
    }));
  }

  /** Verifies and stores a platform's credentials (sealed); one per platform type. */
  async createPlatform(body: MobilePlatformCreateBody): Promise<string> {
    if (!(PUSH_PLATFORMS as readonly string[]).includes(body.platform))
      throw badRequest(PUSH_MESSAGES.invalidPlatform, PUSH_ERROR_CODES.invalidPlatform);
    if (await findPlatformByType(this.db, body.platform))
      throw badRequest(PUSH_MESSAGES.platformExists, PUSH_ERROR_CODES.platformExists);
    const { credentials, attributes } = verifyPlatformCredentials(body, this.clock());
    const arn = `arn:fleetdeck:push:app/${body.platform}/${randomUUID()}`;
    const created = await insertPlatform(this.db, {
      platform_application_arn: arn,
      platform: body.platform,
      name: body.name ?? `fleetdeck-${body.platform.toLowerCase()}`,
      credentials: this.box.seal(JSON.stringify(credentials), sealContext(arn)),
      attributes: JSON.stringify(attributes),
      created_at: this.now(),
    });
    if (!created) throw badRequest(PUSH_MESSAGES.platformExists, PUSH_ERROR_CODES.platformExists);
    await this.changed();
    return arn;
  }

  /** Deletes a platform application and the devices registered on it. */
  async deletePlatform(arn: string): Promise<void> {
    const deleted = await transactionWithRetry(this.db, (trx) => deletePlatform(trx, arn));
    if (!deleted) throw badRequest(PUSH_MESSAGES.platformMissing, PUSH_ERROR_CODES.platformMissing);
    await this.changed();
  }

  // --- End users' devices ---

  /** Registers a user's phone on the platform application of its type. */
  async registerEndpoint(userId: string, body: PlatformEndpointCreateBody): Promise<string> {
    const platform = await findPlatformByType(this.db, body.platform);
    if (!platform)
      throw badRequest(PUSH_MESSAGES.platformMissing, PUSH_ERROR_CODES.platformMissing);
    const tokenHash = hashToken(body.mobile_device_token);
    return transactionWithRetry(this.db, async (trx) => {
      const existing = await findEndpointByToken(trx, platform.platform_application_arn, tokenHash);
      if (existing && existing.user_id === userId)
        throw badRequest(PUSH_MESSAGES.endpointExists, PUSH_ERROR_CODES.endpointExists);
      // The phone signed in to another account: it now belongs to this one only.
      if (existing) await deleteEndpoint(trx, existing.platform_endpoint_arn);
      const arn = `arn:fleetdeck:push:endpoint/${body.platform}/${randomUUID()}`;
      await insertEndpoint(trx, {
        platform_endpoint_arn: arn,
        platform_application_arn: platform.platform_application_arn,
        user_id: userId,
        device_token: body.mobile_device_token,
        token_hash: tokenHash,
        created_at: this.now(),
      });
      // The oldest phones go past the cap (a reinstalled app leaves its old token behind).
      await trimUserEndpoints(trx, userId, arn, PUSH_LIMITS.endpointsPerUser);
      return arn;
    });
  }

  /** A user's registered phones. */
  async endpoints(userId: string) {
    const rows = await listUserEndpoints(this.db, userId);
    return rows.map((row) => ({
      mobile_device_token: row.device_token,
      platform_endpoint_arn: row.platform_endpoint_arn,
      platform_application_arn: row.platform_application_arn,
    }));
  }

  /** Removes a user's phone by token or endpoint ARN. */
  async removeEndpoint(
    userId: string,
    where: { mobile_device_token?: string | undefined; endpoint?: string | undefined },
  ): Promise<void> {
    if (!where.mobile_device_token && !where.endpoint)
      throw badRequest(PUSH_MESSAGES.endpointTarget, PUSH_ERROR_CODES.endpointTarget);
    const removed = await deleteUserEndpoints(this.db, userId, {
      tokenHash: where.mobile_device_token ? hashToken(where.mobile_device_token) : undefined,
      arn: where.endpoint || undefined,
    });
    if (removed === 0)
      throw badRequest(PUSH_MESSAGES.endpointMissing, PUSH_ERROR_CODES.endpointMissing);
  }

  // --- Runtime ---

  /** Listens to the fleet's post-commit events. */
  attach(events: NodeEvents): void {
    this.unsubscribe.push(
      events.onConnectivity((event) =>
        this.notify({
          event: event.connected ? 'node_connected' : 'node_disconnected',
          node_id: event.node_id,
        }),
      ),
      events.onActivity((activity) => this.notify(this.occurrenceOf(activity))),
    );
  }

  private occurrenceOf(activity: FleetActivity): Pending {
    switch (activity.kind) {
      case 'node_params_changed':
      case 'node_config_changed':
        return { event: activity.kind, node_id: activity.node_id };
      case 'node_alert':
        return {
          event: 'node_alert',
          node_id: activity.node_id,
          ...(activity.message ? { detail: activity.message } : {}),
        };
      case 'user_node_added':
      case 'user_node_removed':
      case 'node_shared_with_user':
        return { event: activity.kind, node_id: activity.node_id, user_ids: [activity.user_id] };
      case 'node_automation_trigger':
        return {
          event: activity.kind,
          node_id: activity.node_id,
          detail: activity.automation_name,
          user_ids: [activity.user_id],
        };
      case 'group_shared_with_user':
        return {
          event: activity.kind,
          group_id: activity.group_id,
          group_name: activity.group_name,
          user_ids: [activity.user_id],
        };
      case 'group_added':
      case 'group_removed':
        return {
          event: activity.kind,
          group_id: activity.group_id,
          group_name: activity.group_name,
          user_ids: activity.user_ids,
        };
    }
  }

  /** Whether an event would be sent now (master switch and its own switch on). */
  isEnabled(event: PushEvent): boolean {
    return this.masterEnabled && this.enabledEvents.has(event);
  }

  /**
   * Takes an occurrence; never waits and never throws. Switched-off events stop here; the rest
   * are looked up (recipients, devices) and queued for delivery in the background.
   */
  notify(occurrence: Pending): void {
    if (!this.isEnabled(occurrence.event) || this.platforms.size === 0) return;
    if (occurrence.user_ids?.length === 0) return;
    if (this.pending.length >= MAX_PENDING_OCCURRENCES) {
      this.droppedOccurrences += 1;
      return;
    }
    this.pending.push(occurrence);
    this.resolving ??= this.resolvePending().finally(() => {
      this.resolving = undefined;
    });
  }

  private async resolvePending(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, 100);
      for (const occurrence of batch) {
        try {
          await this.resolve(occurrence);
        } catch (error) {
          this.logger.warn(
            { err: error, event: occurrence.event },
            'push recipients lookup failed',
          );
        }
      }
    }
  }

  private async resolve(occurrence: Pending): Promise<void> {
    let userIds = occurrence.user_ids ?? [];
    let nodeName: string | undefined;
    if (occurrence.node_id) {
      const node = await findNode(this.db, occurrence.node_id);
      nodeName = node?.name || undefined;
      // Node events reach its primary and secondary users and those a group holding it is shared with.
      if (!occurrence.user_ids && node) userIds = await nodeAudience(this.db, occurrence.node_id);
    }
    if (userIds.length === 0) return;
    const targets = await endpointsOfUsers(this.db, userIds);
    const message = messageOf({ ...occurrence, ...(nodeName ? { node_name: nodeName } : {}) });
    for (const target of targets) {
      const platform = this.platforms.get(target.platform_application_arn);
      if (!platform) continue;
      this.dispatcher.enqueue(
        {
          platformArn: target.platform_application_arn,
          platform: platform.platform,
          credentials: platform.credentials,
          deviceToken: target.device_token,
          message,
        },
        target.platform_endpoint_arn,
      );
    }
  }

  /** Resolves when every accepted occurrence has been looked up and delivered (or given up). */
  async whenIdle(): Promise<void> {
    while (this.resolving) await this.resolving;
    await this.dispatcher.whenIdle();
  }

  /** Stops listening, drops pending retries and closes sender connections. */
  async stop(): Promise<void> {
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
    this.pending = [];
    await this.resolving;
    await this.dispatcher.stop();
  }
}
