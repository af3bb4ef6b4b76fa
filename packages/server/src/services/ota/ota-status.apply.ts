import type { OtaExecutionStatus, OtaStatusPayload } from '@fleetdeck/contract';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import {
  findExecutions,
  finishCompletedJobs,
  insertHistory,
  updateExecutions,
  type ExecutionUpdate,
  type HistoryEntry,
} from '../../repositories/ota-job.repository.js';
import { plausibleNodeTime, reportApplies, type ExecutionState } from './ota-status.rules.js';

/** One `otastatus` message as the gateway received it. */
export interface OtaStatusReport {
  nodeId: string;
  payload: OtaStatusPayload;
  /** Epoch milliseconds of receipt. */
  at: number;
}

/**
 * Applies a batch of status reports inside the ingest transaction: every report goes to the
 * history (kept once when redelivered), the execution moves only as `reportApplies` allows, and a
 * job whose executions are all final is finished. Reports for a job that does not target the node
 * are dropped. Returns the jobs that changed, for live dashboards.
 */
export async function applyOtaReports(
  trx: Transaction<Database>,
  reports: OtaStatusReport[],
): Promise<{ changedJobs: string[]; finishedJobs: string[] }> {
  const byExecution = new Map<string, OtaStatusReport[]>();
  for (const report of reports) {
    const key = `${report.payload.ota_job_id}\n${report.nodeId}`;
    const list = byExecution.get(key);
    if (list) list.push(report);
    else byExecution.set(key, [report]);
  }
  const current = await findExecutions(
    trx,
    [...byExecution.values()].map(([first]) => ({
      jobId: first?.payload.ota_job_id ?? '',
      nodeId: first?.nodeId ?? '',
    })),
  );
  const changed = new Set<string>();
  const history: HistoryEntry[] = [];
  const updates: ExecutionUpdate[] = [];
  for (const [key, list] of byExecution) {
    const execution = current.get(key);
    const first = list[0];
    if (!execution || !first) continue; // the job does not target this node
    const jobId = first.payload.ota_job_id;
    const start: ExecutionState = {
      status: execution.status as OtaExecutionStatus,
      timestamp: execution.status_timestamp,
    };
    let state = start;
    let info = execution.additional_info;
    let source = execution.ts_source;
    for (const report of list) {
      const now = Math.floor(report.at / 1000);
      const fromNode = plausibleNodeTime(report.payload.ts, now);
      const timestamp = fromNode ? (report.payload.ts ?? now) : now;
      const additionalInfo = (report.payload.additional_info ?? '').slice(0, 1024);
      history.push({
        ota_job_id: jobId,
        node_id: report.nodeId,
        status: report.payload.status,
        additional_info: additionalInfo,
        timestamp,
        ts_source: fromNode ? 'NODE' : 'CLOUD',
        received_at: now,
      });
      if (reportApplies(state, { status: report.payload.status, timestamp })) {
        state = { status: report.payload.status, timestamp };
        info = additionalInfo;
        source = fromNode ? 'NODE' : 'CLOUD';
      }
    }
    changed.add(jobId);
    if (state !== start)
      updates.push({
        jobId,
        nodeId: first.nodeId,
        status: state.status,
        timestamp: state.timestamp,
        info,
        source,
      });
  }
  await updateExecutions(trx, updates);
  await insertHistory(trx, history);
  const now = Math.floor(Date.now() / 1000);
  const finishedJobs = await finishCompletedJobs(trx, [...changed], now);
  return { changedJobs: [...changed], finishedJobs };
}
