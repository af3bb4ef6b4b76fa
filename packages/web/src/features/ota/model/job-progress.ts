import { formatMessage, type JobSummary } from '@fleetdeck/contract';
import { OTA_LABELS } from '../labels';
import type { JobModeConfig } from './job-mode';

export type ProgressKey = Exclude<keyof JobSummary, 'total'>;

export interface ProgressSection {
  key: ProgressKey;
  label: string;
  count: number;
  /** Share of the job's nodes, 0–100. */
  percent: number;
  color: string;
}

/** The spec's outcomes, in its order (fleet-management §2): always in the legend. */
const SPEC_OUTCOMES: readonly ProgressKey[] = [
  'started',
  'triggered',
  'in_progress',
  'failed',
  'success',
  'rejected',
];
/** States the spec does not name; shown only when some node is in them, so the bar adds up. */
const EXTRA_OUTCOMES: readonly ProgressKey[] = ['delayed', 'cancelled'];

const COLORS: Record<ProgressKey, string> = {
  started: 'gray.5',
  triggered: 'cyan.5',
  in_progress: 'blue.6',
  delayed: 'orange.5',
  failed: 'red.6',
  success: 'green.6',
  rejected: 'grape.6',
  cancelled: 'dark.3',
};

function label(key: ProgressKey, mode: JobModeConfig): string {
  switch (key) {
    case 'started':
      return OTA_LABELS.progressStarted;
    case 'triggered':
      return OTA_LABELS.progressTriggered;
    case 'in_progress':
      return OTA_LABELS.progressInProgress;
    case 'delayed':
      return OTA_LABELS.execDelayed;
    case 'failed':
      return OTA_LABELS.progressFailed;
    case 'success':
      return mode.successLabel;
    case 'rejected':
      return OTA_LABELS.progressRejected;
    case 'cancelled':
      return OTA_LABELS.execCancelled;
  }
}

const safeCount = (value: number) => (Number.isFinite(value) && value > 0 ? value : 0);

/**
 * The sections of the progress bar by outcome. Percentages are of the job's total (or of the
 * counted nodes, when the total is behind them), so the sections never overflow the bar; a
 * section of zero nodes stays in the legend but takes no room.
 */
export function progressSections(summary: JobSummary, mode: JobModeConfig): ProgressSection[] {
  const keys = [...SPEC_OUTCOMES, ...EXTRA_OUTCOMES.filter((key) => safeCount(summary[key]) > 0)];
  const counted = keys.reduce((sum, key) => sum + safeCount(summary[key]), 0);
  const whole = Math.max(safeCount(summary.total), counted);
  return keys.map((key) => {
    const count = safeCount(summary[key]);
    return {
      key,
      label: label(key, mode),
      count,
      percent: whole === 0 ? 0 : (count / whole) * 100,
      color: COLORS[key],
    };
  });
}

/** Nodes in a final state (success, failed, rejected, cancelled). */
export function completedCount(summary: JobSummary): number {
  return (
    safeCount(summary.success) +
    safeCount(summary.failed) +
    safeCount(summary.rejected) +
    safeCount(summary.cancelled)
  );
}

/**
 * The line above the progress bar. The API's completed_count counts cancelled executions as final
 * (a cancelled node will not be offered the image again), but "3 of 3 nodes completed" over a job
 * cancelled before any node updated reads as a finished update: the cancelled nodes are told apart.
 */
export function progressCaption(summary: JobSummary): string {
  const cancelled = safeCount(summary.cancelled);
  const total = safeCount(summary.total);
  if (cancelled === 0)
    return formatMessage(OTA_LABELS.progressOf, { done: completedCount(summary), total });
  return formatMessage(OTA_LABELS.progressOfWithCancelled, {
    done: completedCount(summary) - cancelled,
    total,
    cancelled,
  });
}

/** The job's Completed Count as the details show it: with its cancelled nodes named, if any. */
export function completedCountText(completed: number, summary: JobSummary): string {
  const cancelled = safeCount(summary.cancelled);
  if (cancelled === 0) return String(completed);
  return formatMessage(OTA_LABELS.completedWithCancelled, { count: completed, cancelled });
}

/** A percentage as the legend shows it: whole numbers, one decimal below 10 %, never "0" for some. */
export function formatPercent(percent: number): string {
  if (percent <= 0) return '0';
  if (percent < 0.1) return '<0.1';
  if (percent < 10) return (Math.round(percent * 10) / 10).toString();
  return Math.round(percent).toString();
}
