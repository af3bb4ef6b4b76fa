import {
  SHARING_ERROR_CODES,
  SHARING_LIMITS,
  SHARING_MESSAGES,
  type Automation,
  type AutomationAction,
  type AutomationCheck,
  type AutomationCreateBody,
  type AutomationEvent,
  type AutomationListQuery,
  type AutomationUpdateBody,
  type AutomationValue,
} from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import type { Database, NodeAutomationsTable } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import type { NodeGateway } from '../../gateway/node-gateway.js';
import type { Logger } from '../../logger.js';
import {
  automationNameTaken,
  countUserAutomations,
  deleteAutomation,
  enabledAutomationsOfNode,
  findAutomation,
  insertAutomation,
  listUserAutomations,
  nodesWithEnabledAutomations,
  updateAutomation,
} from '../../repositories/automation.repository.js';
import { controllableNodes } from '../../repositories/sharing.repository.js';
import type { ParamsChange, ParamsWatcher } from '../nodes/node-ingest.service.js';
import type { NodeEvents } from '../nodes/node-events.js';
import type { ConfigReloader } from '../settings/config-reloader.js';
import { timeOrderedId } from '../sharing/time-ordered-id.js';
import { fires, type AutomationCondition } from './automation-conditions.js';
import { transactionWithRetry } from '../../db/transaction-retry.js';

/** Params changes waiting for evaluation, at most (beyond this they are dropped and counted). */
const MAX_PENDING_CHANGES = 10_000;

/** An enabled automation as the evaluator holds it. */
interface LoadedAutomation extends AutomationCondition {
  automationId: string;
  userId: string;
  nodeId: string;
  name: string;
  actions: AutomationAction[];
}

function conditionOf(event: AutomationEvent): Omit<AutomationCondition, 'retrigger'> {
  const [device, params] = Object.entries(event.params)[0] ?? [];
  const [param, value] = Object.entries(params ?? {})[0] ?? [];
  // The contract schema admits exactly one device with one param.
  if (device === undefined || param === undefined || value === undefined)
    throw badRequest(SHARING_MESSAGES.automationEvent);
  return { device, param, check: event.check, value };
}

function loaded(row: NodeAutomationsTable): LoadedAutomation {
  return {
    automationId: row.automation_id,
    userId: row.user_id,
    nodeId: row.node_id,
    name: row.name,
    device: row.device,
    param: row.param,
    check: row.check_op as AutomationCheck,
    value: JSON.parse(row.value) as AutomationValue,
    retrigger: row.retrigger === 1,
    actions: JSON.parse(row.actions) as AutomationAction[],
  };
}

/** An automation as the API shows it (RainMaker's `automation_trigger_actions` item). */
function presentAutomation(row: NodeAutomationsTable): Automation {
  const value = JSON.parse(row.value) as AutomationValue;
  return {
    automation_id: row.automation_id,
    automation_name: row.name,
    enabled: row.enabled === 1,
    node_id: row.node_id,
    event_type: 'node_params',
    events: [
      { params: { [row.device]: { [row.param]: value } }, check: row.check_op as AutomationCheck },
    ],
    event_operator: row.event_operator === 'or' ? 'or' : 'and',
    actions: JSON.parse(row.actions) as AutomationAction[],
    retrigger: row.retrigger === 1,
  };
}

/**
 * End users' node automations (docs/adr/0014): the API, and the evaluator the ingest tells about
 * committed params. The ingest asks `watches(node)` — one lookup in the set of nodes that have an
 * enabled automation — so nodes without automations cost nothing more. A watched node's
 * automations are loaded on its first change and cached; every change of an automation bumps the
 * configuration generation, which reloads the set and drops the cache here at once and on other
 * instances within one poll. Evaluation, the `node_automation_trigger` event and the actions
 * (params published on `node/<id>/params/remote`) all run after the ingest commit, off its path.
 */
export class AutomationService implements ParamsWatcher {
  private watched = new Set<string>();
  private byNode = new Map<string, LoadedAutomation[]>();
  /** Moves on every reload, so a load that raced with a change is not cached. */
  private epoch = 0;
  private queue: ParamsChange[] = [];
  private draining: Promise<void> | undefined;
  private gateway: NodeGateway | undefined;
  private events: NodeEvents | undefined;
  /** Evaluation and action counters (dropped: changes refused because the queue was full). */
  readonly counters = { triggered: 0, published: 0, skipped: 0, failed: 0, dropped: 0 };

  constructor(
    private readonly db: Kysely<Database>,
    private readonly reloader: ConfigReloader,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {
    reloader.register('node automations', () => this.reload());
  }

  /** Connects the post-commit event fan-out (app start-up). */
  setEvents(events: NodeEvents): void {
    this.events = events;
  }

  /** Publishes actions through the device gateway once it runs (main does it after start-up). */
  attachGateway(gateway: NodeGateway): void {
    this.gateway = gateway;
  }

  private now(): number {
    return Math.floor(this.clock() / 1000);
  }

  /** Reads which nodes have enabled automations and forgets the cached automations. */
  async reload(): Promise<void> {
    const nodeIds = await nodesWithEnabledAutomations(this.db);
    this.epoch += 1;
    this.byNode.clear();
    this.watched = new Set(nodeIds);
  }

  /** After a change: reload here, and make every other instance reload. */
  private async changed(): Promise<void> {
    await this.reloader.bump();
  }

  // --- API ---

  private async assertControllable(
    db: Kysely<Database>,
    userId: string,
    nodeId: string,
    actions: readonly AutomationAction[],
  ): Promise<void> {
    const wanted = [...new Set([nodeId, ...actions.map((action) => action.node_id)])];
    const allowed = await controllableNodes(db, userId, wanted);
    if (wanted.some((id) => !allowed.has(id)))
      throw badRequest(
        SHARING_MESSAGES.automationNodeNotOwned,
        SHARING_ERROR_CODES.automationNodeNotOwned,
      );
  }

  /** Creates an automation on a node the user holds (primary or secondary); its id. */
  async create(userId: string, body: AutomationCreateBody): Promise<string> {
    const [event] = body.events;
    if (!event) throw badRequest(SHARING_MESSAGES.automationEvent);
    const condition = conditionOf(event);
    const automationId = timeOrderedId(this.clock());
    const now = this.now();
    await transactionWithRetry(this.db, async (trx) => {
      await this.assertControllable(trx, userId, body.node_id, body.actions);
      if ((await countUserAutomations(trx, userId)) >= SHARING_LIMITS.automationsPerUser)
        throw badRequest(SHARING_MESSAGES.automationLimit, SHARING_ERROR_CODES.automationLimit);
      const created = await insertAutomation(trx, {
        automation_id: automationId,
        user_id: userId,
        node_id: body.node_id,
        name: body.name,
        enabled: body.enabled ? 1 : 0,
        ...this.conditionColumns(condition),
        event_operator: body.event_operator ?? 'and',
        actions: JSON.stringify(body.actions),
        retrigger: body.retrigger ? 1 : 0,
        created_at: now,
        updated_at: now,
      });
      if (!created)
        throw badRequest(
          SHARING_MESSAGES.automationNameTaken,
          SHARING_ERROR_CODES.automationNameTaken,
        );
    });
    await this.changed();
    return automationId;
  }

  private conditionColumns(condition: Omit<AutomationCondition, 'retrigger'>) {
    return {
      device: condition.device,
      param: condition.param,
      check_op: condition.check,
      value: JSON.stringify(condition.value),
    };
  }

  /** Changes any of an automation's fields; the user must still hold every node it names. */
  async update(userId: string, automationId: string, body: AutomationUpdateBody): Promise<void> {
    if (Object.values(body).every((value) => value === undefined))
      throw badRequest(
        SHARING_MESSAGES.automationNothingToUpdate,
        SHARING_ERROR_CODES.automationNothingToUpdate,
      );
    const [event] = body.events ?? [];
    const condition = event ? conditionOf(event) : undefined;
    await transactionWithRetry(this.db, async (trx) => {
      const row = await findAutomation(trx, automationId);
      if (!row || row.user_id !== userId)
        throw badRequest(SHARING_MESSAGES.automationMissing, SHARING_ERROR_CODES.automationMissing);
      const nodeId = body.node_id ?? row.node_id;
      const name = body.name ?? row.name;
      const actions = body.actions ?? (JSON.parse(row.actions) as AutomationAction[]);
      await this.assertControllable(trx, userId, nodeId, actions);
      if (await automationNameTaken(trx, { userId, nodeId, name, exceptId: automationId }))
        throw badRequest(
          SHARING_MESSAGES.automationNameTaken,
          SHARING_ERROR_CODES.automationNameTaken,
        );
      await updateAutomation(trx, automationId, {
        node_id: nodeId,
        name,
        enabled: body.enabled === undefined ? row.enabled : body.enabled ? 1 : 0,
        ...(condition
          ? this.conditionColumns(condition)
          : { device: row.device, param: row.param, check_op: row.check_op, value: row.value }),
        event_operator: body.event_operator ?? row.event_operator,
        actions: JSON.stringify(actions),
        retrigger: body.retrigger === undefined ? row.retrigger : body.retrigger ? 1 : 0,
        updated_at: this.now(),
      });
    });
    await this.changed();
  }

  /** Deletes one of the user's automations. */
  async delete(userId: string, automationId: string): Promise<void> {
    const removed = await deleteAutomation(this.db, userId, automationId);
    if (!removed)
      throw badRequest(SHARING_MESSAGES.automationMissing, SHARING_ERROR_CODES.automationMissing);
    await this.changed();
  }

  /** The user's automations (one by id, those of a node, or a keyset page of all). */
  async list(
    userId: string,
    query: AutomationListQuery,
  ): Promise<{ automations: Automation[]; nextId: string | undefined }> {
    const rows = await listUserAutomations(this.db, {
      userId,
      automationId: query.automation_id,
      nodeId: query.node_id,
      startId: query.start_id,
      limit: query.num_records,
    });
    if (query.automation_id !== undefined && rows.length === 0)
      throw badRequest(SHARING_MESSAGES.automationMissing, SHARING_ERROR_CODES.automationMissing);
    return {
      automations: rows.slice(0, query.num_records).map(presentAutomation),
      nextId: rows[query.num_records]?.automation_id,
    };
  }

  /** Drops the cache after automations were removed elsewhere (sharing ended). */
  async automationsRemoved(): Promise<void> {
    await this.changed();
  }

  // --- Evaluation (ParamsWatcher) ---

  /** Whether the node has an enabled automation (called inside the ingest transaction). */
  watches(nodeId: string): boolean {
    return this.watched.has(nodeId);
  }

  /** Queues committed changes for evaluation; returns at once. */
  paramsCommitted(changes: ParamsChange[]): void {
    for (const change of changes) {
      if (this.queue.length >= MAX_PENDING_CHANGES) {
        this.counters.dropped += 1;
        continue;
      }
      this.queue.push(change);
    }
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, 100);
      for (const change of batch) {
        try {
          await this.evaluate(change);
        } catch (error) {
          this.logger.warn({ err: error, nodeId: change.nodeId }, 'automation evaluation failed');
        }
      }
    }
  }

  private async automationsOf(nodeId: string): Promise<LoadedAutomation[]> {
    const cached = this.byNode.get(nodeId);
    if (cached) return cached;
    const epoch = this.epoch;
    const list = (await enabledAutomationsOfNode(this.db, nodeId)).map(loaded);
    if (epoch === this.epoch && this.watched.has(nodeId)) this.byNode.set(nodeId, list);
    return list;
  }

  private async evaluate(change: ParamsChange): Promise<void> {
    for (const automation of await this.automationsOf(change.nodeId)) {
      if (fires(automation, change)) await this.run(automation);
    }
  }

  /** Tells the owner and sets the actions' params, on the nodes the owner still holds. */
  private async run(automation: LoadedAutomation): Promise<void> {
    const allowed = await controllableNodes(this.db, automation.userId, [
      automation.nodeId,
      ...automation.actions.map((action) => action.node_id),
    ]);
    // The owner lost the node (released, or its share ended): the automation is inert.
    if (!allowed.has(automation.nodeId)) return;
    this.counters.triggered += 1;
    this.events?.emitActivity({
      kind: 'node_automation_trigger',
      node_id: automation.nodeId,
      user_id: automation.userId,
      automation_id: automation.automationId,
      automation_name: automation.name,
    });
    for (const action of automation.actions) {
      if (!allowed.has(action.node_id) || !this.gateway) {
        this.counters.skipped += 1;
        continue;
      }
      try {
        await this.gateway.publishToNode(action.node_id, 'params/remote', action.params);
        this.counters.published += 1;
      } catch (error) {
        this.counters.failed += 1;
        this.logger.warn(
          { err: error, automationId: automation.automationId, nodeId: action.node_id },
          'automation action publish failed',
        );
      }
    }
  }

  /** Resolves when every queued change has been evaluated and its actions published. */
  async whenIdle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** Drops queued changes and waits for the evaluation in flight. */
  async stop(): Promise<void> {
    this.queue = [];
    await this.whenIdle();
  }
}
