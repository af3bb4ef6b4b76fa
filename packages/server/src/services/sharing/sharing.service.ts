import {
  ALL_NODES_GROUP_ID,
  SHARING_LIMITS,
  SHARING_ERROR_CODES,
  SHARING_MESSAGES,
  type GroupSharingBody,
  type GroupSharingRequest,
  type GroupUnshareQuery,
  type NodeSharingBody,
  type NodeSharingDetails,
  type NodeSharingRequest,
  type NodeUnshareQuery,
  type SharingDecisionBody,
  type SharingRequestsQuery,
  type SharingResponse,
} from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import { lockSharingOffersOf } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import { transactionWithRetry } from '../../db/transaction-retry.js';
import { badRequest, notFound, type AppError } from '../../errors.js';
import { deleteUserAutomationsOn } from '../../repositories/automation.repository.js';
import {
  decideSharingRequest,
  deleteGroupShares,
  deleteNodeShares,
  existingGroups,
  findSharingRequest,
  groupsSharedWith,
  heldNodes,
  insertSharingRequest,
  listSharingRequests,
  pendingRequests,
  nodeHolders,
  primaryNodesOf,
  secondaryNodesOf,
  sharedGroups,
  sharedNodes,
  upsertGroupShares,
  upsertNodeShares,
  withdrawSharingRequest,
  type SharingRequestRow,
} from '../../repositories/sharing.repository.js';
import { findUserByName } from '../../repositories/user.repository.js';
import type { AutomationService } from '../automations/automation.service.js';
import type { FleetActivity, NodeEvents } from '../nodes/node-events.js';
import { timeOrderedId } from './time-ordered-id.js';

/** Nodes listed by the sharing details call, at most. */
const DETAILS_MAX_NODES = 500;

/** Whether a stored request's JSON id list names the same set as `wanted` (order and repeats aside). */
function sameIdSet(entityIds: string, wanted: ReadonlySet<string>): boolean {
  const stored = new Set(JSON.parse(entityIds) as string[]);
  return stored.size === wanted.size && [...stored].every((id) => wanted.has(id));
}

const success = (description: string, requestId: string): SharingResponse => ({
  status: 'success',
  description,
  request_id: requestId,
});

/**
 * Node sharing between end users and device-group sharing from admins to users (docs/adr/0014).
 * A share is a request the recipient accepts or declines; on accept the recipient becomes a
 * secondary user of the nodes (or starts hearing about the group's nodes) and is told with
 * `node_shared_with_user` / `group_shared_with_user` after commit.
 */
export class SharingService {
  private events: NodeEvents | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly automations: AutomationService,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Connects the post-commit event fan-out (app start-up). */
  setEvents(events: NodeEvents): void {
    this.events = events;
  }

  private now(): number {
    return Math.floor(this.clock() / 1000);
  }

  private emit(activity: readonly FleetActivity[]): void {
    for (const event of activity) this.events?.emitActivity(event);
  }

  /**
   * The account a share names. Asked only after the caller proved to hold what is shared, and an
   * unverified account answers like a missing one, so the call is no probe for who has an account.
   */
  private async recipient(userName: string, missing: AppError): Promise<string> {
    const user = await findUserByName(this.db, userName);
    if (!user || user.verified !== 1) throw missing;
    return user.user_id;
  }

  /**
   * Stores an offer unless the same one (same sender, recipient and set of ids) is pending, whose
   * id it returns instead; refuses with `full()` when the counted user's pending offers of this
   * kind reach the cap. The check and the insert run under that user's lock, so offers sent at
   * the same moment neither copy each other nor pass the cap together (ADR 14).
   */
  private offerOnce(offer: {
    kind: 'node' | 'group';
    from: string;
    to: string;
    ids: readonly string[];
    counted: 'sender' | 'recipient';
    cap: number;
    full: () => AppError;
  }): Promise<string> {
    const wanted = new Set(offer.ids);
    const bySender = offer.counted === 'sender';
    return transactionWithRetry(this.db, async (trx) => {
      await lockSharingOffersOf(trx, bySender ? offer.from : offer.to);
      const pending = await pendingRequests(
        trx,
        offer.kind,
        bySender ? { fromUserId: offer.from } : { toUserId: offer.to },
        offer.cap,
      );
      const same = pending.find(
        (request) =>
          request.from_user_id === offer.from &&
          request.to_user_id === offer.to &&
          sameIdSet(request.entity_ids, wanted),
      );
      if (same) return same.request_id;
      if (pending.length >= offer.cap) throw offer.full();
      const requestId = timeOrderedId(this.clock());
      const now = this.now();
      await insertSharingRequest(trx, {
        request_id: requestId,
        kind: offer.kind,
        from_user_id: offer.from,
        to_user_id: offer.to,
        entity_ids: JSON.stringify(offer.ids),
        status: 'pending',
        created_at: now,
        updated_at: now,
      });
      return requestId;
    });
  }

  // --- Nodes ---

  /** The primary user of every node offers them to another user (a pending request). */
  async shareNodes(userId: string, body: NodeSharingBody): Promise<SharingResponse> {
    const held = await heldNodes(this.db, userId, body.nodes);
    // Unknown nodes, other people's nodes and nodes held as a secondary user answer alike.
    if (held.length !== body.nodes.length)
      throw badRequest(SHARING_MESSAGES.notPrimary, SHARING_ERROR_CODES.notPrimary);
    const recipientId = await this.recipient(
      body.user_name,
      badRequest(SHARING_MESSAGES.userMissing, SHARING_ERROR_CODES.userMissing),
    );
    if (recipientId === userId)
      throw badRequest(SHARING_MESSAGES.selfSharing, SHARING_ERROR_CODES.selfSharing);
    const already = await sharedNodes(this.db, recipientId, body.nodes);
    // RainMaker: when the user holds every node already there is nothing to accept.
    if (already.length === body.nodes.length)
      return success(SHARING_MESSAGES.alreadyShared, timeOrderedId(this.clock()));
    // The same offer again is the same request; and the offers waiting for an answer are capped,
    // so no user can fill another's request list (or the table) with copies.
    const requestId = await this.offerOnce({
      kind: 'node',
      from: userId,
      to: recipientId,
      ids: body.nodes,
      counted: 'sender',
      cap: SHARING_LIMITS.pendingRequestsSent,
      full: () =>
        badRequest(SHARING_MESSAGES.pendingRequestLimit, SHARING_ERROR_CODES.pendingRequestLimit),
    });
    return success(SHARING_MESSAGES.requestCreated, requestId);
  }

  /** The recipient accepts (becomes a secondary user) or declines a node sharing request. */
  async decideNodeRequest(userId: string, body: SharingDecisionBody): Promise<string> {
    const invalid = badRequest(SHARING_MESSAGES.requestInvalid, SHARING_ERROR_CODES.requestInvalid);
    const now = this.now();
    const granted = await transactionWithRetry(this.db, async (trx) => {
      const request = await findSharingRequest(trx, body.request_id);
      if (
        !request ||
        request.kind !== 'node' ||
        request.to_user_id !== userId ||
        request.status !== 'pending'
      )
        throw invalid;
      const nodeIds = JSON.parse(request.entity_ids) as string[];
      let held: Awaited<ReturnType<typeof heldNodes>> = [];
      if (body.accept) {
        held = await heldNodes(trx, request.from_user_id, nodeIds);
        if (held.length !== nodeIds.length)
          throw badRequest(SHARING_MESSAGES.requestStale, SHARING_ERROR_CODES.notPrimary);
        await upsertNodeShares(
          trx,
          held.map((node) => ({
            node_id: node.node_id,
            user_id: userId,
            granted_by: request.from_user_id,
            granted_claim: node.claimed_at,
            created_at: now,
          })),
        );
      }
      const status = body.accept ? 'accepted' : 'declined';
      if (!(await decideSharingRequest(trx, request.request_id, userId, status, now)))
        throw invalid;
      return held.map((node) => node.node_id);
    });
    this.emit(
      granted.map((nodeId) => ({
        kind: 'node_shared_with_user',
        node_id: nodeId,
        user_id: userId,
      })),
    );
    return body.accept ? SHARING_MESSAGES.accepted : SHARING_MESSAGES.declined;
  }

  /** Pending requests the user received, or (`primary_user=true`) every request the user sent. */
  async nodeRequests(
    userId: string,
    query: SharingRequestsQuery,
  ): Promise<{ requests: NodeSharingRequest[]; next: string | undefined }> {
    const rows = await this.requestRows('node', userId, query);
    return {
      requests: rows.slice(0, query.num_records).map((row) => ({
        request_id: row.request_id,
        request_status: row.status,
        request_timestamp: Number(row.created_at),
        node_ids: JSON.parse(row.entity_ids) as string[],
        user_name: row.to_user_name,
        primary_user_name: row.from_user_name,
        user_role: 'secondary' as const,
      })),
      next: rows[query.num_records]?.request_id,
    };
  }

  private requestRows(
    kind: 'node' | 'group',
    userId: string,
    query: SharingRequestsQuery,
  ): Promise<SharingRequestRow[]> {
    return listSharingRequests(this.db, {
      kind,
      userId,
      side: query.primary_user ? 'from' : 'to',
      requestId: query.request_id,
      startId: query.start_request_id,
      limit: query.num_records,
    });
  }

  /** The sender withdraws a pending node sharing request. */
  async withdrawNodeRequest(userId: string, requestId: string): Promise<void> {
    if (!(await withdrawSharingRequest(this.db, requestId, userId, 'node')))
      throw notFound(SHARING_MESSAGES.requestNotFound, SHARING_ERROR_CODES.requestNotFound);
  }

  /**
   * The primary user ends another user's shares of nodes; that user's automations on them go too
   * (RainMaker deletes a node's automations with the node), and they are told `user_node_removed`.
   */
  async unshareNodes(userId: string, query: NodeUnshareQuery): Promise<void> {
    const held = await heldNodes(this.db, userId, query.nodes);
    if (held.length !== query.nodes.length)
      throw badRequest(SHARING_MESSAGES.notPrimary, SHARING_ERROR_CODES.notPrimary);
    const recipientId = await this.recipient(
      query.user_name,
      badRequest(SHARING_MESSAGES.userMissing, SHARING_ERROR_CODES.userMissing),
    );
    if (recipientId === userId)
      throw badRequest(SHARING_MESSAGES.selfSharing, SHARING_ERROR_CODES.selfSharing);
    const { removed, automations } = await transactionWithRetry(this.db, async (trx) => ({
      removed: await deleteNodeShares(trx, recipientId, query.nodes),
      automations: await deleteUserAutomationsOn(trx, recipientId, query.nodes),
    }));
    if (removed.length === 0)
      throw badRequest(SHARING_MESSAGES.nodeNotShared, SHARING_ERROR_CODES.nodeNotShared);
    if (automations > 0) await this.automations.automationsRemoved();
    this.emit(
      removed.map((nodeId) => ({
        kind: 'user_node_removed',
        node_id: nodeId,
        user_id: recipientId,
      })),
    );
  }

  /**
   * Who holds the caller's nodes (or one of them). A secondary user sees the primary user only,
   * as RainMaker answers.
   */
  async nodeSharing(userId: string, nodeId: string | undefined): Promise<NodeSharingDetails> {
    const [primary, secondary] = await Promise.all([
      primaryNodesOf(this.db, userId, nodeId, DETAILS_MAX_NODES),
      secondaryNodesOf(this.db, userId, nodeId, DETAILS_MAX_NODES),
    ]);
    if (nodeId !== undefined && primary.length === 0 && secondary.length === 0)
      throw badRequest(SHARING_MESSAGES.nodeNotOwned, SHARING_ERROR_CODES.nodeNotOwned);
    const holders = await nodeHolders(this.db, [...primary, ...secondary]);
    const primaryOf = (id: string) => {
      const name = holders.primary.get(id);
      return name ? [name] : [];
    };
    return {
      node_sharing: [
        ...primary.map((id) => ({
          node_id: id,
          users: { primary: primaryOf(id), secondary: holders.secondary.get(id) ?? [] },
        })),
        ...secondary.map((id) => ({ node_id: id, users: { primary: primaryOf(id) } })),
      ],
    };
  }

  // --- Device groups ---

  /**
   * An admin offers a device group's notifications to a user (a pending request). Fleetdeck's
   * groups belong to the operator, so this shares no control: the user, once accepting, is told
   * about the events of the group's nodes (docs/adr/0014).
   */
  async shareGroups(adminId: string, body: GroupSharingBody): Promise<SharingResponse> {
    if (body.groups.includes(ALL_NODES_GROUP_ID))
      throw badRequest(SHARING_MESSAGES.groupReserved, SHARING_ERROR_CODES.groupReserved);
    const groups = await existingGroups(this.db, body.groups);
    if (groups.length !== body.groups.length)
      throw badRequest(SHARING_MESSAGES.groupMissing, SHARING_ERROR_CODES.groupMissing);
    const recipientId = await this.recipient(
      body.user_name,
      badRequest(SHARING_MESSAGES.groupUserMissing, SHARING_ERROR_CODES.groupUserMissing),
    );
    if (recipientId === adminId)
      throw badRequest(SHARING_MESSAGES.groupSelfSharing, SHARING_ERROR_CODES.groupSelfSharing);
    const already = await sharedGroups(this.db, recipientId, body.groups);
    if (already.length === body.groups.length)
      return success(SHARING_MESSAGES.groupAlreadyShared, timeOrderedId(this.clock()));
    // As for nodes, the same offer again (same admin, user and set of groups) is the pending
    // request; the offers waiting for one user are capped across all admins (SHARING_LIMITS).
    const requestId = await this.offerOnce({
      kind: 'group',
      from: adminId,
      to: recipientId,
      ids: body.groups,
      counted: 'recipient',
      cap: SHARING_LIMITS.pendingGroupRequestsReceived,
      full: () =>
        badRequest(
          SHARING_MESSAGES.groupPendingRequestLimit,
          SHARING_ERROR_CODES.groupPendingRequestLimit,
        ),
    });
    return success(SHARING_MESSAGES.groupRequestCreated, requestId);
  }

  /** The user accepts (hears about the groups' nodes from now on) or declines a group request. */
  async decideGroupRequest(userId: string, body: SharingDecisionBody): Promise<string> {
    const invalid = badRequest(
      SHARING_MESSAGES.groupRequestInvalid,
      SHARING_ERROR_CODES.groupRequestInvalid,
    );
    const now = this.now();
    const granted = await transactionWithRetry(this.db, async (trx) => {
      const request = await findSharingRequest(trx, body.request_id);
      if (
        !request ||
        request.kind !== 'group' ||
        request.to_user_id !== userId ||
        request.status !== 'pending'
      )
        throw invalid;
      let groups: Awaited<ReturnType<typeof existingGroups>> = [];
      if (body.accept) {
        // Groups deleted since the offer are left out; all of them gone leaves nothing to accept.
        groups = await existingGroups(trx, JSON.parse(request.entity_ids) as string[]);
        if (groups.length === 0)
          throw badRequest(SHARING_MESSAGES.groupMissing, SHARING_ERROR_CODES.groupMissing);
        await upsertGroupShares(
          trx,
          groups.map((group) => ({
            group_id: group.group_id,
            user_id: userId,
            shared_by: request.from_user_id,
            created_at: now,
          })),
        );
      }
      const status = body.accept ? 'accepted' : 'declined';
      if (!(await decideSharingRequest(trx, request.request_id, userId, status, now)))
        throw invalid;
      return groups;
    });
    this.emit(
      granted.map((group) => ({
        kind: 'group_shared_with_user',
        group_id: group.group_id,
        group_name: group.group_name,
        user_id: userId,
      })),
    );
    return body.accept ? SHARING_MESSAGES.groupAccepted : SHARING_MESSAGES.groupDeclined;
  }

  /** Group requests the user received (pending), or with `primary_user=true` the ones sent. */
  async groupRequests(
    userId: string,
    query: SharingRequestsQuery,
  ): Promise<{ requests: GroupSharingRequest[]; next: string | undefined }> {
    const rows = (await this.requestRows('group', userId, query)).slice(0, query.num_records + 1);
    const ids = [...new Set(rows.flatMap((row) => JSON.parse(row.entity_ids) as string[]))];
    const names = new Map(
      (await existingGroups(this.db, ids)).map((group) => [group.group_id, group.group_name]),
    );
    return {
      requests: rows.slice(0, query.num_records).map((row) => {
        const groupIds = JSON.parse(row.entity_ids) as string[];
        return {
          request_id: row.request_id,
          request_status: row.status,
          request_timestamp: Number(row.created_at),
          group_ids: groupIds,
          group_names: groupIds.map((id) => names.get(id) ?? ''),
          user_name: row.to_user_name,
          primary_user_name: row.from_user_name,
        };
      }),
      next: rows[query.num_records]?.request_id,
    };
  }

  /** The groups shared with the user. */
  async groupsSharedWith(userId: string): Promise<Array<{ group_id: string; group_name: string }>> {
    return groupsSharedWith(this.db, userId);
  }

  /** An admin ends a user's shares of groups. */
  async unshareGroups(query: GroupUnshareQuery): Promise<void> {
    const recipientId = await this.recipient(
      query.user_name,
      badRequest(SHARING_MESSAGES.groupUserMissing, SHARING_ERROR_CODES.groupUserMissing),
    );
    await this.leaveGroups(recipientId, query.groups);
  }

  /** The user stops hearing about groups shared with them. */
  async leaveGroups(userId: string, groupIds: readonly string[]): Promise<void> {
    if ((await deleteGroupShares(this.db, userId, groupIds)) === 0)
      throw badRequest(SHARING_MESSAGES.groupNotShared, SHARING_ERROR_CODES.groupNotShared);
  }
}
