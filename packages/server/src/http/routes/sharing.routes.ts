import {
  GroupLeaveQuerySchema,
  GroupSharingBodySchema,
  GroupSharingRequestListSchema,
  GroupUnshareQuerySchema,
  NodeSharingBodySchema,
  NodeSharingDetailsSchema,
  NodeSharingQuerySchema,
  NodeSharingRequestListSchema,
  NodeUnshareQuerySchema,
  SHARING_MESSAGES,
  SharedGroupListSchema,
  SharingDecisionBodySchema,
  SharingRequestIdQuerySchema,
  SharingRequestsQuerySchema,
  SharingResponseSchema,
  SuccessBodySchema,
} from '@fleetdeck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../../services/auth/auth.service.js';
import type { SharingService } from '../../services/sharing/sharing.service.js';
import { authOf, requireAuth } from '../plugins/auth.plugin.js';

export interface SharingRoutesOptions {
  auth: AuthService;
  sharing: SharingService;
}

/**
 * Node sharing between end users (`user/nodes/sharing…`) and device-group sharing from admins to
 * users (`admin/node_group/sharing`, `user/node_group/sharing…`), ADR 14.
 */
export const sharingRoutes: FastifyPluginAsyncZod<SharingRoutesOptions> = async (
  app,
  { auth, sharing },
) => {
  const signedIn = requireAuth(auth, 'user.self');
  const groupAdmin = requireAuth(auth, 'groups.write');

  app.put(
    '/v1/user/nodes/sharing',
    {
      preValidation: signedIn,
      schema: {
        tags: ['sharing'],
        summary: 'Share nodes you are the primary user of; the other user accepts or declines',
        body: NodeSharingBodySchema,
        response: { 200: SharingResponseSchema },
      },
    },
    async (request) => sharing.shareNodes(authOf(request).user.userId, request.body),
  );

  app.get(
    '/v1/user/nodes/sharing',
    {
      preValidation: signedIn,
      schema: {
        tags: ['sharing'],
        summary: 'Primary and secondary users of your nodes (or of one node)',
        querystring: NodeSharingQuerySchema,
        response: { 200: NodeSharingDetailsSchema },
      },
    },
    async (request) => sharing.nodeSharing(authOf(request).user.userId, request.query.node_id),
  );

  app.delete(
    '/v1/user/nodes/sharing',
    {
      preValidation: signedIn,
      schema: {
        tags: ['sharing'],
        summary: "End another user's shares of nodes you are the primary user of",
        querystring: NodeUnshareQuerySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await sharing.unshareNodes(authOf(request).user.userId, request.query);
      return { status: 'success' as const, description: SHARING_MESSAGES.unshared };
    },
  );

  app.get(
    '/v1/user/nodes/sharing/requests',
    {
      preValidation: signedIn,
      schema: {
        tags: ['sharing'],
        summary:
          'Pending node sharing requests you received, or (primary_user=true) those you sent',
        querystring: SharingRequestsQuerySchema,
        response: { 200: NodeSharingRequestListSchema },
      },
    },
    async (request) => {
      const page = await sharing.nodeRequests(authOf(request).user.userId, request.query);
      return {
        sharing_requests: page.requests,
        ...(page.next ? { next_request_id: page.next } : {}),
      };
    },
  );

  app.put(
    '/v1/user/nodes/sharing/requests',
    {
      preValidation: signedIn,
      schema: {
        tags: ['sharing'],
        summary: 'Accept (become a secondary user) or decline a node sharing request',
        body: SharingDecisionBodySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      description: await sharing.decideNodeRequest(authOf(request).user.userId, request.body),
    }),
  );

  app.delete(
    '/v1/user/nodes/sharing/requests',
    {
      preValidation: signedIn,
      schema: {
        tags: ['sharing'],
        summary: 'Withdraw a pending node sharing request you sent',
        querystring: SharingRequestIdQuerySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await sharing.withdrawNodeRequest(authOf(request).user.userId, request.query.request_id);
      return { status: 'success' as const, description: SHARING_MESSAGES.requestWithdrawn };
    },
  );

  app.put(
    '/v1/admin/node_group/sharing',
    {
      preValidation: groupAdmin,
      schema: {
        tags: ['sharing'],
        summary: "Offer device groups' notifications to a user, who accepts or declines",
        body: GroupSharingBodySchema,
        response: { 200: SharingResponseSchema },
      },
    },
    async (request) => sharing.shareGroups(authOf(request).user.userId, request.body),
  );

  app.delete(
    '/v1/admin/node_group/sharing',
    {
      preValidation: groupAdmin,
      schema: {
        tags: ['sharing'],
        summary: "End a user's shares of device groups",
        querystring: GroupUnshareQuerySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await sharing.unshareGroups(request.query);
      return { status: 'success' as const, description: SHARING_MESSAGES.groupUnshared };
    },
  );

  app.get(
    '/v1/user/node_group/sharing',
    {
      preValidation: signedIn,
      schema: {
        tags: ['sharing'],
        summary: 'The device groups shared with you',
        response: { 200: SharedGroupListSchema },
      },
    },
    async (request) => ({ groups: await sharing.groupsSharedWith(authOf(request).user.userId) }),
  );

  app.delete(
    '/v1/user/node_group/sharing',
    {
      preValidation: signedIn,
      schema: {
        tags: ['sharing'],
        summary: 'Stop hearing about device groups shared with you',
        querystring: GroupLeaveQuerySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await sharing.leaveGroups(authOf(request).user.userId, request.query.groups);
      return { status: 'success' as const, description: SHARING_MESSAGES.groupUnshared };
    },
  );

  app.get(
    '/v1/user/node_group/sharing/requests',
    {
      preValidation: signedIn,
      schema: {
        tags: ['sharing'],
        summary:
          'Pending group sharing requests you received, or (primary_user=true) those you sent',
        querystring: SharingRequestsQuerySchema,
        response: { 200: GroupSharingRequestListSchema },
      },
    },
    async (request) => {
      const page = await sharing.groupRequests(authOf(request).user.userId, request.query);
      return {
        sharing_requests: page.requests,
        ...(page.next ? { next_request_id: page.next } : {}),
      };
    },
  );

  app.put(
    '/v1/user/node_group/sharing/requests',
    {
      preValidation: signedIn,
      schema: {
        tags: ['sharing'],
        summary: "Accept (hear about the group's nodes) or decline a group sharing request",
        body: SharingDecisionBodySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      description: await sharing.decideGroupRequest(authOf(request).user.userId, request.body),
    }),
  );
};
