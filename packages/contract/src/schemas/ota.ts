import { z } from 'zod';
import {
  ALL_NODES_GROUP_ID,
  ID_PATTERN,
  NAME_MAX_LENGTH,
  SEARCH_MAX_LENGTH,
} from '../constants.js';
import { MESSAGES } from '../messages.js';
import { SERVER_MESSAGES } from '../errors.js';
import { QueryBooleanSchema } from './common.js';
import { NodeIdSchema } from './nodes.js';

/**
 * Firmware images and OTA jobs (fleet-management §2, §3, §5, §7; rainmaker-contract A.6, A.7).
 * Paths are RainMaker's admin paths; the spec's short forms (`/otaimage`, `/otajob`) are aliases.
 */
export const OTA_PATHS = {
  image: '/v1/admin/otaimage',
  imageAlias: '/v1/otaimage',
  packageUpload: '/v1/admin/otaimage/package/upload',
  packageUploadAlias: '/v1/otaimage/package/upload',
  package: '/v1/admin/otaimage/package',
  packageAlias: '/v1/otaimage/package',
  signingKey: '/v1/otaimage/signing_key',
  job: '/v1/admin/otajob',
  jobAlias: '/v1/otajob',
  jobStatus: '/v1/admin/otajob/status',
  jobStatusAlias: '/v1/otajob/status',
  jobSummary: '/v1/admin/otajob/status/summary',
  jobSummaryAlias: '/v1/otajob/status/summary',
  /** Signed, expiring blob downloads (`GET`, HTTP Range) and uploads (`PUT`). */
  blobs: '/v1/blobs',
} as const;

/** Image file names end in one of these (spec §2 Add Image, §5). */
export const OTA_IMAGE_EXTENSIONS = ['.bin', '.zip'] as const;

/** Letters, digits, spaces and ! * ' ( ) . _ - (fleet-management §5 Add image). */
export const IMAGE_NAME_PATTERN = /^[A-Za-z0-9 !*'()._-]+$/;

/** Opaque ids of images and jobs: 1–64 URL-safe characters. */
export const OtaIdSchema = z
  .string()
  .trim()
  .min(1, { error: SERVER_MESSAGES.idMissing })
  .max(SEARCH_MAX_LENGTH, { error: SERVER_MESSAGES.invalidId })
  .regex(ID_PATTERN, { error: SERVER_MESSAGES.invalidId });

/** An image name as the Add Image form and the API take it. */
export const ImageNameSchema = z
  .string({ error: MESSAGES.provideAllDetails })
  .trim()
  .min(1, { error: MESSAGES.provideAllDetails })
  .max(NAME_MAX_LENGTH, { error: SERVER_MESSAGES.fieldTooLong })
  .regex(IMAGE_NAME_PATTERN, { error: MESSAGES.invalidImageName });

/** Type, firmware version and model: at most 64 characters (type is required on images). */
const shortText = z.string().trim().max(NAME_MAX_LENGTH, { error: SERVER_MESSAGES.fieldTooLong });
const optionalShortText = shortText.optional().transform((value) => (value ? value : undefined));

/** The metadata every image carries; also the fields of the Add Image form. */
export const ImageFieldsSchema = z.object({
  image_name: ImageNameSchema,
  type: z
    .string({ error: MESSAGES.provideAllDetails })
    .trim()
    .min(1, { error: MESSAGES.provideAllDetails })
    .max(NAME_MAX_LENGTH, { error: SERVER_MESSAGES.fieldTooLong }),
  fw_version: optionalShortText,
  model: optionalShortText,
  /** A fault image carries the error code of the fault it remedies (access §2 Fault screens). */
  fault_id: optionalShortText,
});
export type ImageFields = z.infer<typeof ImageFieldsSchema>;

/** POST /v1/admin/otaimage (and /v1/otaimage): the image as base64 in JSON. */
export const CreateImageBodySchema = ImageFieldsSchema.extend({
  base64_fwimage: z
    .string({ error: MESSAGES.provideAllDetails })
    .min(1, { error: MESSAGES.provideAllDetails }),
  /** The original file name; decides .bin or .zip (default `<image_name>.bin`). */
  file_name: z.string().trim().max(255).optional(),
  serial_num: z.string().max(NAME_MAX_LENGTH).optional(),
});
export type CreateImageBody = z.infer<typeof CreateImageBodySchema>;

/** A file name the store accepts: a plain name ending in .bin or .zip. */
export const ImageFileNameSchema = z
  .string({ error: MESSAGES.provideAllDetails })
  .trim()
  .min(1, { error: MESSAGES.provideAllDetails })
  .max(255, { error: SERVER_MESSAGES.invalidFileName })
  .refine((name) => !/[/\\\0]/.test(name) && name !== '.' && name !== '..', {
    error: SERVER_MESSAGES.invalidFileName,
  })
  .refine((name) => OTA_IMAGE_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext)), {
    error: SERVER_MESSAGES.invalidFileType,
  });

/** GET /v1/admin/otaimage/package/upload?file_name=. */
export const PackageUploadQuerySchema = z.object({ file_name: ImageFileNameSchema });

/** The signed upload URL: PUT the raw file there, then POST the image with `file_path`. */
export const PackageUploadResponseSchema = z.object({
  status: z.literal('success'),
  url: z.string(),
  file_path: z.string(),
  /** Epoch seconds after which the URL is refused. */
  expires_at: z.number().int(),
  /** The largest file the URL takes, in bytes. */
  max_bytes: z.number().int(),
});
export type PackageUploadResponse = z.infer<typeof PackageUploadResponseSchema>;

/** POST /v1/admin/otaimage/package: an uploaded file becomes an image. */
export const CreatePackageImageBodySchema = ImageFieldsSchema.extend({
  file_path: z
    .string({ error: MESSAGES.provideAllDetails })
    .trim()
    .min(1, { error: MESSAGES.provideAllDetails })
    .max(255),
});
export type CreatePackageImageBody = z.infer<typeof CreatePackageImageBodySchema>;

export const CreateImageResponseSchema = z.object({
  status: z.literal('success'),
  description: z.string(),
  ota_image_id: z.string(),
  image_url: z.string(),
});

/** GET /v1/admin/otaimage. */
export const ImageListQuerySchema = z.object({
  ota_image_id: OtaIdSchema.optional(),
  image_name: z.string().trim().max(SEARCH_MAX_LENGTH).optional(),
  type: z.string().trim().max(SEARCH_MAX_LENGTH).optional(),
  model: z.string().trim().max(SEARCH_MAX_LENGTH).optional(),
  /** Case-insensitive substring of the name, type or model (the list's search box). */
  contains: z
    .string()
    .trim()
    .max(SEARCH_MAX_LENGTH, { error: SERVER_MESSAGES.searchTooLong })
    .optional(),
  /**
   * true: only archived images; false: only active ones. Absent: active ones, except that a
   * lookup by ota_image_id finds the image whether archived or not (its `archived` flag tells).
   */
  archived: QueryBooleanSchema.optional(),
  /** true: only fault images; false: only plain firmware images; absent: both. */
  fault_image: QueryBooleanSchema.optional(),
  start_id: OtaIdSchema.optional(),
  num_records: z.coerce.number({ error: 'Invalid query param' }).int().min(1).max(100).default(10),
});
export type ImageListQuery = z.infer<typeof ImageListQuerySchema>;

/** One image (fleet-management §3 OTA image). */
export const OtaImageSchema = z.object({
  ota_image_id: z.string(),
  image_name: z.string(),
  type: z.string(),
  model: z.string(),
  fw_version: z.string(),
  /** Epoch seconds. */
  upload_timestamp: z.number().int(),
  /** A signed download URL, valid for 24 hours. */
  image_url: z.string(),
  file_name: z.string(),
  /** Bytes. */
  file_size: z.number().int(),
  file_md5: z.string(),
  file_sha256: z.string(),
  /** Base64 Ed25519 signature of the manifest (see otaManifestText). */
  signature: z.string(),
  /** Whether the image is a zip package. */
  package: z.boolean(),
  archived: z.boolean(),
  fault_id: z.string().optional(),
});
export type OtaImage = z.infer<typeof OtaImageSchema>;

export const ImageListSchema = z.object({
  ota_images: z.array(OtaImageSchema),
  total: z.number().int(),
  next_id: z.string().optional(),
});
export type ImageList = z.infer<typeof ImageListSchema>;

/** PUT /v1/admin/otaimage?ota_image_id=&archive=. */
export const ArchiveImageQuerySchema = z.object({
  ota_image_id: OtaIdSchema,
  archive: QueryBooleanSchema,
});

/** DELETE /v1/admin/otaimage?ota_image_id= (and the package path). */
export const ImageIdQuerySchema = z.object({ ota_image_id: OtaIdSchema });

/** GET /v1/otaimage/signing_key: what devices verify image manifests with. */
export const SigningKeySchema = z.object({
  algorithm: z.literal('Ed25519'),
  /** SPKI public key, PEM. */
  public_key: z.string(),
});

// ---------------------------------------------------------------------------------------------
// Jobs
// ---------------------------------------------------------------------------------------------

/** Job status values: 'cancelled' is the spec's; 'active' and 'finished' are RainMaker's. */
export const OTA_JOB_STATUSES = ['active', 'finished', 'cancelled'] as const;
export type OtaJobStatus = (typeof OTA_JOB_STATUSES)[number];

/**
 * The state of one target node in a job (ARCHITECTURE §6). `started`: created, not yet offered;
 * `triggered`: offered; `in-progress` and `delayed`: the node reported so; the rest are final.
 */
export const OTA_EXECUTION_STATUSES = [
  'started',
  'triggered',
  'in-progress',
  'delayed',
  'success',
  'failed',
  'rejected',
  'cancelled',
] as const;
export type OtaExecutionStatus = (typeof OTA_EXECUTION_STATUSES)[number];
export const OTA_FINAL_STATUSES: readonly OtaExecutionStatus[] = [
  'success',
  'failed',
  'rejected',
  'cancelled',
];

/** POST /v1/admin/otajob (and /v1/otajob), `?force_push=true`. */
export const CreateJobBodySchema = z
  .object({
    ota_job_name: z
      .string({ error: MESSAGES.provideJobName })
      .trim()
      .min(1, { error: MESSAGES.provideJobName })
      .max(NAME_MAX_LENGTH, { error: SERVER_MESSAGES.jobNameTooLong }),
    ota_image_id: OtaIdSchema,
    description: z.string().trim().max(500).optional(),
    nodes: z.array(NodeIdSchema).max(1000).optional(),
    /** Group ids; `FFFF-FFFF` means every node. */
    groups: z.array(z.string().trim().min(1).max(SEARCH_MAX_LENGTH)).max(100).optional(),
    /**
     * For a fault image: also target every node of the image's type that reports the image's
     * fault id as its current fault code (FAULT_PARAM_BY_TYPE) when the job starts.
     */
    fault_nodes: z.boolean().optional(),
  })
  .refine(
    (body) =>
      (body.nodes?.length ?? 0) + (body.groups?.length ?? 0) > 0 || body.fault_nodes === true,
    { error: MESSAGES.selectGroupOrNode },
  );
export type CreateJobBody = z.infer<typeof CreateJobBodySchema>;

export const CreateJobQuerySchema = z.object({
  force_push: QueryBooleanSchema.optional(),
});

export const CreateJobResponseSchema = z.object({
  status: z.literal('success'),
  description: z.string(),
  ota_job_id: z.string(),
  total_count: z.number().int(),
});

/** GET /v1/admin/otajob: a page of jobs, or one job with ota_job_id. */
export const JobListQuerySchema = z.object({
  ota_job_id: OtaIdSchema.optional(),
  /** Case-insensitive substring of the job name (the list's search box). */
  ota_job_name: z
    .string()
    .trim()
    .max(SEARCH_MAX_LENGTH, { error: SERVER_MESSAGES.searchTooLong })
    .optional(),
  ota_image_id: OtaIdSchema.optional(),
  archived: QueryBooleanSchema.default(false),
  /** true: only jobs of fault images; false: only the others; absent: both. */
  fault_image: QueryBooleanSchema.optional(),
  start_id: OtaIdSchema.optional(),
  num_records: z.coerce.number({ error: 'Invalid query param' }).int().min(1).max(100).default(10),
});
export type JobListQuery = z.infer<typeof JobListQuerySchema>;

/** Executions per status: the job status summary (fleet-management §3). */
export const JobSummarySchema = z.object({
  total: z.number().int(),
  started: z.number().int(),
  triggered: z.number().int(),
  in_progress: z.number().int(),
  delayed: z.number().int(),
  failed: z.number().int(),
  success: z.number().int(),
  rejected: z.number().int(),
  cancelled: z.number().int(),
});
export type JobSummary = z.infer<typeof JobSummarySchema>;

/** One job (fleet-management §3 OTA job). */
export const OtaJobSchema = z.object({
  ota_job_id: z.string(),
  ota_job_name: z.string(),
  ota_image_id: z.string(),
  image_name: z.string(),
  description: z.string(),
  status: z.enum(OTA_JOB_STATUSES),
  force_push: z.boolean(),
  /** Epoch seconds. */
  triggered_timestamp: z.number().int(),
  /** Epoch seconds, when cancelled (RainMaker's spelling). */
  canceled_timestamp: z.number().int().optional(),
  finished_timestamp: z.number().int().optional(),
  total_count: z.number().int(),
  /** Executions in a final state (success, failed, rejected, cancelled). */
  completed_count: z.number().int(),
  groups: z.array(z.string()),
  /** The job's groups with their names (a deleted group keeps its id and an empty name). */
  node_groups: z.array(z.object({ group_id: z.string(), group_name: z.string() })),
  nodes: z.array(z.string()),
  archived: z.boolean(),
  fault_id: z.string().optional(),
  summary: JobSummarySchema,
});
export type OtaJob = z.infer<typeof OtaJobSchema>;

export const JobListSchema = z.object({
  /** The spec's name of the list. */
  otaJobs: z.array(OtaJobSchema),
  /** RainMaker's name of the same list. */
  ota_jobs: z.array(OtaJobSchema),
  total: z.number().int(),
  next_id: z.string().optional(),
});
export type JobList = z.infer<typeof JobListSchema>;

/** PUT /v1/admin/otajob: cancel, or archive (`archive: "true"`) a cancelled job. */
export const UpdateJobBodySchema = z.object({
  ota_job_id: OtaIdSchema,
  archive: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .optional()
    .transform((value) => value === true || value === 'true'),
});

export const JobIdQuerySchema = z.object({ ota_job_id: OtaIdSchema });

/** GET /v1/admin/otajob/status: a page of the job's nodes, or one node's history. */
export const JobStatusQuerySchema = z.object({
  ota_job_id: OtaIdSchema,
  node_id: NodeIdSchema.optional(),
  start_id: NodeIdSchema.optional(),
  num_records: z.coerce.number({ error: 'Invalid query param' }).int().min(1).max(100).default(10),
});
export type JobStatusQuery = z.infer<typeof JobStatusQuerySchema>;

/** One node of a job, or one entry of a node's history (fleet-management §3). */
export const NodeOtaStatusSchema = z.object({
  node_id: z.string(),
  status: z.enum(OTA_EXECUTION_STATUSES),
  /** Epoch seconds. */
  timestamp: z.number().int(),
  additional_info: z.string(),
  /** NODE when the node's own timestamp was plausible, else CLOUD. */
  ts_source: z.enum(['NODE', 'CLOUD']).optional(),
});
export type NodeOtaStatus = z.infer<typeof NodeOtaStatusSchema>;

export const JobStatusListSchema = z.object({
  node_ota_status: z.array(NodeOtaStatusSchema),
  total: z.number().int(),
  next_id: z.string().optional(),
});
export type JobStatusList = z.infer<typeof JobStatusListSchema>;

/** Pushed over SSE (GET /v1/events) after executions of a job changed. */
export const OtaJobEventSchema = z.object({
  type: z.literal('ota.job'),
  ota_job_id: z.string(),
  status: z.enum(OTA_JOB_STATUSES),
});
export type OtaJobEvent = z.infer<typeof OtaJobEventSchema>;

/** How a job's groups are shown: `FFFF-FFFF` as 'All (FFFF-FFFF)' on details, 'All' in pickers. */
export function groupDisplayName(groupId: string, where: 'details' | 'picker'): string {
  if (groupId !== ALL_NODES_GROUP_ID) return groupId;
  return where === 'details' ? `All (${ALL_NODES_GROUP_ID})` : 'All';
}
