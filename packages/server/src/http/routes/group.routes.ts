import {
  CreateGroupBodySchema,
  CreateGroupResponseSchema,
  GroupFiltersSchema,
  GroupIdQuerySchema,
  GroupListQuerySchema,
  GroupListSchema,
  GroupMatchCountSchema,
  MESSAGES,
  SuccessBodySchema,
  UpdateGroupBodySchema,
  UpdateGroupQuerySchema,
  type NodeGroup,
} from '@fleetdeck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../../services/auth/auth.service.js';
import {
  filtersOf,
  groupQuery,
  type GroupService,
  type GroupView,
} from '../../services/groups/group.service.js';
import { requireAuth } from '../plugins/auth.plugin.js';
import { toNodeInfo } from '../presenters/node.presenter.js';

export interface GroupRoutesOptions {
  auth: AuthService;
  groups: GroupService;
}

/** A group as the API shows it. */
function present(view: GroupView, withDetails: boolean): NodeGroup {
  const filters = filtersOf(view.group);
  const group: NodeGroup = {
    group_id: view.group.group_id,
    group_name: view.group.group_name,
    description: view.group.description,
    group_query: groupQuery(filters),
    is_automatic: view.group.is_automatic === 1,
    filters,
    total: view.total,
    created_at: Number(view.group.created_at),
  };
  if (view.nodes) {
    group.nodes = view.nodes.map((node) => node.node_id);
    if (withDetails) group.node_details = view.nodes.map((node) => toNodeInfo(node, false));
    if (view.nextNodeId) group.next_id = view.nextNodeId;
  }
  return group;
}

/** `admin/node_group`: list, details with a node page, create, add/remove nodes, delete. */
export const groupRoutes: FastifyPluginAsyncZod<GroupRoutesOptions> = async (
  app,
  { auth, groups },
) => {
  app.get(
    '/v1/admin/node_group',
    {
      preValidation: requireAuth(auth, 'groups.read'),
      // A group's page of nodes is one of B6's node lists: `present` builds the typed NodeGroup
      // shape, so the answer goes out through JSON.stringify instead of a zod pass over every
      // node (the schema stays for the query's validation and the OpenAPI document).
      serializerCompiler: () => (data) => JSON.stringify(data),
      schema: {
        tags: ['groups'],
        summary:
          'Groups (keyset by group_id), or one group with a page of its nodes when group_id is given',
        querystring: GroupListQuerySchema,
        response: { 200: GroupListSchema },
      },
    },
    async (request) => {
      const { group_id: groupId, start_id: startId, num_records: limit } = request.query;
      const withDetails = request.query.node_details === 'true';
      if (groupId !== undefined) {
        const view = await groups.details(groupId, startId, limit);
        return { groups: [present(view, withDetails)], total: 1 };
      }
      const page = await groups.list(startId, limit);
      return {
        groups: page.groups.map((view) => present(view, false)),
        total: page.total,
        ...(page.nextId ? { next_id: page.nextId } : {}),
      };
    },
  );

  app.get(
    '/v1/admin/node_group/match_count',
    {
      preValidation: requireAuth(auth, 'groups.read'),
      schema: {
        tags: ['groups'],
        summary: 'How many nodes a set of automatic-add filters matches now',
        querystring: GroupFiltersSchema,
        response: { 200: GroupMatchCountSchema },
      },
    },
    async (request) => ({ total: await groups.matchCount(request.query) }),
  );

  app.post(
    '/v1/admin/node_group',
    {
      preValidation: requireAuth(auth, 'groups.write'),
      schema: {
        tags: ['groups'],
        summary: 'Create a group; with filters it holds every matching node, now and later',
        body: CreateGroupBodySchema,
        response: { 200: CreateGroupResponseSchema },
      },
    },
    async (request) => {
      const groupId = await groups.create(request.body);
      return { status: 'success' as const, description: MESSAGES.groupCreated, group_id: groupId };
    },
  );

  app.put(
    '/v1/admin/node_group',
    {
      preValidation: requireAuth(auth, 'groups.write'),
      schema: {
        tags: ['groups'],
        summary: 'Add nodes to or remove nodes from a group',
        querystring: UpdateGroupQuerySchema,
        body: UpdateGroupBodySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      const description = await groups.update(
        request.query.group_id,
        request.body.operation,
        request.body.nodes,
      );
      return { status: 'success' as const, description };
    },
  );

  app.delete(
    '/v1/admin/node_group',
    {
      preValidation: requireAuth(auth, 'groups.write'),
      schema: {
        tags: ['groups'],
        summary: 'Delete a group',
        querystring: GroupIdQuerySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await groups.delete(request.query.group_id);
      return { status: 'success' as const, description: MESSAGES.groupDeleted };
    },
  );
};
