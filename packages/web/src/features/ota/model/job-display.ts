import {
  JOB_GROUPS_DISPLAY_LIMIT,
  JOB_NODES_DISPLAY_LIMIT,
  MESSAGES,
  ALL_NODES_GROUP_ID,
  groupDisplayName,
  type OtaExecutionStatus,
  type OtaJob,
  type OtaJobStatus,
} from '@fleetdeck/contract';
import { OTA_LABELS } from '../labels';
import type { JobModeConfig } from './job-mode';

/** How a job's status reads in the lists and on the details. */
export function jobStatusLabel(status: OtaJobStatus): string {
  switch (status) {
    case 'active':
      return OTA_LABELS.statusActive;
    case 'finished':
      return OTA_LABELS.statusFinished;
    case 'cancelled':
      return OTA_LABELS.statusCancelled;
  }
}

export function jobStatusColor(status: OtaJobStatus): string {
  switch (status) {
    case 'active':
      return 'blue';
    case 'finished':
      return 'green';
    case 'cancelled':
      return 'gray';
  }
}

/**
 * "Any job that is not cancelled can be cancelled" (fleet-management §4): a finished one too,
 * which is how it leaves the active list (only a cancelled job can be archived).
 */
export function canCancelJob(status: OtaJobStatus): boolean {
  return status !== 'cancelled';
}

/** The Actions cell: Archive when the job is cancelled, otherwise Cancel Job. */
export type JobRowAction = 'archive' | 'cancel';

export function jobRowAction(status: OtaJobStatus): JobRowAction {
  return canCancelJob(status) ? 'cancel' : 'archive';
}

/** How one node's OTA state reads; 'success' is 'Succeeded' on fault jobs (access §2). */
export function executionStatusLabel(status: OtaExecutionStatus, mode: JobModeConfig): string {
  switch (status) {
    case 'started':
      return OTA_LABELS.progressStarted;
    case 'triggered':
      return OTA_LABELS.progressTriggered;
    case 'in-progress':
      return OTA_LABELS.progressInProgress;
    case 'delayed':
      return OTA_LABELS.execDelayed;
    case 'success':
      return mode.successLabel;
    case 'failed':
      return OTA_LABELS.progressFailed;
    case 'rejected':
      return OTA_LABELS.progressRejected;
    case 'cancelled':
      return OTA_LABELS.execCancelled;
  }
}

export function executionStatusColor(status: OtaExecutionStatus): string {
  switch (status) {
    case 'started':
      return 'gray';
    case 'triggered':
      return 'cyan';
    case 'in-progress':
      return 'blue';
    case 'delayed':
      return 'orange';
    case 'success':
      return 'green';
    case 'failed':
      return 'red';
    case 'rejected':
      return 'grape';
    case 'cancelled':
      return 'dark';
  }
}

/** What the details show for a job's groups or nodes. */
export type TargetListDisplay =
  { kind: 'none' } | { kind: 'list'; items: string[] } | { kind: 'tooMany'; message: string };

/**
 * Groups are listed only when there are 20 or fewer, else 'The number of groups are more than
 * 20.'; FFFF-FFFF reads 'All (FFFF-FFFF)' (fleet-management §2, §9); other groups read
 * 'Name (id)' when the server knows their name.
 */
export function jobGroupsDisplay(
  groups: readonly { group_id: string; group_name: string }[],
): TargetListDisplay {
  if (groups.length === 0) return { kind: 'none' };
  if (groups.length > JOB_GROUPS_DISPLAY_LIMIT) {
    return { kind: 'tooMany', message: MESSAGES.groupsMoreThan20 };
  }
  return {
    kind: 'list',
    items: groups.map(({ group_id: id, group_name: name }) =>
      id === ALL_NODES_GROUP_ID || name.trim() === ''
        ? groupDisplayName(id, 'details')
        : `${name} (${id})`,
    ),
  };
}

/** Nodes are listed only when there are 10 or fewer; the table below always has them all. */
export function jobNodesDisplay(nodes: readonly string[]): TargetListDisplay {
  if (nodes.length === 0) return { kind: 'none' };
  if (nodes.length > JOB_NODES_DISPLAY_LIMIT) {
    return { kind: 'tooMany', message: MESSAGES.nodesMoreThan10 };
  }
  return { kind: 'list', items: [...nodes] };
}

/** The cancelled time is shown only for a cancelled job that has one. */
export function cancelledAt(
  job: Pick<OtaJob, 'status' | 'canceled_timestamp'>,
): number | undefined {
  return job.status === 'cancelled' ? job.canceled_timestamp : undefined;
}
