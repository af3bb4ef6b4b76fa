import {
  CreateJobBodySchema,
  CreateJobQuerySchema,
  CreateJobResponseSchema,
  ERROR_CODES,
  JobIdQuerySchema,
  JobListQuerySchema,
  JobListSchema,
  JobStatusListSchema,
  JobStatusQuerySchema,
  JobSummarySchema,
  MESSAGES,
  OTA_PATHS,
  OtaJobSchema,
  UpdateJobBodySchema,
  type NodeOtaStatus,
  type OtaExecutionStatus,
} from '@fleetdeck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../errors.js';
import type { AuthService } from '../../services/auth/auth.service.js';
import type { OtaJobService } from '../../services/ota/ota-job.service.js';
import { authOf, requireAuth } from '../plugins/auth.plugin.js';
import { toOtaJob } from '../presenters/ota.presenter.js';

export interface OtaRoutesOptions {
  auth: AuthService;
  jobs: OtaJobService;
}

const IDEMPOTENCY_HEADER = 'idempotency-key';

/** One status row as the API shows it. */
function toNodeOtaStatus(row: {
  node_id: string;
  status: string;
  timestamp: number;
  additional_info: string;
  ts_source: string;
}): NodeOtaStatus {
  return {
    node_id: row.node_id,
    status: row.status as OtaExecutionStatus,
    timestamp: Number(row.timestamp),
    additional_info: row.additional_info,
    ts_source: row.ts_source === 'NODE' ? 'NODE' : 'CLOUD',
  };
}

/**
 * OTA jobs (`admin/otajob`, with the spec's `/otajob` paths as aliases): create, list or read
 * one, cancel or archive, the status summary and the per-node status pages.
 */
export const otaRoutes: FastifyPluginAsyncZod<OtaRoutesOptions> = async (app, { auth, jobs }) => {
  for (const path of [OTA_PATHS.job, OTA_PATHS.jobAlias]) {
    app.post(
      path,
      {
        preValidation: requireAuth(auth, 'ota.write'),
        schema: {
          tags: ['ota'],
          summary:
            'Start an OTA job for nodes and/or groups (FFFF-FFFF = all); an Idempotency-Key header makes retries safe',
          querystring: CreateJobQuerySchema,
          body: CreateJobBodySchema,
          response: { 200: CreateJobResponseSchema },
        },
      },
      async (request) => {
        const header = request.headers[IDEMPOTENCY_HEADER];
        const requestKey = typeof header === 'string' ? header.slice(0, 128) : undefined;
        const created = await jobs.create(
          request.body,
          request.query.force_push ?? false,
          authOf(request).user.userId,
          requestKey || undefined,
        );
        return {
          status: 'success' as const,
          description: MESSAGES.otaStarted,
          ota_job_id: created.otaJobId,
          total_count: created.total,
        };
      },
    );

    app.get(
      path,
      {
        preValidation: requireAuth(auth, 'ota.read'),
        schema: {
          tags: ['ota'],
          summary: 'Jobs, newest first (keyset paging), or one job with ota_job_id',
          querystring: JobListQuerySchema,
          response: { 200: JobListSchema },
        },
      },
      async (request) => {
        if (request.query.ota_job_id) {
          const job = toOtaJob(await jobs.get(request.query.ota_job_id));
          return { otaJobs: [job], ota_jobs: [job], total: 1 };
        }
        const page = await jobs.list(request.query);
        if (page.total === 0) throw notFound(MESSAGES.noOtaJobs, ERROR_CODES.otaJobNotFound);
        const list = page.views.map(toOtaJob);
        return {
          otaJobs: list,
          ota_jobs: list,
          total: page.total,
          ...(page.nextId ? { next_id: page.nextId } : {}),
        };
      },
    );

    app.put(
      path,
      {
        preValidation: requireAuth(auth, 'ota.write'),
        schema: {
          tags: ['ota'],
          summary: 'Cancel a job, or archive a cancelled one with archive=true',
          body: UpdateJobBodySchema,
          response: {
            200: z.object({
              status: z.literal('success'),
              description: z.string(),
              job: OtaJobSchema.optional(),
            }),
          },
        },
      },
      async (request) => {
        if (request.body.archive) {
          await jobs.archive(request.body.ota_job_id);
          return { status: 'success' as const, description: MESSAGES.jobArchived };
        }
        const view = await jobs.cancel(request.body.ota_job_id);
        return {
          status: 'success' as const,
          description: MESSAGES.jobCancelled,
          job: toOtaJob(view),
        };
      },
    );
  }

  for (const path of [OTA_PATHS.jobSummary, OTA_PATHS.jobSummaryAlias]) {
    app.get(
      path,
      {
        preValidation: requireAuth(auth, 'ota.read'),
        schema: {
          tags: ['ota'],
          summary: 'Executions of a job per status (counted from the executions)',
          querystring: JobIdQuerySchema,
          response: { 200: JobSummarySchema },
        },
      },
      async (request) => jobs.summary(request.query.ota_job_id),
    );
  }

  for (const path of [OTA_PATHS.jobStatus, OTA_PATHS.jobStatusAlias]) {
    app.get(
      path,
      {
        preValidation: requireAuth(auth, 'ota.read'),
        schema: {
          tags: ['ota'],
          summary: "A page of the job's nodes with their status, or one node's status history",
          querystring: JobStatusQuerySchema,
          response: { 200: JobStatusListSchema },
        },
      },
      async (request) => {
        const { ota_job_id: jobId, node_id: nodeId } = request.query;
        if (nodeId) {
          const history = await jobs.nodeHistory(jobId, nodeId);
          return { node_ota_status: history.map(toNodeOtaStatus), total: history.length };
        }
        const page = await jobs.statusPage(
          jobId,
          request.query.start_id,
          request.query.num_records,
        );
        return {
          node_ota_status: page.rows.map((row) =>
            toNodeOtaStatus({ ...row, timestamp: row.status_timestamp }),
          ),
          total: page.total,
          ...(page.nextId ? { next_id: page.nextId } : {}),
        };
      },
    );
  }
};
