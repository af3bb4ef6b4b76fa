import type { NodeReportedOtaStatus, OtaExecutionStatus } from '@fleetdeck/contract';

/**
 * How far along an execution is. Reports only move an execution forward; two reports of the same
 * rank (progress, delayed) are ordered by the node's timestamp. `cancelled` is set by the cloud:
 * a node's final verdict still replaces it (the node did flash, or did fail), nothing else does.
 */
const RANK: Record<OtaExecutionStatus, number> = {
  started: 0,
  triggered: 1,
  'in-progress': 2,
  delayed: 2,
  cancelled: 3,
  success: 4,
  failed: 4,
  rejected: 4,
};

/** Whether the status is final (the execution will not change again, but for cancelled). */
export function isFinalStatus(status: OtaExecutionStatus): boolean {
  return RANK[status] >= 3;
}

/** The current state of an execution as far as ordering needs it. */
export interface ExecutionState {
  status: OtaExecutionStatus;
  /** Epoch seconds of the report that set the status. */
  timestamp: number;
}

/**
 * Whether a node's report changes the execution. Duplicates, reports older than the current
 * state, and anything after a final verdict are ignored, so redelivered or reordered MQTT
 * messages never corrupt the counts (QUALITY R4).
 */
export function reportApplies(
  current: ExecutionState,
  report: { status: NodeReportedOtaStatus; timestamp: number },
): boolean {
  const from = RANK[current.status];
  const to = RANK[report.status];
  if (from === 4) return false;
  if (current.status === 'cancelled') return to === 4;
  if (to > from) return true;
  if (to < from) return false;
  // Same rank (two progress reports): the later one wins, ties keep the first.
  return report.timestamp > current.timestamp;
}

/** The node's clock is believed when within a week back and five minutes ahead of ours. */
export function plausibleNodeTime(nodeTs: number | undefined, now: number): boolean {
  return nodeTs !== undefined && nodeTs >= now - 7 * 24 * 3600 && nodeTs <= now + 300;
}
