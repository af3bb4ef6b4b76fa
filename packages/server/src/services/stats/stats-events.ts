import type { Transaction } from 'kysely';
import { lockNodeOwnership } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import {
  addToDailyStats,
  holdsOtherNode,
  primaryUserOf,
} from '../../repositories/stats.repository.js';

/**
 * The rollup metrics as stored in `stats_daily` (ADR 8). Events are counts of what happened that
 * UTC day; `*_net` rows are the day's net change of a level (the level on a day is the sum of all
 * rows up to it); snapshots are end-of-day levels written by the daily job.
 */
export const STAT = {
  /** Event: accounts created. */
  registeredUsers: 'registered_users',
  /** Event: nodes registered (each with its MQTT credentials). */
  registeredNodes: 'registered_nodes',
  /** Event: user ↔ node mappings confirmed by the node (claims). */
  claims: 'claims',
  /** Event: mapping requests that timed out unconfirmed. */
  timedOutRequests: 'timed_out_requests',
  /** Net change of the number of claimed nodes. */
  claimedNodesNet: 'claimed_nodes_net',
  /** Net change of the number of users holding at least one node. */
  usersWithNodesNet: 'users_with_nodes_net',
  /** Snapshot: nodes online at the end of the day. */
  onlineNodes: 'online_nodes',
  /** Snapshot: nodes offline at the end of the day. */
  offlineNodes: 'offline_nodes',
} as const;

/** Metrics the rebuild recomputes from the source tables. */
export const EVENT_STATS = [
  STAT.registeredUsers,
  STAT.registeredNodes,
  STAT.claims,
  STAT.timedOutRequests,
] as const;
/** Metrics kept as daily net changes of a level. */
export const LEVEL_STATS = [STAT.claimedNodesNet, STAT.usersWithNodesNet] as const;

/** The UTC epoch day of an epoch-seconds time. */
export const epochDayOf = (epochSeconds: number): number => Math.floor(epochSeconds / 86_400);

/** Accounts were created at `at` (epoch seconds); call in the creating transaction. */
export async function recordUsersCreated(
  trx: Transaction<Database>,
  count: number,
  at: number,
): Promise<void> {
  await addToDailyStats(trx, epochDayOf(at), { [STAT.registeredUsers]: count });
}

/** Nodes were registered at `at`; call in the registering transaction. */
export async function recordNodesRegistered(
  trx: Transaction<Database>,
  count: number,
  at: number,
): Promise<void> {
  await addToDailyStats(trx, epochDayOf(at), { [STAT.registeredNodes]: count });
}

/** Mapping requests timed out at `at`; call in the transaction that marked them. */
export async function recordTimedOutRequests(
  trx: Transaction<Database>,
  count: number,
  at: number,
): Promise<void> {
  await addToDailyStats(trx, epochDayOf(at), { [STAT.timedOutRequests]: count });
}

/**
 * A node confirmed its mapping to `userId` at `at`. Call in the same transaction, *before* the
 * node row changes: the previous holder and "held another node" are read from the current rows.
 */
export async function recordClaim(
  trx: Transaction<Database>,
  nodeId: string,
  userId: string,
  at: number,
): Promise<void> {
  await lockNodeOwnership(trx);
  const previous = await primaryUserOf(trx, nodeId);
  const deltas: Record<string, number> = { [STAT.claims]: 1 };
  if (previous !== userId && previous !== undefined) {
    let withNodes = 0;
    if (previous === null) deltas[STAT.claimedNodesNet] = 1;
    else if (!(await holdsOtherNode(trx, previous, nodeId))) withNodes -= 1;
    if (!(await holdsOtherNode(trx, userId, nodeId))) withNodes += 1;
    deltas[STAT.usersWithNodesNet] = withNodes;
  }
  await addToDailyStats(trx, epochDayOf(at), deltas);
}

/** A node loses its user at `at` (remove or factory reset). Call before the node row changes. */
export async function recordRelease(
  trx: Transaction<Database>,
  nodeId: string,
  at: number,
): Promise<void> {
  await lockNodeOwnership(trx);
  const previous = await primaryUserOf(trx, nodeId);
  if (previous === null || previous === undefined) return;
  const deltas: Record<string, number> = { [STAT.claimedNodesNet]: -1 };
  if (!(await holdsOtherNode(trx, previous, nodeId))) deltas[STAT.usersWithNodesNet] = -1;
  await addToDailyStats(trx, epochDayOf(at), deltas);
}
