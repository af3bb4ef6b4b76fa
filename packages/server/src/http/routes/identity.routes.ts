import {
  API_PATHS,
  AppClientBackupSchema,
  AppClientListSchema,
  CognitoDomainBodySchema,
  CognitoDomainSchema,
  DeleteIdentityProviderBodySchema,
  DeploymentDetailsSchema,
  IdentityProviderBodySchema,
  IdentityProviderListSchema,
  MESSAGES,
  SERVER_MESSAGES,
  SuccessBodySchema,
  UpdateAppClientBodySchema,
  UserPoolQuerySchema,
  userPoolOf,
} from '@fleetdeck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../../services/auth/auth.service.js';
import type { IdentitySettingsService } from '../../services/identity/identity-settings.service.js';
import { requireAuth } from '../plugins/auth.plugin.js';

export interface IdentityRoutesOptions {
  auth: AuthService;
  identity: IdentitySettingsService;
}

const success = (description: string) => ({ status: 'success' as const, description });

/**
 * Deployment Settings, identity side (access §2, A.8): identity providers, app clients, the
 * Cognito domain, the app-client backup and the deployment details. Super admins only (the admin
 * and deployment-settings permissions).
 */
export const identityRoutes: FastifyPluginAsyncZod<IdentityRoutesOptions> = async (
  app,
  { auth, identity },
) => {
  const guard = requireAuth(auth, 'admin', 'settings.deployment');
  const tags = ['deployment settings'];

  app.get(
    API_PATHS.identityProvider,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: "The pool's identity providers (secrets masked)",
        querystring: UserPoolQuerySchema,
        response: { 200: IdentityProviderListSchema },
      },
    },
    async (request) => ({
      identity_providers: await identity.listProviders(
        userPoolOf(request.query.email_mobile_userpool),
      ),
    }),
  );

  for (const [method, mode] of [
    ['POST', 'create'],
    ['PUT', 'edit'],
  ] as const) {
    app.route({
      method,
      url: API_PATHS.identityProvider,
      preValidation: guard,
      schema: {
        tags,
        summary:
          mode === 'create'
            ? 'Configure an identity provider (an existing one of the type is replaced)'
            : 'Edit an identity provider; a left-out or masked secret keeps the stored one',
        querystring: UserPoolQuerySchema,
        body: IdentityProviderBodySchema,
        response: { 200: SuccessBodySchema },
      },
      handler: async (request) => {
        const pool = userPoolOf(request.query.email_mobile_userpool);
        return success(await identity.saveProvider(pool, request.body, mode));
      },
    });
  }

  app.delete(
    API_PATHS.identityProvider,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: 'Remove an identity provider (also from every app client of the pool)',
        querystring: UserPoolQuerySchema,
        body: DeleteIdentityProviderBodySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await identity.deleteProvider(
        userPoolOf(request.query.email_mobile_userpool),
        request.body.provider_type,
      );
      return success(SERVER_MESSAGES.identityProviderDeleted);
    },
  );

  app.get(
    API_PATHS.cognitoAppClient,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: "The pool's app clients (the default one is created on first read)",
        querystring: UserPoolQuerySchema,
        response: { 200: AppClientListSchema },
      },
    },
    async (request) => identity.listAppClients(userPoolOf(request.query.email_mobile_userpool)),
  );

  app.put(
    API_PATHS.cognitoAppClient,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: "Set an app client's callback URLs (the exact redirect allow-list) and providers",
        querystring: UserPoolQuerySchema,
        body: UpdateAppClientBodySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      const { client_id: clientId, callback_urls: urls, providers } = request.body;
      await identity.updateAppClient(
        userPoolOf(request.query.email_mobile_userpool),
        clientId,
        urls,
        providers,
      );
      return success(MESSAGES.cognitoConfigurationsUpdated);
    },
  );

  app.get(
    API_PATHS.cognitoDomain,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: "The pool's domain name (null when none is configured)",
        querystring: UserPoolQuerySchema,
        response: { 200: CognitoDomainSchema },
      },
    },
    async (request) => ({
      domain_name: await identity.domain(userPoolOf(request.query.email_mobile_userpool)),
    }),
  );

  app.post(
    API_PATHS.cognitoDomain,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: 'Set the domain name: lower-case letters, numbers and hyphens, 1 to 63 characters',
        querystring: UserPoolQuerySchema,
        body: CognitoDomainBodySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await identity.setDomain(
        userPoolOf(request.query.email_mobile_userpool),
        request.body.domain_name,
      );
      return success(MESSAGES.cognitoDomainAdded);
    },
  );

  app.delete(
    API_PATHS.cognitoDomain,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: 'Delete the domain name (social sign-in stops until one is set again)',
        querystring: UserPoolQuerySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await identity.deleteDomain(userPoolOf(request.query.email_mobile_userpool));
      return success(MESSAGES.cognitoDomainDeleted);
    },
  );

  app.get(
    API_PATHS.appClientBackup,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: "The backup of the pool's app clients; 404 'No cognito app client backup found'",
        querystring: UserPoolQuerySchema,
        response: { 200: AppClientBackupSchema },
      },
    },
    async (request) => identity.backup(userPoolOf(request.query.email_mobile_userpool)),
  );

  app.put(
    API_PATHS.appClientBackupTake,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: "Back up the pool's app clients (replaces an older backup)",
        querystring: UserPoolQuerySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await identity.takeBackup(userPoolOf(request.query.email_mobile_userpool));
      return success(SERVER_MESSAGES.appClientBackupCreated);
    },
  );

  app.put(
    API_PATHS.appClientBackupRestore,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: "Put the pool's app clients back exactly as the backup holds them",
        querystring: UserPoolQuerySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await identity.restoreBackup(userPoolOf(request.query.email_mobile_userpool));
      return success(SERVER_MESSAGES.appClientBackupRestored);
    },
  );

  app.get(
    API_PATHS.deploymentDetails,
    {
      preValidation: guard,
      schema: {
        tags,
        summary: 'Deployment details of the running configuration (read-only)',
        querystring: UserPoolQuerySchema,
        response: { 200: DeploymentDetailsSchema },
      },
    },
    async (request) => identity.deploymentDetails(userPoolOf(request.query.email_mobile_userpool)),
  );
};
