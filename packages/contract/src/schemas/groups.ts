import { z } from 'zod';
import { GROUP_DESCRIPTION_MAX_LENGTH, NAME_MAX_LENGTH, SEARCH_MAX_LENGTH } from '../constants.js';
import { SERVER_MESSAGES } from '../errors.js';
import { MESSAGES } from '../messages.js';
import { NodeIdSchema, NodeInfoSchema } from './nodes.js';

/** Group ids look like `A1B2-C3D4`; `FFFF-FFFF` is reserved for "all nodes". */
export const GroupIdSchema = z
  .string()
  .trim()
  .min(1, { error: 'Group id is missing' })
  .max(SEARCH_MAX_LENGTH, { error: 'Invalid query param' });

/** The automatic-add filters of a group (fleet-management §3 Node group). */
export const GROUP_FILTER_FIELDS = [
  'node_type',
  'node_model',
  'node_fw_version',
  'node_city',
  'node_serial_num',
] as const;
export type GroupFilterField = (typeof GROUP_FILTER_FIELDS)[number];

const optionalFilterValue = z
  .string()
  .trim()
  .max(NAME_MAX_LENGTH)
  .optional()
  .transform((value) => (value ? value : undefined));

/** The filters part of a group, also the query of the live match count. */
export const GroupFiltersSchema = z.object({
  node_type: optionalFilterValue,
  node_model: optionalFilterValue,
  node_fw_version: optionalFilterValue,
  node_city: optionalFilterValue,
  node_serial_num: optionalFilterValue,
});
export type GroupFilters = z.infer<typeof GroupFiltersSchema>;

/** The filters as answers carry them (no input normalisation, so responses can be encoded). */
export const GroupFiltersViewSchema = z.object({
  node_type: z.string().optional(),
  node_model: z.string().optional(),
  node_fw_version: z.string().optional(),
  node_city: z.string().optional(),
  node_serial_num: z.string().optional(),
});

/** POST /v1/admin/node_group. */
export const CreateGroupBodySchema = GroupFiltersSchema.extend({
  group_name: z
    .string({ error: SERVER_MESSAGES.groupNameRequired })
    .trim()
    .min(1, { error: SERVER_MESSAGES.groupNameRequired })
    .max(NAME_MAX_LENGTH, { error: SERVER_MESSAGES.groupNameTooLong }),
  description: z
    .string()
    .trim()
    .max(GROUP_DESCRIPTION_MAX_LENGTH, { error: SERVER_MESSAGES.groupDescriptionTooLong })
    .optional(),
  /** Static members to add at creation. */
  nodes: z.array(NodeIdSchema).max(1000).optional(),
});
export type CreateGroupBody = z.infer<typeof CreateGroupBodySchema>;

export const CreateGroupResponseSchema = z.object({
  status: z.literal('success'),
  description: z.string(),
  group_id: z.string(),
});

/** PUT /v1/admin/node_group?group_id= (RainMaker spells the operation in either case). */
export const UpdateGroupBodySchema = z.object({
  operation: z
    .string()
    .transform((value) => value.toLowerCase())
    .pipe(
      z.enum(['add', 'remove'], {
        error: 'Invalid operation specified.[Valid operation values are add/remove]',
      }),
    ),
  nodes: z.array(NodeIdSchema).min(1, { error: SERVER_MESSAGES.selectNodesForGroup }).max(1000),
});
export type UpdateGroupBody = z.infer<typeof UpdateGroupBodySchema>;

export const GroupIdQuerySchema = z.object({ group_id: GroupIdSchema });

/**
 * PUT /v1/admin/node_group query: the group the nodes go to. Without one, the spec's 'You will
 * need to select a group to add nodes!' (fleet-management §5 Add to group).
 */
export const UpdateGroupQuerySchema = z.object({
  group_id: z
    .string({ error: MESSAGES.selectGroupToAdd })
    .trim()
    .min(1, { error: MESSAGES.selectGroupToAdd })
    .pipe(GroupIdSchema),
});

/** GET /v1/admin/node_group query. */
export const GroupListQuerySchema = z.object({
  group_id: GroupIdSchema.optional(),
  start_id: z.string().trim().max(SEARCH_MAX_LENGTH).optional(),
  num_records: z.coerce.number({ error: 'Invalid query param' }).int().min(1).max(100).default(10),
  node_details: z.enum(['true', 'false']).optional(),
});
export type GroupListQuery = z.infer<typeof GroupListQuerySchema>;

/** One group as the list and the details return it. */
export const NodeGroupSchema = z.object({
  group_id: z.string(),
  group_name: z.string(),
  description: z.string(),
  /** The filters joined with `&&` in `name:value` form; empty for a static group. */
  group_query: z.string(),
  is_automatic: z.boolean(),
  filters: GroupFiltersViewSchema,
  /** Number of nodes in the group. */
  total: z.number().int(),
  /** With group_id: one page of the group's node ids (and details with node_details=true). */
  nodes: z.array(z.string()).optional(),
  node_details: z.array(NodeInfoSchema).optional(),
  /** With group_id: the cursor of the next page of nodes. */
  next_id: z.string().optional(),
  created_at: z.number().int(),
});
export type NodeGroup = z.infer<typeof NodeGroupSchema>;

export const GroupListSchema = z.object({
  groups: z.array(NodeGroupSchema),
  total: z.number().int(),
  next_id: z.string().optional(),
});
export type GroupList = z.infer<typeof GroupListSchema>;

/** GET /v1/admin/node_group/match_count: how many nodes the filters match now. */
export const GroupMatchCountSchema = z.object({ total: z.number().int() });
