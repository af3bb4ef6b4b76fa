import { randomBytes } from 'node:crypto';
import {
  ALL_NODES_GROUP_ID,
  MESSAGES,
  NODE_TYPES,
  SERVER_MESSAGES,
  formatMessage,
  type CreateGroupBody,
  type GroupFilters,
} from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import { lockGroup, lockGroupMembership } from '../../db/dialect.js';
import { isForeignKeyViolation, transactionWithRetry } from '../../db/transaction-retry.js';
import type { Database, NodeGroupsTable } from '../../db/schema.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import type { NodeEvents } from '../nodes/node-events.js';
import {
  addManualMembers,
  countGroups,
  deleteGroup,
  memberPrimaryUsers,
  findGroup,
  insertGroup,
  listGroupNodes,
  listGroups,
  memberCounts,
  populateAutomaticGroup,
  removeMembers,
} from '../../repositories/group.repository.js';
import {
  cityKey,
  countNodes,
  existingNodeIds,
  listNodesCounted,
  serialKey,
  type NodeFilter,
  type NodeListRow,
} from '../../repositories/node.repository.js';
import { groupShareUsers } from '../../repositories/sharing.repository.js';

/** Error codes of the 1080xx group family. */
const GROUP_NOT_FOUND = 108029;
const NO_GROUPS = 108027;
const RESERVED_GROUP = 108016;

/** 404 for a group id that names no group (or one deleted meanwhile). */
const groupNotFound = () => notFound(SERVER_MESSAGES.groupNotFound, GROUP_NOT_FOUND);

/** A group with its member count and, for details, one page of its nodes. */
export interface GroupView {
  group: NodeGroupsTable;
  total: number;
  nodes?: NodeListRow[];
  nextNodeId?: string | undefined;
}

/** The filters of a group as stored (city and serial normalised like the nodes table). */
function storedFilters(
  filters: GroupFilters,
): Pick<
  NodeGroupsTable,
  'filter_type' | 'filter_model' | 'filter_fw_version' | 'filter_city' | 'filter_serial'
> {
  return {
    filter_type: filters.node_type ?? null,
    filter_model: filters.node_model ?? null,
    filter_fw_version: filters.node_fw_version ?? null,
    filter_city: filters.node_city ? cityKey(filters.node_city) : null,
    filter_serial: filters.node_serial_num ? serialKey(filters.node_serial_num) : null,
  };
}

/** The node-list filter equivalent to a group's filters. */
export function nodeFilterOf(filters: GroupFilters): NodeFilter {
  return {
    type: filters.node_type,
    model: filters.node_model,
    fwVersion: filters.node_fw_version,
    city: filters.node_city,
    serial: filters.node_serial_num,
  };
}

/** A stored group's filters in the API's names. */
export function filtersOf(group: NodeGroupsTable): GroupFilters {
  return {
    node_type: group.filter_type ?? undefined,
    node_model: group.filter_model ?? undefined,
    node_fw_version: group.filter_fw_version ?? undefined,
    node_city: group.filter_city ?? undefined,
    node_serial_num: group.filter_serial ?? undefined,
  };
}

/** `node_type:Air Conditioner&&node_city:pune` — the filters joined as the spec shows them. */
export function groupQuery(filters: GroupFilters): string {
  return Object.entries(filters)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([name, value]) => `${name}:${String(value)}`)
    .join('&&');
}

function newGroupId(): string {
  for (;;) {
    const hex = randomBytes(4).toString('hex').toUpperCase();
    const id = `${hex.slice(0, 4)}-${hex.slice(4)}`;
    if (id !== ALL_NODES_GROUP_ID) return id;
  }
}

/** Device groups: static and automatic (filter) groups, membership and the all-nodes group. */
export class GroupService {
  /** Where group creation and deletion are told after commit (push notifications). */
  private events: NodeEvents | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Connects the post-commit event fan-out (app start-up). */
  setEvents(events: NodeEvents): void {
    this.events = events;
  }

  /** Creates a group; with filters it holds every matching node from now on. */
  async create(body: CreateGroupBody): Promise<string> {
    if (
      body.node_type !== undefined &&
      !(NODE_TYPES as readonly string[]).includes(body.node_type)
    ) {
      throw badRequest(`Node type must be one of ${NODE_TYPES.join(', ')}`);
    }
    const filters = storedFilters(body);
    const automatic = Object.values(filters).some((value) => value !== null);
    const groupId = newGroupId();
    const userIds = await transactionWithRetry(this.db, async (trx) => {
      if (body.nodes?.length) await this.assertNodesExist(trx, body.nodes);
      await lockGroupMembership(trx);
      await insertGroup(trx, {
        group_id: groupId,
        group_name: body.group_name,
        description: body.description ?? '',
        is_automatic: automatic ? 1 : 0,
        ...filters,
        created_at: Math.floor(this.clock() / 1000),
      });
      if (automatic) await populateAutomaticGroup(trx, groupId);
      if (body.nodes?.length) await addManualMembers(trx, groupId, [...new Set(body.nodes)]);
      return this.events ? memberPrimaryUsers(trx, groupId) : [];
    });
    this.events?.emitActivity({
      kind: 'group_added',
      group_id: groupId,
      group_name: body.group_name,
      user_ids: userIds,
    });
    return groupId;
  }

  /** A keyset page of groups with their member counts; 404 when there are none at all. */
  async list(
    startId: string | undefined,
    limit: number,
  ): Promise<{ groups: GroupView[]; total: number; nextId?: string }> {
    const [rows, total] = await Promise.all([
      listGroups(this.db, startId, limit),
      countGroups(this.db),
    ]);
    if (total === 0) throw notFound(MESSAGES.createNodeGroup, NO_GROUPS);
    const page = rows.slice(0, limit);
    const counts = await memberCounts(
      this.db,
      page.map((group) => group.group_id),
    );
    return {
      groups: page.map((group) => ({ group, total: counts.get(group.group_id) ?? 0 })),
      total,
      nextId: rows[limit]?.group_id,
    };
  }

  /** One group with a keyset page of its nodes (FFFF-FFFF is every node). */
  async details(groupId: string, startId: string | undefined, limit: number): Promise<GroupView> {
    if (groupId === ALL_NODES_GROUP_ID) {
      const { rows, total } = await listNodesCounted(this.db, {}, startId, limit, false);
      return {
        group: {
          group_id: ALL_NODES_GROUP_ID,
          group_name: 'All',
          description: 'Every registered node',
          is_automatic: 1,
          filter_type: null,
          filter_model: null,
          filter_fw_version: null,
          filter_city: null,
          filter_serial: null,
          created_at: 0,
        },
        total,
        nodes: rows.slice(0, limit),
        nextNodeId: rows[limit]?.node_id,
      };
    }
    // The group and its page are read side by side; the page's statement also reads the member
    // count (a page of a group that does not exist is empty, and is not shown).
    const [group, page] = await Promise.all([
      findGroup(this.db, groupId),
      listGroupNodes(this.db, groupId, startId, limit),
    ]);
    if (!group) throw groupNotFound();
    const total =
      page.scalar === undefined
        ? ((await memberCounts(this.db, [groupId])).get(groupId) ?? 0)
        : Number(page.scalar ?? 0);
    return {
      group,
      total,
      nodes: page.rows.slice(0, limit),
      nextNodeId: page.rows[limit]?.node_id,
    };
  }

  /** Adds or removes nodes by hand; returns the success text. */
  async update(
    groupId: string,
    operation: 'add' | 'remove',
    nodeIds: readonly string[],
  ): Promise<string> {
    if (groupId === ALL_NODES_GROUP_ID)
      throw new AppError(400, RESERVED_GROUP, 'The group FFFF-FFFF (All) cannot be changed');
    const unique = [...new Set(nodeIds)];
    try {
      // The group's row is locked first, so changes of one group run one after the other; the
      // body writes only to the database, so a deadlock can run it again (ADR 37).
      return await transactionWithRetry(this.db, async (trx) => {
        const group = await lockGroup(trx, groupId, 'members');
        if (!group) throw groupNotFound();
        if (operation === 'add') {
          await this.assertNodesExist(trx, unique);
          await addManualMembers(trx, groupId, unique);
          return formatMessage(MESSAGES.addedNodesToGroup, { group: group.group_name });
        }
        const removed = await removeMembers(trx, groupId, unique);
        return `Removed ${removed} node(s) from ${group.group_name}`;
      });
    } catch (error) {
      // A member whose group or node was deleted by a transaction that committed first.
      if (!isForeignKeyViolation(error)) throw error;
      if (!(await findGroup(this.db, groupId))) throw groupNotFound();
      await this.assertNodesExist(this.db, unique);
      throw error;
    }
  }

  /** Deletes a group (FFFF-FFFF cannot be deleted). */
  async delete(groupId: string): Promise<void> {
    if (groupId === ALL_NODES_GROUP_ID)
      throw new AppError(400, RESERVED_GROUP, 'The group FFFF-FFFF (All) cannot be deleted');
    // Locked before its members are deleted: a membership change waiting for it then finds the
    // group gone (404) instead of adding members to a deleted group (ADR 37).
    const removed = await transactionWithRetry(this.db, async (trx) => {
      const group = await lockGroup(trx, groupId, 'delete');
      if (!group) return undefined;
      // The users the group is shared with hear of its removal too (their shares go with it).
      const userIds = this.events
        ? [
            ...new Set([
              ...(await memberPrimaryUsers(trx, groupId)),
              ...(await groupShareUsers(trx, groupId)),
            ]),
          ]
        : [];
      await deleteGroup(trx, groupId);
      return { group, userIds };
    });
    if (!removed) throw groupNotFound();
    this.events?.emitActivity({
      kind: 'group_removed',
      group_id: groupId,
      group_name: removed.group.group_name,
      user_ids: removed.userIds,
    });
  }

  /** How many nodes the filters match now (the create modal's live count). */
  async matchCount(filters: GroupFilters): Promise<number> {
    return countNodes(this.db, nodeFilterOf(filters));
  }

  private async assertNodesExist(db: Kysely<Database>, nodeIds: readonly string[]): Promise<void> {
    const existing = new Set(await existingNodeIds(db, nodeIds));
    const missing = nodeIds.filter((id) => !existing.has(id));
    if (missing.length > 0) {
      throw notFound(
        `Nodes do not exist: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`,
      );
    }
  }
}
