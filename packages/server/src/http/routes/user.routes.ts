import { CreateUserBodySchema, CreateUserResponseSchema, MESSAGES } from '@fleetdeck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { forbidden } from '../../errors.js';
import type { AuthService } from '../../services/auth/auth.service.js';
import type { UserService } from '../../services/users/user.service.js';
import { authOf, requireAuth } from '../plugins/auth.plugin.js';

export interface UserRoutesOptions {
  auth: AuthService;
  users: UserService;
}

/** Account creation by super admins. */
export const userRoutes: FastifyPluginAsyncZod<UserRoutesOptions> = async (
  app,
  { auth, users },
) => {
  app.post(
    '/v1/admin/user2',
    {
      preHandler: requireAuth(auth, 'users.manage'),
      schema: {
        tags: ['users'],
        summary: 'Create a user account with roles',
        body: CreateUserBodySchema,
        response: { 201: CreateUserResponseSchema },
      },
    },
    async (request, reply) => {
      // Only a super admin may create another super admin.
      if (request.body.roles.includes('super_admin') && !authOf(request).user.superAdmin)
        throw forbidden();
      const userId = await users.createUser(
        request.body.user_name,
        request.body.password,
        request.body.roles,
      );
      return reply
        .code(201)
        .send({ status: 'success' as const, description: MESSAGES.userCreated, user_id: userId });
    },
  );
};
