import { randomUUID } from 'node:crypto';
import {
  ERROR_CODES,
  MAPPING_OPEN_REQUESTS_PER_USER,
  MAPPING_REQUEST_STATUSES,
  MAPPING_REQUEST_TIMEOUT_SECONDS,
  SERVER_MESSAGES,
  SHARING_ERROR_CODES,
  SHARING_MESSAGES,
  type AdminNodesQuery,
  type NodeRegistration,
} from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database, NodesTable } from '../../db/schema.js';
import { lockGroupMembership } from '../../db/dialect.js';
import { transactionWithRetry } from '../../db/transaction-retry.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import { refreshAutomaticMembership } from '../../repositories/group.repository.js';
import {
  addToCounters,
  countNodes,
  counterQuery,
  existingNodeIds,
  findNode,
  findNodeCredential,
  ID_VERSION_COUNTER,
  insertNodes,
  listNodesCounted,
  listNodesWithScalar,
  readIdVersion,
  replaceNodeTags,
  stateTypeCounter,
  type NodeFilter,
  type NodeListRow,
} from '../../repositories/node.repository.js';
import {
  countOpenRequestsOf,
  findMappingRequest,
  insertMappingRequest,
  markTimedOutMappings,
  releaseNode,
} from '../../repositories/mapping.repository.js';
import { hashMosquittoPassword } from '../../gateway/mosquitto-config.js';
import { hashNodeSecret, newNodeId, newNodeSecret, nodeSecretMatches } from './node-credentials.js';
import type { NodeEvents } from './node-events.js';
import { derivedKeys } from './node-tags.js';
import {
  recordNodesRegistered,
  recordRelease,
  recordTimedOutRequests,
} from '../stats/stats-events.js';

const MappingRequestStatusSchema = z.enum(MAPPING_REQUEST_STATUSES);
type MappingRequestStatus = z.infer<typeof MappingRequestStatusSchema>;

/** The repository filter of a fleet-list query. */
function toFilter(query: AdminNodesQuery): NodeFilter {
  return {
    nodeId: query.node_id,
    search: query.search,
    status: query.node_status,
    type: query.type,
    model: query.model,
    fwVersion: query.fw_version,
    tag: query.tags,
    city: query.city,
    serial: query.serial,
  };
}

/** The prefix of a filter that is a node-id search and nothing else. */
function searchPrefixOnly(filter: NodeFilter): string | undefined {
  const prefix = filter.search;
  if (prefix === undefined) return undefined;
  const alone = Object.entries(filter).every(
    ([key, value]) => key === 'search' || value === undefined,
  );
  return alone ? prefix : undefined;
}

/** Search prefixes whose totals are kept (the oldest goes first). */
const SEARCH_TOTALS_KEPT = 1000;

/** Credentials handed out once at registration. */
export interface RegisteredNode {
  node_id: string;
  mqtt_username: string;
  mqtt_password: string;
  secret_key: string;
}

/** One page of nodes with the cursor of the next page. */
export interface NodePage {
  rows: NodeListRow[];
  total: number;
  nextId: string | undefined;
}

/** The node registry: registration, listing, tags, credentials and user ↔ node mapping requests. */
export class NodeService {
  /** Where user–node mapping changes are told after commit (push notifications). */
  private events: NodeEvents | undefined;

  /** Totals of node-id searches by prefix, with the id-set version they were counted at. */
  private readonly searchTotals = new Map<string, { version: number; total: number }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Connects the post-commit event fan-out (app start-up). */
  setEvents(events: NodeEvents): void {
    this.events = events;
  }

  private now(): number {
    return Math.floor(this.clock() / 1000);
  }

  /** Registers nodes in one transaction and returns each node's credentials (shown only once). */
  async register(registrations: readonly NodeRegistration[]): Promise<RegisteredNode[]> {
    const ids = registrations.map((r) => r.node_id ?? newNodeId());
    const duplicates = ids.filter((id, index) => ids.indexOf(id) !== index);
    if (duplicates.length > 0) throw badRequest(`Node id ${duplicates[0]} is given more than once`);
    const now = this.now();
    const issued: RegisteredNode[] = [];
    const rows: NodesTable[] = registrations.map((registration, index) => {
      const nodeId = ids[index] as string;
      const password = newNodeSecret();
      const secretKey = newNodeSecret();
      issued.push({
        node_id: nodeId,
        mqtt_username: nodeId,
        mqtt_password: password,
        secret_key: secretKey,
      });
      const { city, serial } = derivedKeys(registration.tags);
      return {
        node_id: nodeId,
        name: registration.name ?? `${registration.type} ${nodeId.slice(-4)}`,
        type: registration.type,
        model: registration.model,
        fw_version: registration.fw_version,
        city,
        serial,
        tags: JSON.stringify(registration.tags),
        credential_hash: hashNodeSecret(password),
        broker_credential: hashMosquittoPassword(password),
        secret_key_hash: hashNodeSecret(secretKey),
        registered_at: now,
        activated_at: null,
        connected: null,
        conn_changed_at: null,
        conn_session: 0,
        params: null,
        config_updated_at: null,
        params_updated_at: null,
        last_activity_at: null,
        primary_user_id: null,
        claimed_at: null,
      };
    });
    await transactionWithRetry(this.db, async (trx) => {
      const existing = await existingNodeIds(trx, ids);
      if (existing.length > 0) {
        throw new AppError(
          409,
          ERROR_CODES.nodeAlreadyRegistered,
          `Node ${existing[0]} is already registered`,
        );
      }
      await insertNodes(trx, rows);
      const byType: Record<string, number> = { total: rows.length, not_activated: rows.length };
      for (const row of rows) {
        const name = stateTypeCounter('not_activated', row.type);
        byType[name] = (byType[name] ?? 0) + 1;
      }
      await addToCounters(trx, byType);
      await recordNodesRegistered(trx, rows.length, now);
      // New nodes join every automatic group whose filters they match.
      await lockGroupMembership(trx);
      await refreshAutomaticMembership(trx, ids);
    });
    return issued;
  }

  /** A keyset page of the fleet for admins. */
  async listForAdmin(query: AdminNodesQuery): Promise<NodePage> {
    return this.page(
      toFilter(query),
      query.start_id,
      query.num_records,
      query.node_details === 'true',
    );
  }

  /** A keyset page of the nodes an end user has claimed, with the same filters. */
  async listForUser(userId: string, query: AdminNodesQuery): Promise<NodePage> {
    return this.page(
      { ...toFilter(query), userId },
      query.start_id,
      query.num_records,
      query.node_details === 'true',
    );
  }

  private async page(
    filter: NodeFilter,
    startId: string | undefined,
    limit: number,
    withDocuments: boolean,
  ): Promise<NodePage> {
    // The total is read by the page's own statement (one round trip): the counter or COUNT
    // itself, or, for a node-id search, the id-set version its kept total depends on.
    const prefix = searchPrefixOnly(filter);
    let page: { rows: NodeListRow[]; total: number };
    if (prefix === undefined) {
      page = await listNodesCounted(this.db, filter, startId, limit, withDocuments);
    } else {
      const read = await listNodesWithScalar(
        this.db,
        filter,
        startId,
        limit,
        withDocuments,
        counterQuery(ID_VERSION_COUNTER),
      );
      page = { rows: read.rows, total: await this.searchTotal(filter, prefix, read.scalar) };
    }
    const next = page.rows.length > limit ? page.rows[limit] : undefined;
    return { rows: page.rows.slice(0, limit), total: page.total, nextId: next?.node_id };
  }

  /**
   * The exact total of a node-id search. It depends only on the set of node ids, so it is kept
   * per prefix with that set's version and counted again only when the version moved; every page
   * of a search repeats the same total (ADR 22). `versionRead` is the version read with the page
   * (null: the counter is missing; undefined: the page was empty and did not carry it).
   */
  private async searchTotal(
    filter: NodeFilter,
    prefix: string,
    versionRead: number | string | null | undefined,
  ): Promise<number> {
    // The version is read before counting: a node registered in between leaves the new count
    // under the old version, so it is counted again next time; never an old count under a new one.
    const version =
      versionRead === undefined
        ? await readIdVersion(this.db)
        : versionRead === null
          ? undefined
          : Number(versionRead);
    if (version === undefined) return countNodes(this.db, filter);
    const kept = this.searchTotals.get(prefix);
    if (kept?.version === version) return kept.total;
    const total = await countNodes(this.db, filter);
    this.searchTotals.delete(prefix);
    this.searchTotals.set(prefix, { version, total });
    if (this.searchTotals.size > SEARCH_TOTALS_KEPT)
      this.searchTotals.delete(this.searchTotals.keys().next().value!);
    return total;
  }

  /** Replaces a node's tags (location first, then the serial). */
  async setTags(nodeId: string, tags: readonly string[]): Promise<void> {
    // Run again if PostgreSQL aborts it for a deadlock: it writes only to the database (ADR 37).
    await transactionWithRetry(this.db, async (trx) => {
      if (!(await findNode(trx, nodeId))) throw notFound(SERVER_MESSAGES.nodeNotFound);
      const { city, serial } = derivedKeys(tags);
      await replaceNodeTags(trx, nodeId, tags, city, serial);
      // City and serial feed automatic groups: the node joins or leaves them now.
      await lockGroupMembership(trx);
      await refreshAutomaticMembership(trx, [nodeId]);
    });
  }

  /** Whether the presented MQTT password belongs to the node (constant time). */
  async authenticateNode(nodeId: string, password: string): Promise<boolean> {
    const stored = await findNodeCredential(this.db, nodeId);
    if (!stored) {
      // Same work as a real comparison, so unknown ids answer in the same time.
      nodeSecretMatches(password, hashNodeSecret('unknown-node'));
      return false;
    }
    return nodeSecretMatches(password, stored);
  }

  /**
   * An end user asks to be mapped to a node (secret-key flow): the request waits for the node's
   * `user/mapping` publish, or times out. `remove` releases a node the user holds at once.
   */
  async requestMapping(
    userId: string,
    nodeId: string,
    secretKey: string,
    operation: 'add' | 'remove',
  ): Promise<string> {
    const node = await findNode(this.db, nodeId);
    if (!node) throw notFound(SERVER_MESSAGES.nodeNotFound);
    const now = this.now();
    const requestId = randomUUID();
    if (operation === 'remove') {
      if (node.primary_user_id !== userId)
        throw badRequest(SHARING_MESSAGES.nodeNotOwned, SHARING_ERROR_CODES.nodeNotOwned);
      await transactionWithRetry(this.db, async (trx) => {
        await recordRelease(trx, nodeId, now);
        await releaseNode(trx, nodeId);
        await insertMappingRequest(trx, {
          request_id: requestId,
          node_id: nodeId,
          user_id: userId,
          secret_key_hash: hashNodeSecret(secretKey),
          operation,
          status: 'confirmed',
          created_at: now,
          updated_at: now,
        });
      });
      this.events?.emitActivity({ kind: 'user_node_removed', node_id: nodeId, user_id: userId });
      return requestId;
    }
    // Each request is a stored row: the open ones per user are capped.
    const open = await countOpenRequestsOf(this.db, userId, now - MAPPING_REQUEST_TIMEOUT_SECONDS);
    if (open >= MAPPING_OPEN_REQUESTS_PER_USER)
      throw new AppError(429, ERROR_CODES.tooManyRequests, SERVER_MESSAGES.tooManyRequests);
    await insertMappingRequest(this.db, {
      request_id: requestId,
      node_id: nodeId,
      user_id: userId,
      secret_key_hash: hashNodeSecret(secretKey),
      operation,
      status: 'requested',
      created_at: now,
      updated_at: now,
    });
    return requestId;
  }

  /** The state of a mapping request of this user (requested, confirmed, timedout, discarded). */
  async mappingStatus(userId: string, requestId: string): Promise<MappingRequestStatus> {
    await this.expireMappingRequests();
    const request = await findMappingRequest(this.db, requestId);
    if (!request || request.user_id !== userId)
      throw notFound(SERVER_MESSAGES.mappingRequestNotFound);
    return MappingRequestStatusSchema.parse(request.status);
  }

  /** Marks unconfirmed requests older than the timeout as timed out (periodic job). */
  async expireMappingRequests(): Promise<number> {
    const now = this.now();
    // The statistics count timed-out requests in the same transaction (ADR 8).
    return transactionWithRetry(this.db, async (trx) => {
      const expired = await markTimedOutMappings(trx, now - MAPPING_REQUEST_TIMEOUT_SECONDS, now);
      await recordTimedOutRequests(trx, expired, now);
      return expired;
    });
  }
}
