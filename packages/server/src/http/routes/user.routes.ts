import {
  API_PATHS,
  AdminUserSchema,
  CreateUserBodySchema,
  CreateUserResponseSchema,
  CustomDataMapSchema,
  CustomDataQuerySchema,
  CustomDataUpdateSchema,
  DeleteUserQuerySchema,
  MESSAGES,
  SERVER_MESSAGES,
  SelfDeleteQuerySchema,
  SuccessBodySchema,
  UpdateUserBodySchema,
  UserListQuerySchema,
  UserListSchema,
  UserNameQuerySchema,
} from '@fleetdeck/contract';
import type { FastifyRequest, onSendHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../../services/auth/auth.service.js';
import type { UserService } from '../../services/users/user.service.js';
import { authOf, requireAuth } from '../plugins/auth.plugin.js';

export interface UserRoutesOptions {
  auth: AuthService;
  users: UserService;
}

/** The roles a create request asked for, read leniently (the body may have failed validation). */
function requestedRoles(request: FastifyRequest): string {
  const body = request.body as { roles?: unknown } | undefined;
  const roles = Array.isArray(body?.roles) ? body.roles : [];
  return roles.filter((role): role is string => typeof role === 'string').join(',');
}

/**
 * A failed user create carries the requested `role` beside `description` (fleet-management §8:
 * "Create-user failure shows the error's role and description fields").
 */
const addRoleToFailure: onSendHookHandler = (request, reply, payload, done) => {
  if (reply.statusCode < 400 || typeof payload !== 'string') return done(null, payload);
  try {
    const body = JSON.parse(payload) as Record<string, unknown>;
    if (body.status !== 'failure') return done(null, payload);
    done(null, JSON.stringify({ ...body, role: requestedRoles(request) }));
  } catch {
    done(null, payload);
  }
};

/**
 * `admin/user2` (super admins): create with invitation, list, update, two-step delete; custom data.
 * Also the signed-in user's own two-step deletion (DELETE /v1/user2, /v1/user), which shares the
 * deletion code path.
 */
export const userRoutes: FastifyPluginAsyncZod<UserRoutesOptions> = async (
  app,
  { auth, users },
) => {
  app.post(
    '/v1/admin/user2',
    {
      preValidation: requireAuth(auth, 'users.manage'),
      onSend: addRoleToFailure,
      schema: {
        tags: ['users'],
        summary:
          'Create a user with the Add User profile; without a password the user is mailed the INVITE_MESSAGE invitation',
        body: CreateUserBodySchema,
        response: { 201: CreateUserResponseSchema },
      },
    },
    async (request, reply) => {
      const created = await users.create(request.body, authOf(request).user);
      return reply.code(201).send({
        status: 'success' as const,
        description: MESSAGES.userCreated,
        user_id: created.userId,
        invited: created.invited,
      });
    },
  );

  app.get(
    '/v1/admin/user2',
    {
      preValidation: requireAuth(auth, 'users.manage'),
      schema: {
        tags: ['users'],
        summary:
          'Users by user name (keyset: start_id inclusive, next_id = first of the next page); staff only unless all=true',
        querystring: UserListQuerySchema,
        response: { 200: UserListSchema },
      },
    },
    async (request) =>
      users.list({
        limit: request.query.num_records,
        everyone: request.query.all === 'true',
        ...(request.query.user_name !== undefined ? { userName: request.query.user_name } : {}),
        ...(request.query.start_id ? { startId: request.query.start_id } : {}),
      }),
  );

  app.put(
    '/v1/admin/user2',
    {
      preValidation: requireAuth(auth, 'users.manage'),
      schema: {
        tags: ['users'],
        summary: "Update a user's profile fields and roles",
        querystring: UserNameQuerySchema,
        body: UpdateUserBodySchema,
        response: {
          200: SuccessBodySchema.extend({ user: AdminUserSchema }),
        },
      },
    },
    async (request) => {
      const user = await users.update(request.query.user_name, request.body, authOf(request).user);
      return { status: 'success' as const, description: SERVER_MESSAGES.adminUserUpdated, user };
    },
  );

  app.delete(
    '/v1/admin/user2',
    {
      preValidation: requireAuth(auth, 'users.manage'),
      schema: {
        tags: ['users'],
        summary:
          'request=true mails a 6-digit code to the calling admin; then user_name with verification_code deletes the user',
        querystring: DeleteUserQuerySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      const actor = authOf(request).user;
      if (request.query.request === 'true') {
        await users.requestDelete(request.query.user_name, actor);
        return { status: 'success' as const, description: SERVER_MESSAGES.userDeleteCodeSent };
      }
      await users.delete(request.query.user_name, request.query.verification_code, actor);
      return { status: 'success' as const, description: MESSAGES.userDeleted };
    },
  );

  for (const path of [API_PATHS.user, API_PATHS.user2]) {
    app.delete(
      path,
      {
        preValidation: requireAuth(auth, 'user.self'),
        schema: {
          tags: ['accounts'],
          summary:
            "Delete one's own account: request=true mails a 6-digit code to the caller's address; then verification_code deletes the account and ends every session (the last super admin is refused)",
          querystring: SelfDeleteQuerySchema,
          response: { 200: SuccessBodySchema },
        },
      },
      async (request) => {
        const actor = authOf(request).user;
        if (request.query.request === 'true') {
          await users.requestSelfDelete(actor);
          return { status: 'success' as const, description: SERVER_MESSAGES.userDeleteCodeSent };
        }
        await users.deleteSelf(request.query.verification_code, actor);
        return { status: 'success' as const, description: MESSAGES.accountDeleted };
      },
    );
  }

  app.get(
    '/v1/admin/custom_data',
    {
      preValidation: requireAuth(auth, 'users.manage'),
      schema: {
        tags: ['users'],
        summary: "A user's custom data (key → {value}) by user_email, user_name or user_id",
        querystring: CustomDataQuerySchema,
        response: { 200: CustomDataMapSchema },
      },
    },
    async (request) => users.getCustomData(request.query),
  );

  app.put(
    '/v1/admin/custom_data',
    {
      preValidation: requireAuth(auth, 'users.manage'),
      schema: {
        tags: ['users'],
        summary: "Set a user's custom-data entries; value null deletes one (16 KiB per user)",
        querystring: CustomDataQuerySchema,
        body: CustomDataUpdateSchema,
        response: { 200: CustomDataMapSchema },
      },
    },
    async (request) => users.putCustomData(request.query, request.body),
  );
};
