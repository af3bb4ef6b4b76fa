import { z } from 'zod';
import { ParamsPayloadSchema } from '../mqtt.js';
import { UserNameSchema } from './auth.js';
import { QueryBooleanSchema } from './common.js';
import { GroupIdSchema } from './groups.js';
import { NodeIdSchema } from './nodes.js';

/**
 * Node sharing, device-group sharing and node automations (docs/adr/0014): the sources of the push
 * events `node_shared_with_user`, `group_shared_with_user` and `node_automation_trigger`. Shapes
 * follow RainMaker's `user/nodes/sharing`, `user/node_group/sharing` and `user/node_automation`
 * (main OpenAPI file), narrowed to what Fleetdeck runs: secondary sharing only, and automations
 * with one param condition.
 */

/** Limits of the sharing and automation calls (RainMaker's where it has one). */
export const SHARING_LIMITS = {
  /** Nodes in one sharing request (RainMaker 107022). */
  nodesPerRequest: 100,
  /** Groups in one sharing request (RainMaker 108036). */
  groupsPerRequest: 10,
  /** Sharing requests per page (RainMaker: 1 to 10, default 10). */
  requestsPerPage: 10,
  /** Actions of one automation (RainMaker 127014). */
  automationActions: 10,
  /** Automation name length (RainMaker 127011). */
  automationNameLength: 256,
  /**
   * Node sharing requests one user may have waiting for an answer: without a cap one user could
   * fill another's request list (and the table) with copies of the same offer.
   */
  pendingRequestsSent: 100,
  /**
   * Device-group sharing requests one user may have waiting for an answer, from all admins
   * together. Counted per recipient, not per sender: group offers come from admins, who may
   * rightly offer a group to hundreds of users and cannot withdraw an offer, while the harm the
   * cap prevents is one user's request list (and the table) filled with offers.
   */
  pendingGroupRequestsReceived: 100,
  /** Automations one user may keep (bounds the per-node cache the ingest reads). */
  automationsPerUser: 100,
  /** Automations per page of the list. */
  automationsPerPage: 25,
  /** Serialised size of one action's params. */
  actionParamsBytes: 4096,
} as const;

/** Error codes (RainMaker families 103xxx, 107xxx, 108xxx and 127xxx). */
export const SHARING_ERROR_CODES = {
  nodeNotOwned: 100010,
  notPrimary: 107027,
  selfSharing: 107003,
  userMissing: 107007,
  requestInvalid: 107023,
  requestNotFound: 107026,
  nodeNotShared: 107011,
  primaryRoleUnsupported: 107033,
  groupSelfSharing: 108046,
  groupUserMissing: 108050,
  groupMissing: 108038,
  groupReserved: 108016,
  groupRequestInvalid: 108034,
  groupNotShared: 108043,
  automationNodeNotOwned: 103020,
  automationNameTaken: 127010,
  automationMissing: 127012,
  automationNothingToUpdate: 127009,
  automationLimit: 127027,
  pendingRequestLimit: 107040,
  groupPendingRequestLimit: 108040,
} as const;

/** Server texts (RainMaker's where it has one; the spec quotes none). */
export const SHARING_MESSAGES = {
  nodesMissing: 'Please specify at least one node',
  nodesTooMany: `Node list too long. It can have maximum of ${SHARING_LIMITS.nodesPerRequest} nodes.`,
  selfSharing: 'Self node sharing operations [add/remove] are not allowed.',
  notPrimary: 'Error, User should be primary owner of all nodes in the request',
  userMissing: 'User does not exist for sharing',
  primaryRoleUnsupported: 'Only secondary sharing is supported: leave primary out or set it false',
  requestCreated: 'Node sharing request added for the user successfully',
  alreadyShared: 'Node sharing added for the user successfully',
  requestInvalid:
    'Error getting request. Either given request ID is invalid or has already been accepted or declined.',
  requestNotFound: 'Node sharing request not found',
  requestStale: 'The sharing user no longer holds every node of this request',
  requestWithdrawn: 'Node sharing request removed',
  accepted: 'Node sharing request accepted',
  declined: 'Node sharing request declined',
  unshared: 'Node sharing removed for the user',
  nodeNotShared: 'User to node mapping does not exist',
  nodeNotOwned: 'Node does not belong to user',
  groupsMissing: 'Please specify at least one group in the request',
  groupsTooMany: `Group list too long. It can have maximum of ${SHARING_LIMITS.groupsPerRequest} groups.`,
  groupMissing: 'Error some groupIds are missing.',
  groupReserved: 'The group FFFF-FFFF (All) cannot be shared',
  groupSelfSharing: 'Adding self group sharing is not allowed',
  groupUserMissing: 'User name does not exist',
  groupRequestCreated: 'Group sharing request added for the user successfully',
  groupAlreadyShared: 'Group sharing added for the user successfully',
  groupRequestInvalid:
    'Error getting request. Either given request ID is invalid or has already been accepted or declined.',
  groupAccepted: 'Group sharing request accepted',
  groupDeclined: 'Group sharing request declined',
  groupUnshared: 'Group sharing removed',
  groupNotShared: 'The group is not shared with this user',
  automationCreated: 'Automation trigger added',
  automationUpdated: 'Automation trigger updated',
  automationDeleted: 'Automation trigger removed',
  automationNodeNotOwned: 'Node does not belong to user',
  automationNameTaken: 'Node Automation with same name already exists',
  automationMissing: 'Automation trigger does not exist.',
  automationNothingToUpdate:
    'Please specify at least one of the valid name, events, actions, event_operator, retrigger or enabled parameter.',
  automationLimit: `You can keep at most ${SHARING_LIMITS.automationsPerUser} automations`,
  pendingRequestLimit: `You have ${SHARING_LIMITS.pendingRequestsSent} sharing requests waiting for an answer. Withdraw some, or wait for answers, before sending more.`,
  groupPendingRequestLimit: `This user has ${SHARING_LIMITS.pendingGroupRequestsReceived} group sharing requests waiting for an answer. Wait for answers before offering more.`,
  automationNameLength: `Automation name must be 1 to ${SHARING_LIMITS.automationNameLength} characters long`,
  automationEvent:
    'An automation takes one event with one param, e.g. {"params":{"Air Conditioner":{"Power":true}},"check":"=="}',
  automationCheck: 'Please specify valid event check. Valid values are [==, !=, <, <=, >, >=]',
  automationOrderedValue: 'Error, Invalid event params: <, <=, > and >= compare numbers',
  automationActionsMissing: 'Please specify at least one action',
  automationActionsTooMany: `Action limit exceeded. You can specify maximum of ${SHARING_LIMITS.automationActions} actions`,
  automationActionParams: 'Each action sets at least one param of one device',
  automationActionTooLarge: `The params of one action must stay under ${SHARING_LIMITS.actionParamsBytes} bytes`,
} as const;

// --- Node sharing ---

const NodeListSchema = z
  .array(NodeIdSchema, { error: SHARING_MESSAGES.nodesMissing })
  .min(1, { error: SHARING_MESSAGES.nodesMissing })
  .max(SHARING_LIMITS.nodesPerRequest, { error: SHARING_MESSAGES.nodesTooMany });

/**
 * PUT /v1/user/nodes/sharing: the primary user shares nodes with another user, who must accept.
 * RainMaker's examples spell the list `nodes`, its schema `node_ids`; both are taken.
 */
export const NodeSharingBodySchema = z
  .object({
    nodes: NodeListSchema.optional(),
    node_ids: NodeListSchema.optional(),
    user_name: UserNameSchema,
    primary: z.literal(false, { error: SHARING_MESSAGES.primaryRoleUnsupported }).optional(),
  })
  .refine((body) => body.nodes !== undefined || body.node_ids !== undefined, {
    error: SHARING_MESSAGES.nodesMissing,
  })
  .transform((body) => ({
    nodes: [...new Set(body.nodes ?? body.node_ids ?? [])],
    user_name: body.user_name,
  }));
export type NodeSharingBody = z.infer<typeof NodeSharingBodySchema>;

/** The answer of a share: the request to accept (or a fresh id when nothing needed accepting). */
export const SharingResponseSchema = z.object({
  status: z.literal('success'),
  description: z.string(),
  request_id: z.string(),
});
export type SharingResponse = z.infer<typeof SharingResponseSchema>;

/** PUT /v1/user/nodes/sharing/requests and /v1/user/node_group/sharing/requests. */
export const SharingDecisionBodySchema = z.object({
  request_id: z.string().trim().min(1, { error: 'Error RequestId is missing' }).max(64),
  accept: z.boolean({ error: 'Specify confirm_sharing or accept parameter correctly. true/false' }),
});
export type SharingDecisionBody = z.infer<typeof SharingDecisionBodySchema>;

export const SHARING_REQUEST_STATUSES = ['pending', 'accepted', 'declined'] as const;
export type SharingRequestStatus = (typeof SHARING_REQUEST_STATUSES)[number];

/** GET …/sharing/requests: received requests, or with `primary_user=true` the ones sent. */
export const SharingRequestsQuerySchema = z.object({
  request_id: z.string().trim().min(1).max(64).optional(),
  primary_user: QueryBooleanSchema.optional(),
  start_request_id: z.string().trim().min(1).max(64).optional(),
  // RainMaker: an invalid value means the default.
  num_records: z.coerce
    .number()
    .int()
    .min(1)
    .max(SHARING_LIMITS.requestsPerPage)
    // (`default` too, so the OpenAPI document shows the parameter as optional, which it is.)
    .default(SHARING_LIMITS.requestsPerPage)
    .catch(SHARING_LIMITS.requestsPerPage),
});
export type SharingRequestsQuery = z.infer<typeof SharingRequestsQuerySchema>;

/** DELETE /v1/user/nodes/sharing/requests?request_id=: the sharer withdraws a pending request. */
export const SharingRequestIdQuerySchema = z.object({
  request_id: z.string().trim().min(1, { error: 'Error RequestId is missing' }).max(64),
});

/** One node sharing request. */
export const NodeSharingRequestSchema = z.object({
  request_id: z.string(),
  request_status: z.enum(SHARING_REQUEST_STATUSES),
  request_timestamp: z.number().int(),
  node_ids: z.array(z.string()),
  user_name: z.string(),
  primary_user_name: z.string(),
  user_role: z.literal('secondary'),
});
export type NodeSharingRequest = z.infer<typeof NodeSharingRequestSchema>;

export const NodeSharingRequestListSchema = z.object({
  sharing_requests: z.array(NodeSharingRequestSchema),
  next_request_id: z.string().optional(),
});

/** A comma-separated query list (`nodes=a,b`), trimmed and without repeats. */
const commaList = (
  item: z.ZodType<string, string>,
  missing: string,
  max: number,
  tooMany: string,
) =>
  z
    .string({ error: missing })
    .transform((value) => [
      ...new Set(
        value
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(item).min(1, { error: missing }).max(max, { error: tooMany }));

/** DELETE /v1/user/nodes/sharing?nodes=&user_name=: the primary user removes a secondary user. */
export const NodeUnshareQuerySchema = z.object({
  nodes: commaList(
    NodeIdSchema,
    SHARING_MESSAGES.nodesMissing,
    SHARING_LIMITS.nodesPerRequest,
    SHARING_MESSAGES.nodesTooMany,
  ),
  user_name: UserNameSchema,
});
export type NodeUnshareQuery = z.infer<typeof NodeUnshareQuerySchema>;

/** GET /v1/user/nodes/sharing[?node_id=]. */
export const NodeSharingQuerySchema = z.object({ node_id: NodeIdSchema.optional() });

/** Who holds a node; a secondary user does not see the other secondary users. */
export const NodeSharingDetailsSchema = z.object({
  node_sharing: z.array(
    z.object({
      node_id: z.string(),
      users: z.object({
        primary: z.array(z.string()),
        secondary: z.array(z.string()).optional(),
      }),
    }),
  ),
});
export type NodeSharingDetails = z.infer<typeof NodeSharingDetailsSchema>;

// --- Device-group sharing (an admin shares a group's notifications with a user) ---

const GroupListSchema = z
  .array(GroupIdSchema, { error: SHARING_MESSAGES.groupsMissing })
  .min(1, { error: SHARING_MESSAGES.groupsMissing })
  .max(SHARING_LIMITS.groupsPerRequest, { error: SHARING_MESSAGES.groupsTooMany });

/** PUT /v1/admin/node_group/sharing: offers a device group's notifications to a user. */
export const GroupSharingBodySchema = z.object({
  groups: GroupListSchema.transform((groups) => [...new Set(groups)]),
  user_name: UserNameSchema,
});
export type GroupSharingBody = z.infer<typeof GroupSharingBodySchema>;

/** DELETE /v1/admin/node_group/sharing?groups=&user_name=. */
export const GroupUnshareQuerySchema = z.object({
  groups: commaList(
    GroupIdSchema,
    SHARING_MESSAGES.groupsMissing,
    SHARING_LIMITS.groupsPerRequest,
    SHARING_MESSAGES.groupsTooMany,
  ),
  user_name: UserNameSchema,
});
export type GroupUnshareQuery = z.infer<typeof GroupUnshareQuerySchema>;

/** DELETE /v1/user/node_group/sharing?groups=: the user leaves groups shared with them. */
export const GroupLeaveQuerySchema = z.object({
  groups: commaList(
    GroupIdSchema,
    SHARING_MESSAGES.groupsMissing,
    SHARING_LIMITS.groupsPerRequest,
    SHARING_MESSAGES.groupsTooMany,
  ),
});

/** One group sharing request. */
export const GroupSharingRequestSchema = z.object({
  request_id: z.string(),
  request_status: z.enum(SHARING_REQUEST_STATUSES),
  request_timestamp: z.number().int(),
  group_ids: z.array(z.string()),
  group_names: z.array(z.string()),
  user_name: z.string(),
  primary_user_name: z.string(),
});
export type GroupSharingRequest = z.infer<typeof GroupSharingRequestSchema>;

export const GroupSharingRequestListSchema = z.object({
  sharing_requests: z.array(GroupSharingRequestSchema),
  next_request_id: z.string().optional(),
});

/** GET /v1/user/node_group/sharing: the groups shared with the caller. */
export const SharedGroupListSchema = z.object({
  groups: z.array(z.object({ group_id: z.string(), group_name: z.string() })),
});

// --- Node automations ---

export const AUTOMATION_CHECKS = ['==', '!=', '<', '<=', '>', '>='] as const;
export type AutomationCheck = (typeof AUTOMATION_CHECKS)[number];
/** Checks that order values; they compare numbers only. */
export const ORDERED_AUTOMATION_CHECKS: readonly AutomationCheck[] = ['<', '<=', '>', '>='];

/** A param value a condition compares with. */
export const AutomationValueSchema = z.union([z.number(), z.boolean(), z.string().max(256)]);
export type AutomationValue = z.infer<typeof AutomationValueSchema>;

/** RainMaker's event: `{params: {<device>: {<param>: value}}, check}`; Fleetdeck takes one param. */
export const AutomationEventSchema = z
  .object({
    params: z.record(
      z.string().min(1).max(128),
      z.record(z.string().min(1).max(128), AutomationValueSchema),
    ),
    check: z.enum(AUTOMATION_CHECKS, { error: SHARING_MESSAGES.automationCheck }),
  })
  .superRefine((event, ctx) => {
    const devices = Object.entries(event.params);
    const params = devices.length === 1 ? Object.entries(devices[0]?.[1] ?? {}) : [];
    if (params.length !== 1) {
      ctx.addIssue({ code: 'custom', message: SHARING_MESSAGES.automationEvent });
      return;
    }
    const value = params[0]?.[1];
    if (ORDERED_AUTOMATION_CHECKS.includes(event.check) && typeof value !== 'number')
      ctx.addIssue({ code: 'custom', message: SHARING_MESSAGES.automationOrderedValue });
  });
export type AutomationEvent = z.infer<typeof AutomationEventSchema>;

/** One action: params to set on a node the owner may control (published on `params/remote`). */
export const AutomationActionSchema = z.object({
  node_id: NodeIdSchema,
  params: ParamsPayloadSchema.refine(
    (params) =>
      Object.keys(params).length > 0 &&
      Object.values(params).every((device) => Object.keys(device).length > 0),
    { error: SHARING_MESSAGES.automationActionParams },
  ).refine((params) => JSON.stringify(params).length <= SHARING_LIMITS.actionParamsBytes, {
    error: SHARING_MESSAGES.automationActionTooLarge,
  }),
});
export type AutomationAction = z.infer<typeof AutomationActionSchema>;

const AutomationNameSchema = z
  .string({ error: 'Node Automation Name is missing' })
  .trim()
  .min(1, { error: SHARING_MESSAGES.automationNameLength })
  .max(SHARING_LIMITS.automationNameLength, { error: SHARING_MESSAGES.automationNameLength });
const AutomationEventsSchema = z
  .array(AutomationEventSchema, { error: 'Please specify at least one event' })
  .min(1, { error: 'Please specify at least one event' })
  .max(1, { error: SHARING_MESSAGES.automationEvent });
const AutomationActionsSchema = z
  .array(AutomationActionSchema, { error: SHARING_MESSAGES.automationActionsMissing })
  .min(1, { error: SHARING_MESSAGES.automationActionsMissing })
  .max(SHARING_LIMITS.automationActions, { error: SHARING_MESSAGES.automationActionsTooMany });
const EventOperatorSchema = z.enum(['and', 'or']);

/** POST /v1/user/node_automation. */
export const AutomationCreateBodySchema = z.object({
  name: AutomationNameSchema,
  node_id: NodeIdSchema,
  event_type: z.literal('node_params').default('node_params'),
  events: AutomationEventsSchema,
  event_operator: EventOperatorSchema.optional(),
  actions: AutomationActionsSchema,
  /** Run again on every report that matches, not only when the condition becomes true. */
  retrigger: z.boolean().default(false),
  enabled: z.boolean().default(true),
});
export type AutomationCreateBody = z.infer<typeof AutomationCreateBodySchema>;

/** PUT /v1/user/node_automation?automation_id=: any of the fields. */
export const AutomationUpdateBodySchema = z.object({
  name: AutomationNameSchema.optional(),
  enabled: z.boolean().optional(),
  node_id: NodeIdSchema.optional(),
  events: AutomationEventsSchema.optional(),
  event_operator: EventOperatorSchema.optional(),
  actions: AutomationActionsSchema.optional(),
  retrigger: z.boolean().optional(),
});
export type AutomationUpdateBody = z.infer<typeof AutomationUpdateBodySchema>;

export const AutomationIdQuerySchema = z.object({
  automation_id: z.string().trim().min(1, { error: 'Automation Id is missing' }).max(64),
});

/** GET /v1/user/node_automation. */
export const AutomationListQuerySchema = z.object({
  automation_id: z.string().trim().min(1).max(64).optional(),
  node_id: NodeIdSchema.optional(),
  start_id: z.string().trim().min(1).max(64).optional(),
  num_records: z.coerce
    .number()
    .int()
    .min(1)
    .max(SHARING_LIMITS.automationsPerPage)
    .catch(SHARING_LIMITS.automationsPerPage),
});
export type AutomationListQuery = z.infer<typeof AutomationListQuerySchema>;

/** An automation as the API shows it. */
export const AutomationSchema = z.object({
  automation_id: z.string(),
  automation_name: z.string(),
  enabled: z.boolean(),
  node_id: z.string(),
  event_type: z.literal('node_params'),
  events: z.array(
    z.object({
      params: z.record(z.string(), z.record(z.string(), AutomationValueSchema)),
      check: z.enum(AUTOMATION_CHECKS),
    }),
  ),
  event_operator: EventOperatorSchema,
  actions: z.array(
    z.object({
      node_id: z.string(),
      params: z.record(z.string(), z.record(z.string(), z.unknown())),
    }),
  ),
  retrigger: z.boolean(),
});
export type Automation = z.infer<typeof AutomationSchema>;

export const AutomationListSchema = z.object({
  automation_trigger_actions: z.array(AutomationSchema),
  next_id: z.string().optional(),
});

export const AutomationCreateResponseSchema = z.object({
  status: z.literal('success'),
  description: z.string(),
  automation_id: z.string(),
});
