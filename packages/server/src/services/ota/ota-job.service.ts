import {
  ALL_NODES_GROUP_ID,
  ERROR_CODES,
  FAULT_PARAM_BY_TYPE,
  MESSAGES,
  SERVER_MESSAGES,
  formatMessage,
  type CreateJobBody,
  type JobListQuery,
  type JobSummary,
  type OtaExecutionStatus,
} from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/database.js';
import { lockImageRow, nodesReportingParam } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import { findImage } from '../../repositories/ota-image.repository.js';
import {
  archiveJob,
  cancelJob,
  countByStatus,
  executionHistory,
  executionPage,
  findJob,
  findJobByRequestKey,
  insertJobWithExecutions,
  listJobs,
  missingTargets,
  type JobWithImage,
} from '../../repositories/ota-job.repository.js';
import { newOtaId } from '../firmware/image.service.js';
import { transactionWithRetry } from '../../db/transaction-retry.js';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A job with the counts derived from its executions and the names of its groups. */
export interface JobView {
  job: JobWithImage;
  summary: JobSummary;
  groupNames: ReadonlyMap<string, string>;
}

/** Turns per-status counts into the summary shape (unknown statuses count only in total). */
export function toSummary(counts: Map<string, number> | undefined): JobSummary {
  const get = (status: OtaExecutionStatus) => counts?.get(status) ?? 0;
  let total = 0;
  for (const value of counts?.values() ?? []) total += value;
  return {
    total,
    started: get('started'),
    triggered: get('triggered'),
    in_progress: get('in-progress'),
    delayed: get('delayed'),
    failed: get('failed'),
    success: get('success'),
    rejected: get('rejected'),
    cancelled: get('cancelled'),
  };
}

/** Notified after a job was created or cancelled (the rollout engine offers or stops). */
export interface JobLifecycleListener {
  jobCreated(otaJobId: string, forcePush: boolean): void;
  jobCancelled(otaJobId: string): void;
}

/**
 * OTA jobs: creation with one execution per target node, listing with counts derived from the
 * executions, cancel and archive, and the per-node status pages.
 */
export class OtaJobService {
  private listener: JobLifecycleListener | undefined;

  constructor(private readonly db: Kysely<Database>) {}

  /** The rollout engine registers here. */
  setListener(listener: JobLifecycleListener): void {
    this.listener = listener;
  }

  /**
   * POST /otajob. Targets are resolved once, now: nodes that join a group later are not added.
   * A retried request with the same idempotency key returns the job it created the first time.
   */
  async create(
    body: CreateJobBody,
    forcePush: boolean,
    userId: string,
    requestKey: string | undefined,
  ): Promise<{ otaJobId: string; total: number }> {
    if (requestKey) {
      const earlier = await findJobByRequestKey(this.db, userId, requestKey);
      if (earlier) return { otaJobId: earlier.ota_job_id, total: earlier.total_count };
    }
    const image = await findImage(this.db, body.ota_image_id);
    if (!image) throw notFound(SERVER_MESSAGES.imageNotFound, ERROR_CODES.otaImageNotFound);
    if (image.archived)
      throw badRequest(SERVER_MESSAGES.imageArchived, ERROR_CODES.otaImageArchived);
    const groups = [...new Set(body.groups ?? [])];
    const nodes = [...new Set(body.nodes ?? [])];
    if (body.fault_nodes)
      nodes.push(...(await this.faultNodes(image)).filter((id) => !nodes.includes(id)));
    if (nodes.length + groups.length === 0)
      throw badRequest(MESSAGES.noClaimedNodesForOta, ERROR_CODES.otaNoTargets);
    const missing = await missingTargets(this.db, nodes, groups);
    if (missing.groups.length > 0)
      throw notFound(
        formatMessage(SERVER_MESSAGES.groupsNotFound, { groups: missing.groups.join(', ') }),
        ERROR_CODES.otaJobInvalid,
      );
    if (missing.nodes.length > 0)
      throw notFound(
        formatMessage(SERVER_MESSAGES.nodesNotFound, { nodes: missing.nodes.join(', ') }),
        ERROR_CODES.otaJobInvalid,
      );
    const otaJobId = newOtaId();
    const now = nowSeconds();
    let total: number;
    try {
      total = await this.insert(otaJobId, now, body, forcePush, userId, requestKey, {
        image,
        nodes,
        groups,
      });
    } catch (error) {
      // A retry racing the first request with the same key (QUALITY R4): the unique index on
      // (created_by, request_key) let one insert through; answer with that job.
      if (!requestKey || !isUniqueViolation(error)) throw error;
      const earlier = await findJobByRequestKey(this.db, userId, requestKey);
      if (!earlier) throw error;
      return { otaJobId: earlier.ota_job_id, total: earlier.total_count };
    }
    this.listener?.jobCreated(otaJobId, forcePush);
    return { otaJobId, total };
  }

  /** Stores a job and its executions in one transaction; the number of target nodes. */
  private insert(
    otaJobId: string,
    now: number,
    body: CreateJobBody,
    forcePush: boolean,
    userId: string,
    requestKey: string | undefined,
    targets: { image: { ota_image_id: string }; nodes: string[]; groups: string[] },
  ): Promise<number> {
    const { image, nodes, groups } = targets;
    return transactionWithRetry(this.db, async (trx) => {
      // Read again under a lock: the image may have been deleted or archived since it was read
      // above (a delete waits for this job, or this job waits for the delete and refuses).
      const current = await lockImageRow(trx, image.ota_image_id, 'share');
      if (!current.exists)
        throw notFound(SERVER_MESSAGES.imageNotFound, ERROR_CODES.otaImageNotFound);
      if (current.archived)
        throw badRequest(SERVER_MESSAGES.imageArchived, ERROR_CODES.otaImageArchived);
      const count = await insertJobWithExecutions(
        trx,
        {
          ota_job_id: otaJobId,
          ota_job_name: body.ota_job_name,
          ota_image_id: image.ota_image_id,
          description: body.description ?? '',
          status: 'active',
          force_push: forcePush ? 1 : 0,
          groups: JSON.stringify(groups),
          nodes: JSON.stringify(nodes),
          total_count: 0,
          archived: 0,
          created_by: userId,
          request_key: requestKey ?? null,
          triggered_timestamp: now,
          cancelled_timestamp: null,
          finished_timestamp: null,
        },
        { nodes, groups },
      );
      // Nothing to update: refuse and roll back rather than keep an empty job.
      if (count === 0) throw badRequest(MESSAGES.noClaimedNodesForOta, ERROR_CODES.otaNoTargets);
      return count;
    });
  }

  /** The nodes of a fault image's type that report its fault id as their current fault now. */
  private async faultNodes(image: { type: string; fault_id: string | null }): Promise<string[]> {
    if (!image.fault_id)
      throw badRequest(SERVER_MESSAGES.notAFaultImage, ERROR_CODES.otaJobInvalid);
    const param = (FAULT_PARAM_BY_TYPE as Record<string, string | undefined>)[image.type];
    if (!param) return [];
    return nodesReportingParam(this.db, image.type, param, image.fault_id);
  }

  /** GET admin/otajob: a page of jobs with their summaries. */
  async list(query: JobListQuery): Promise<{ views: JobView[]; total: number; nextId?: string }> {
    const page = await listJobs(
      this.db,
      {
        archived: query.ota_job_id ? Boolean(query.archived) : query.archived,
        otaJobId: query.ota_job_id,
        nameContains: query.ota_job_name || undefined,
        otaImageId: query.ota_image_id,
        faultImage: query.fault_image,
      },
      query.start_id,
      query.num_records,
    );
    const counts = await countByStatus(
      this.db,
      page.rows.map((row) => row.ota_job_id),
    );
    const groupNames = await this.groupNames(page.rows);
    return {
      views: page.rows.map((job) => ({
        job,
        summary: toSummary(counts.get(job.ota_job_id)),
        groupNames,
      })),
      total: page.total,
      ...(page.nextId ? { nextId: page.nextId } : {}),
    };
  }

  /** One job (archived or not), or 404. */
  async get(otaJobId: string): Promise<JobView> {
    const job = await findJob(this.db, otaJobId);
    if (!job) throw notFound(SERVER_MESSAGES.jobNotFound, ERROR_CODES.otaJobNotFound);
    const counts = await countByStatus(this.db, [otaJobId]);
    return {
      job,
      summary: toSummary(counts.get(otaJobId)),
      groupNames: await this.groupNames([job]),
    };
  }

  /** Names of the groups the jobs target (FFFF-FFFF is 'All'). */
  private async groupNames(jobs: Array<{ groups: string }>): Promise<Map<string, string>> {
    const ids = new Set<string>();
    for (const job of jobs) for (const id of JSON.parse(job.groups) as string[]) ids.add(id);
    const names = new Map<string, string>();
    if (ids.delete(ALL_NODES_GROUP_ID)) names.set(ALL_NODES_GROUP_ID, 'All');
    if (ids.size === 0) return names;
    const rows = await this.db
      .selectFrom('node_groups')
      .select(['group_id', 'group_name'])
      .where('group_id', 'in', [...ids])
      .execute();
    for (const row of rows) names.set(row.group_id, row.group_name);
    return names;
  }

  /**
   * PUT admin/otajob without archive: cancel. New offers stop at once. "Any job that is not
   * cancelled can be cancelled" (fleet-management §4): a finished job too, which is how it leaves
   * the active list (only a cancelled job can be archived); its nodes' outcomes stay as they are.
   */
  async cancel(otaJobId: string): Promise<JobView> {
    const view = await this.get(otaJobId);
    if (view.job.status === 'cancelled')
      throw badRequest(SERVER_MESSAGES.jobAlreadyCancelled, ERROR_CODES.otaJobState);
    const cancelled = await transactionWithRetry(this.db, (trx) =>
      cancelJob(trx, otaJobId, nowSeconds()),
    );
    // Another request cancelled it in between.
    if (!cancelled) throw badRequest(SERVER_MESSAGES.jobAlreadyCancelled, ERROR_CODES.otaJobState);
    this.listener?.jobCancelled(otaJobId);
    return this.get(otaJobId);
  }

  /** PUT admin/otajob with archive=true: only a cancelled job can be archived. */
  async archive(otaJobId: string): Promise<void> {
    await this.get(otaJobId);
    if (!(await archiveJob(this.db, otaJobId)))
      throw new AppError(400, ERROR_CODES.otaJobState, SERVER_MESSAGES.jobNotCancelled);
  }

  /** GET /otajob/status/summary. */
  async summary(otaJobId: string): Promise<JobSummary> {
    return (await this.get(otaJobId)).summary;
  }

  /** GET /otajob/status: a page of the job's nodes; 404 when the job has none. */
  async statusPage(otaJobId: string, startId: string | undefined, limit: number) {
    const view = await this.get(otaJobId);
    if (view.summary.total === 0) throw notFound(MESSAGES.noNodeForJob, ERROR_CODES.otaJobNotFound);
    const page = await executionPage(this.db, otaJobId, startId, limit);
    return { ...page, total: view.summary.total };
  }

  /** GET /otajob/status?node_id=: one node's history in the job, newest first. */
  async nodeHistory(otaJobId: string, nodeId: string) {
    await this.get(otaJobId);
    const rows = await executionHistory(this.db, otaJobId, nodeId);
    if (rows.length === 0) {
      const page = await executionPage(this.db, otaJobId, nodeId, 1);
      const current = page.rows[0];
      if (!current || current.node_id !== nodeId)
        throw notFound(MESSAGES.noNodeForJob, ERROR_CODES.otaJobNotFound);
      return [{ ...current, timestamp: current.status_timestamp }];
    }
    return rows;
  }
}
