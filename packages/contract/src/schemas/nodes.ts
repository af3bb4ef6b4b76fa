import { z } from 'zod';
import { ID_PATTERN, NODE_TYPES, SEARCH_MAX_LENGTH } from '../constants.js';

/** Node ids: what RainMaker and real firmware use (MAC-style hex or UUID-like), up to 64 chars. */
export const NodeIdSchema = z
  .string()
  .trim()
  .min(1, { error: 'Node Id is missing' })
  .max(SEARCH_MAX_LENGTH, { error: 'NodeId is too long' })
  .regex(ID_PATTERN, { error: 'Node Id may contain only letters, digits, _ and -' });

/** A `key:value` tag. The first tag of a node is its location, e.g. `location:Pune`. */
export const TagSchema = z
  .string()
  .trim()
  .min(3)
  .max(128)
  .regex(/^[^:\s][^:]*:.+$/, {
    error: 'Some tags are invalid. Valid tag should be of type key:value',
  });

/** The tag key that carries the serial number (spec §3: the second or third tag). */
export const SERIAL_TAG_KEY = 'esp.serial_num';
/** The tag key that carries the location (city); it is always the first tag. */
export const LOCATION_TAG_KEY = 'location';

export const NodeTypeSchema = z.enum(NODE_TYPES);

export const NODE_STATUSES = ['online', 'offline', 'not_activated'] as const;
export const NodeStatusSchema = z.enum(NODE_STATUSES);
export type NodeStatus = z.infer<typeof NodeStatusSchema>;

/** `status.connectivity`: absent fields mean the node never connected (grey dot). */
export const ConnectivitySchema = z.object({
  connected: z.boolean().optional(),
  /** Epoch milliseconds of the last change. */
  timestamp: z.number().int().optional(),
});

/** RainMaker's NodeInfo as the admin node list returns it. */
export const NodeInfoSchema = z.object({
  node_id: z.string(),
  name: z.string(),
  type: z.string(),
  model: z.string(),
  fw_version: z.string(),
  tags: z.array(z.string()),
  node_status: NodeStatusSchema,
  status: z.object({ connectivity: ConnectivitySchema }),
  /** Epoch seconds. */
  registration_timestamp: z.number().int(),
  activation_timestamp: z.number().int().optional(),
  laststatusupdate_timestamp: z.number().int().optional(),
  last_config_update_timestamp: z.number().int().optional(),
  last_activity_timestamp: z.number().int().optional(),
  /** Whether an end user has claimed (been mapped to) the node. */
  is_claimed: z.boolean(),
  config: z.unknown().optional(),
  params: z.unknown().optional(),
});
export type NodeInfo = z.infer<typeof NodeInfoSchema>;

/** Node-list page sizes and the hard cap on one page. */
export const NODE_LIST_MAX_RECORDS = 100;
export const NODE_LIST_DEFAULT_RECORDS = 10;

const optionalFilter = z
  .string()
  .trim()
  .max(SEARCH_MAX_LENGTH, { error: 'Invalid query param' })
  .optional()
  .transform((value) => (value ? value : undefined));

/** GET /v1/admin/nodes query: cursor paging and every index-backed filter. */
export const AdminNodesQuerySchema = z.object({
  start_id: optionalFilter,
  num_records: z.coerce
    .number({ error: 'Invalid query param' })
    .int()
    .min(1)
    .max(NODE_LIST_MAX_RECORDS)
    .default(NODE_LIST_DEFAULT_RECORDS),
  /** Exact node id. */
  node_id: optionalFilter,
  /** Node-id prefix search (the device-id search box). */
  search: optionalFilter,
  node_status: NodeStatusSchema.optional(),
  type: optionalFilter,
  model: optionalFilter,
  fw_version: optionalFilter,
  /** One `key:value` tag the node must carry. */
  tags: optionalFilter,
  city: optionalFilter,
  serial: optionalFilter,
  /** Include config and params documents (default false). */
  node_details: z.enum(['true', 'false']).optional(),
});
export type AdminNodesQuery = z.infer<typeof AdminNodesQuerySchema>;

/** GET /v1/admin/nodes answer. `next_id` is absent on the last page. */
export const AdminNodesListSchema = z.object({
  nodes: z.array(z.string()),
  node_info: z.array(NodeInfoSchema),
  total: z.number().int(),
  next_id: z.string().optional(),
});
export type AdminNodesList = z.infer<typeof AdminNodesListSchema>;

/** One node to register (POST /v1/admin/node_ids). */
export const NodeRegistrationSchema = z.object({
  node_id: NodeIdSchema.optional(),
  name: z.string().trim().max(SEARCH_MAX_LENGTH).optional(),
  type: NodeTypeSchema,
  model: z.string().trim().min(1).max(SEARCH_MAX_LENGTH),
  fw_version: z.string().trim().max(SEARCH_MAX_LENGTH).default(''),
  /** Location first (`location:<city>`), then `esp.serial_num:<serial>`, then anything else. */
  tags: z.array(TagSchema).max(20).default([]),
});
export type NodeRegistration = z.infer<typeof NodeRegistrationSchema>;

export const NODE_REGISTRATION_MAX = 1000;

/** POST /v1/admin/node_ids body. */
export const RegisterNodesBodySchema = z.object({
  nodes: z.array(NodeRegistrationSchema).min(1).max(NODE_REGISTRATION_MAX),
});
export type RegisterNodesBody = z.infer<typeof RegisterNodesBodySchema>;

/** Each node's MQTT credentials, returned exactly once at registration. */
export const RegisteredNodeSchema = z.object({
  node_id: z.string(),
  mqtt_username: z.string(),
  mqtt_password: z.string(),
  /** The secret an app hands to the node for user mapping (B.7 secret-key flow). */
  secret_key: z.string(),
});
export const RegisterNodesResponseSchema = z.object({
  status: z.literal('success'),
  description: z.string(),
  nodes: z.array(RegisteredNodeSchema),
});
export type RegisterNodesResponse = z.infer<typeof RegisterNodesResponseSchema>;

/** PUT /v1/admin/nodes?node_id= body: replace the node's tags. */
export const SetNodeTagsBodySchema = z.object({ tags: z.array(TagSchema).max(20) });
export const NodeIdQuerySchema = z.object({ node_id: NodeIdSchema });

/**
 * GET /v1/user/nodes and /v1/nodes: the caller's own (claimed) nodes, with the same filters as the
 * fleet list so the Devices screen works for end users too.
 */
export const UserNodesQuerySchema = AdminNodesQuerySchema;
export type UserNodesQuery = z.infer<typeof UserNodesQuerySchema>;
export const UserNodesListSchema = z.object({
  nodes: z.array(z.string()),
  node_info: z.array(NodeInfoSchema),
  node_details: z.array(NodeInfoSchema).optional(),
  total: z.number().int(),
  next_id: z.string().optional(),
});
export type UserNodesList = z.infer<typeof UserNodesListSchema>;

/** PUT /v1/user/nodes/mapping body (secret-key flow). */
export const UserNodeMappingBodySchema = z.object({
  node_id: NodeIdSchema,
  secret_key: z
    .string()
    .min(1, { error: 'Secret key for mapping user to node mapping is blank' })
    .max(256, {
      error: 'Secret key is too long',
    }),
  operation: z.enum(['add', 'remove'], {
    error: 'Invalid operation specified.[Valid operation values are add/remove]',
  }),
});
export const UserNodeMappingResponseSchema = z.object({
  status: z.literal('success'),
  description: z.string(),
  request_id: z.string(),
});
export const MAPPING_REQUEST_STATUSES = [
  'requested',
  'confirmed',
  'timedout',
  'discarded',
] as const;
export const UserNodeMappingStatusSchema = z.object({
  request_id: z.string(),
  request_status: z.enum(MAPPING_REQUEST_STATUSES),
});
/** A mapping request the node has not confirmed in this long is kept as timed out. */
export const MAPPING_REQUEST_TIMEOUT_SECONDS = 120;
/**
 * Mapping requests one user may have open (not yet confirmed or timed out) at once; more answer
 * 429. Every request is a stored row, so without a cap one account could write them without end.
 */
export const MAPPING_OPEN_REQUESTS_PER_USER = 20;

/**
 * Event streams (GET /v1/events) one user may keep open on one server instance. Each holds a
 * socket and listeners for hours, so without a cap one account could exhaust the server's
 * sockets. Ten covers a user with several browsers and devices (a browser on HTTP/1.1 opens at
 * most six connections to one host anyway); one more closes the user's oldest stream (ADR 2).
 */
export const EVENT_STREAMS_PER_USER = 10;

/** A connectivity change pushed to dashboards over SSE (GET /v1/events). */
export const NodeConnectivityEventSchema = z.object({
  type: z.literal('node.connectivity'),
  node_id: z.string(),
  connected: z.boolean(),
  timestamp: z.number().int(),
});
export type NodeConnectivityEvent = z.infer<typeof NodeConnectivityEventSchema>;
