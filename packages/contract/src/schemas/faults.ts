import { z } from 'zod';
import { FAULT_PARAM_BY_TYPE, NODE_TYPES, PAGE_SIZES, SEARCH_MAX_LENGTH } from '../constants.js';
import { SERVER_MESSAGES } from '../errors.js';
import { FAULT_CATALOGUE_NAMES, type FaultCatalogueName } from '../fault-catalogue.js';
import { NodeIdSchema } from './nodes.js';

/**
 * Fault definitions, fault occurrences and the insights calls of the fault screens (access §2
 * Fault screens, §3, §7 Statistics and faults; rainmaker-contract A.8 `admin/common_custom_data`).
 */
export const FAULT_PATHS = {
  /** GET ?name= (faults.read), PUT {name, value} (super admin). */
  commonCustomData: '/v1/admin/common_custom_data',
  /** Insights: nodes by their current value of a fault dimension. */
  paramValueList: '/insights/v1/param/value/list',
  /** Insights: how many nodes report each value of a fault dimension. */
  paramByValueCount: '/insights/v1/param/byvalue/count',
  /** The fault device list: the devices of one type (and code) that report a fault now. */
  faultNodes: '/v1/admin/faults/nodes',
  /** The affected devices split by firmware version, model and city. */
  faultBreakdown: '/v1/admin/faults/breakdown',
  /** Nodes with their fault changes, newest first. */
  faultHistory: '/v1/admin/faults/history',
} as const;

/** The insights datatype of the fault dimensions (access §7: ACFault, datatype 2). */
export const FAULT_DATATYPE = 2;
/** Most entries a fault catalogue may hold. */
export const FAULT_CATALOGUE_MAX_ENTRIES = 500;
export const FAULT_DESCRIPTION_MAX_LENGTH = 500;
/** Most fault changes returned per node by the fault history. */
export const FAULT_HISTORY_MAX_CHANGES = 50;
/** The largest page of the insights value list and distribution. */
export const INSIGHTS_MAX_LIMIT = 1000;

const code = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, { error: `${what} is required` })
    .max(SEARCH_MAX_LENGTH, { error: `${what} can have at most 64 characters` });

/** One fault definition (access §3): the reported code, the display code and a description. */
export const FaultDefinitionSchema = z.object({
  err_code: code('err_code'),
  disp_code: code('disp_code'),
  description: z
    .string({ error: 'description is required' })
    .trim()
    .min(1, { error: 'description is required' })
    .max(FAULT_DESCRIPTION_MAX_LENGTH, { error: 'description can have at most 500 characters' }),
});
export type FaultDefinition = z.infer<typeof FaultDefinitionSchema>;

/** A whole catalogue: at least one entry, err_code and disp_code each unique. */
export const FaultCatalogueSchema = z
  .array(FaultDefinitionSchema, { error: 'value must be an array of fault definitions' })
  .min(1, { error: 'A fault catalogue needs at least one fault definition' })
  .max(FAULT_CATALOGUE_MAX_ENTRIES, { error: 'A fault catalogue can have at most 500 entries' })
  .superRefine((entries, ctx) => {
    for (const key of ['err_code', 'disp_code'] as const) {
      const seen = new Set<string>();
      for (const item of entries) {
        if (seen.has(item[key]))
          ctx.addIssue({ code: 'custom', message: `Duplicate ${key} ${item[key]}` });
        seen.add(item[key]);
      }
    }
  });

/** Whether a common_custom_data name is one of the fault catalogues. */
export function isFaultCatalogueName(name: string): name is FaultCatalogueName {
  return (FAULT_CATALOGUE_NAMES as readonly string[]).includes(name);
}

/** A common_custom_data name: 1–64 letters, digits, `_`, `-` or `.`. */
export const CommonCustomDataNameSchema = z
  .string({ error: 'Name is missing in the request body' })
  .trim()
  .min(1, { error: 'Name is missing in the request body' })
  .max(SEARCH_MAX_LENGTH, { error: SERVER_MESSAGES.invalidQueryParam })
  .regex(/^[A-Za-z0-9_.-]+$/, { error: SERVER_MESSAGES.invalidQueryParam });

/** GET /v1/admin/common_custom_data?name= (without a name: every entry). */
export const CommonCustomDataQuerySchema = z.object({
  name: CommonCustomDataNameSchema.optional(),
});
export type CommonCustomDataQuery = z.infer<typeof CommonCustomDataQuerySchema>;

/** One stored entry. */
export const CommonCustomDataEntrySchema = z.object({ name: z.string(), value: z.unknown() });
export type CommonCustomDataEntry = z.infer<typeof CommonCustomDataEntrySchema>;

/**
 * The GET answer. RainMaker answers `{name, value}`; the spec's dashboard reads `data[0].value`.
 * Both are served: with `?name=`, `name` and `value` are that entry and `data` is `[that entry]`;
 * without it, `data` lists every entry.
 */
export const CommonCustomDataResponseSchema = z.object({
  name: z.string().optional(),
  value: z.unknown().optional(),
  data: z.array(CommonCustomDataEntrySchema),
});
export type CommonCustomDataResponse = z.infer<typeof CommonCustomDataResponseSchema>;

/** The GET answer for a fault catalogue name (what the Faults List reads). */
export const FaultCatalogueResponseSchema = z.object({
  name: z.enum(FAULT_CATALOGUE_NAMES),
  value: z.array(FaultDefinitionSchema),
  data: z.array(
    z.object({ name: z.enum(FAULT_CATALOGUE_NAMES), value: z.array(FaultDefinitionSchema) }),
  ),
});
export type FaultCatalogueResponse = z.infer<typeof FaultCatalogueResponseSchema>;

/**
 * PUT /v1/admin/common_custom_data `{name, value}`. A fault catalogue must be a valid catalogue
 * (it replaces the stored one and cannot be deleted); other names take any JSON (`null` deletes,
 * an object merges key-wise into a stored object, a `null` key deletes that key).
 */
export const PutCommonCustomDataBodySchema = z
  .object({ name: CommonCustomDataNameSchema, value: z.unknown() })
  .superRefine((body, ctx) => {
    if (!isFaultCatalogueName(body.name)) return;
    if (body.value === null || body.value === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: SERVER_MESSAGES.faultCatalogueNotDeletable,
      });
      return;
    }
    const parsed = FaultCatalogueSchema.safeParse(body.value);
    if (!parsed.success)
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: parsed.error.issues[0]?.message ?? 'Invalid fault catalogue',
      });
  });
export type PutCommonCustomDataBody = z.infer<typeof PutCommonCustomDataBodySchema>;

// ---------------------------------------------------------------------------------------------
// Insights: param/value/list and param/byvalue/count
// ---------------------------------------------------------------------------------------------

/** The fault dimensions: ACFault, RefFault, WasherFault. */
export const FAULT_DIMENSIONS = Object.values(FAULT_PARAM_BY_TYPE) as [string, ...string[]];
export const FaultDimensionSchema = z.enum(FAULT_DIMENSIONS, {
  error: SERVER_MESSAGES.invalidQueryParam,
});

/** A comma-separated list of values (a query parameter may also repeat). */
const valueListParam = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((raw) =>
    (raw === undefined ? [] : Array.isArray(raw) ? raw : [raw])
      .flatMap((part) => part.split(','))
      .map((part) => part.trim())
      .filter((part) => part.length > 0),
  )
  .pipe(z.array(z.string().max(SEARCH_MAX_LENGTH)).max(100));

const insightsPaging = {
  dimensionname: FaultDimensionSchema,
  datatype: z.coerce
    .number({ error: SERVER_MESSAGES.invalidQueryParam })
    .int({ error: SERVER_MESSAGES.invalidQueryParam })
    .min(0, { error: SERVER_MESSAGES.invalidQueryParam })
    .max(10, { error: SERVER_MESSAGES.invalidQueryParam })
    .default(FAULT_DATATYPE),
  limit: z.coerce
    .number({ error: SERVER_MESSAGES.invalidQueryParam })
    .int({ error: SERVER_MESSAGES.invalidQueryParam })
    .min(1, { error: SERVER_MESSAGES.invalidQueryParam })
    .max(INSIGHTS_MAX_LIMIT, { error: SERVER_MESSAGES.invalidQueryParam })
    .default(100),
  /** Opaque: the `pagetoken` of the previous answer. */
  pagetoken: z.string().trim().max(512, { error: SERVER_MESSAGES.invalidQueryParam }).optional(),
};

/**
 * GET /insights/v1/param/value/list: nodes whose current value of the dimension is in `include`
 * (or not in `exclude`); nodes without a fault report no value and are never listed.
 */
export const ParamValueListQuerySchema = z
  .object({ ...insightsPaging, include: valueListParam, exclude: valueListParam })
  .refine((query) => query.include.length === 0 || query.exclude.length === 0, {
    error: 'Use either include or exclude, not both',
  });
export type ParamValueListQuery = z.infer<typeof ParamValueListQuerySchema>;

/** One node's current value (a fault occurrence, access §3). `timestamp`: epoch seconds since. */
export const ParamValueSchema = z.object({
  node_id: z.string(),
  value: z.string(),
  timestamp: z.number().int(),
});
export type ParamValue = z.infer<typeof ParamValueSchema>;

/** `{list, totalnodes, pagetoken}`; `pagetoken` is absent on the last page. */
export const ParamValueListSchema = z.object({
  list: z.array(ParamValueSchema),
  totalnodes: z.number().int(),
  pagetoken: z.string().optional(),
});
export type ParamValueList = z.infer<typeof ParamValueListSchema>;

/** GET /insights/v1/param/byvalue/count. */
export const ParamByValueCountQuerySchema = z.object({
  ...insightsPaging,
  exclude: valueListParam,
});
export type ParamByValueCountQuery = z.infer<typeof ParamByValueCountQuerySchema>;

/** `{distribution: [{value, count}], totalnodes, pagetoken}`, most frequent value first. */
export const ParamByValueCountSchema = z.object({
  distribution: z.array(z.object({ value: z.string(), count: z.number().int() })),
  /** Nodes counted over all pages (the sum of every count). */
  totalnodes: z.number().int(),
  pagetoken: z.string().optional(),
});
export type ParamByValueCount = z.infer<typeof ParamByValueCountSchema>;

// ---------------------------------------------------------------------------------------------
// Fleetdeck's fault views: device list, breakdown, history
// ---------------------------------------------------------------------------------------------

const optionalText = z
  .string()
  .trim()
  .max(SEARCH_MAX_LENGTH, { error: SERVER_MESSAGES.searchTooLong })
  .optional()
  .transform((value) => (value ? value : undefined));

const pageSize = (sizes: readonly number[], fallback: number) =>
  z.coerce
    .number({ error: SERVER_MESSAGES.invalidQueryParam })
    .int({ error: SERVER_MESSAGES.invalidQueryParam })
    .min(1, { error: SERVER_MESSAGES.invalidQueryParam })
    .max(Math.max(100, ...sizes), { error: SERVER_MESSAGES.invalidQueryParam })
    .default(fallback);

const FaultNodeTypeSchema = z.enum(NODE_TYPES, { error: SERVER_MESSAGES.invalidQueryParam });

/**
 * GET /v1/admin/faults/nodes: devices of `type` reporting a fault now (only `code` when given).
 * `search` matches a display code (or error code) of the type's catalogue, or else a device id,
 * exactly. Paged by node id: `start_id` is the `next` of the previous page.
 */
export const FaultNodesQuerySchema = z.object({
  type: FaultNodeTypeSchema,
  code: optionalText,
  search: optionalText,
  start_id: optionalText,
  num_records: pageSize(PAGE_SIZES.faultDeviceList, PAGE_SIZES.faultDeviceList[0]),
});
export type FaultNodesQuery = z.infer<typeof FaultNodesQuerySchema>;

/** A device with its current fault, the definition looked up by code ('' when not catalogued). */
export const FaultNodeSchema = z.object({
  node_id: z.string(),
  err_code: z.string(),
  disp_code: z.string(),
  description: z.string(),
  /** Epoch seconds: when the node started reporting this code. */
  timestamp: z.number().int(),
});
export type FaultNode = z.infer<typeof FaultNodeSchema>;

/** `{count, nodes, next}`: `count` matches over all pages; `next` is absent on the last page. */
export const FaultNodesListSchema = z.object({
  count: z.number().int(),
  nodes: z.array(FaultNodeSchema),
  next: z.string().optional(),
});
export type FaultNodesList = z.infer<typeof FaultNodesListSchema>;

/** GET /v1/admin/faults/breakdown?type=&code= (all faulty devices of the type without code). */
export const FaultBreakdownQuerySchema = z.object({
  type: FaultNodeTypeSchema,
  code: optionalText,
});
export type FaultBreakdownQuery = z.infer<typeof FaultBreakdownQuerySchema>;

/** One bucket: a firmware version, model or city ('' = not known) and its device count. */
export const FaultBucketSchema = z.object({ value: z.string(), count: z.number().int() });
export type FaultBucket = z.infer<typeof FaultBucketSchema>;

/** The affected devices split three ways, largest bucket first. */
export const FaultBreakdownSchema = z.object({
  total: z.number().int(),
  by_fw_version: z.array(FaultBucketSchema),
  by_model: z.array(FaultBucketSchema),
  by_city: z.array(FaultBucketSchema),
});
export type FaultBreakdown = z.infer<typeof FaultBreakdownSchema>;

/**
 * GET /v1/admin/faults/history: nodes that ever reported a fault, by node id; `node_id` exact or
 * `search` a device-id (product id) prefix; `start_id` is the `next_id` of the previous page.
 */
export const FaultHistoryQuerySchema = z.object({
  node_id: NodeIdSchema.optional(),
  search: optionalText,
  start_id: optionalText,
  num_records: pageSize(PAGE_SIZES.faultHistory, PAGE_SIZES.faultHistory[0]),
});
export type FaultHistoryQuery = z.infer<typeof FaultHistoryQuerySchema>;

/** One change of a node's fault param; a clear has `cleared: true` and empty codes. */
export const FaultChangeSchema = z.object({
  err_code: z.string(),
  disp_code: z.string(),
  description: z.string(),
  cleared: z.boolean(),
  /** Epoch seconds. */
  timestamp: z.number().int(),
});
export type FaultChange = z.infer<typeof FaultChangeSchema>;

/** A node with its current fault (null when none) and its latest changes, newest first. */
export const FaultHistoryNodeSchema = z.object({
  node_id: z.string(),
  type: z.string(),
  model: z.string(),
  fw_version: z.string(),
  city: z.string(),
  current: FaultNodeSchema.omit({ node_id: true }).nullable(),
  /** At most FAULT_HISTORY_MAX_CHANGES entries. */
  faults: z.array(FaultChangeSchema),
});
export type FaultHistoryNode = z.infer<typeof FaultHistoryNodeSchema>;

/** `{nodes, total, next_id}`; an empty result is a 404 with 'Nodes not found.'. */
export const FaultHistorySchema = z.object({
  nodes: z.array(FaultHistoryNodeSchema),
  total: z.number().int(),
  next_id: z.string().optional(),
});
export type FaultHistory = z.infer<typeof FaultHistorySchema>;
