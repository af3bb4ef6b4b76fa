import {
  DashboardUpdateBodySchema,
  DashboardUpdateCheckSchema,
  DashboardUpdateQuerySchema,
  LicenseFilesSchema,
  LicenseUploadBodySchema,
  SETTINGS_ERROR_CODES,
  SETTINGS_MESSAGES,
  SuccessBodySchema,
  TermsFileSchema,
  TermsLinksSchema,
  TermsPolicyBodySchema,
  TermsPolicyDeleteQuerySchema,
  TermsPolicyPutResponseSchema,
  TermsPolicyQuerySchema,
  TermsPolicySchema,
  TermsPublicQuerySchema,
  UpgradeApisResponseSchema,
  formatMessage,
} from '@fleetdeck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../errors.js';
import type { AuthService } from '../../services/auth/auth.service.js';
import type { DashboardUpdateService } from '../../services/settings/dashboard-update.service.js';
import type { LicenseService } from '../../services/settings/license.service.js';
import { looksLikeHtml, type TermsService } from '../../services/settings/terms.service.js';
import type { UpgradeService } from '../../services/settings/upgrade.service.js';
import { authOf, requireAuth } from '../plugins/auth.plugin.js';

export interface SettingsRoutesOptions {
  auth: AuthService;
  upgrade: UpgradeService;
  terms: TermsService;
  license: LicenseService;
  dashboardUpdate: DashboardUpdateService;
}

/**
 * Served documents are sandboxed: no script runs, nothing loads but inline styles and images, and
 * the page gets an opaque origin, so stored HTML cannot reach the dashboard's cookies or API.
 */
const DOCUMENT_CSP =
  "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; frame-ancestors 'none'";

/**
 * Deployment settings, operations side (ADR 14): Upgrade APIs, Privacy Policy and Terms (admin
 * and public), Licensing Service, and the dashboard update check.
 */
export const settingsRoutes: FastifyPluginAsyncZod<SettingsRoutesOptions> = async (
  app,
  { auth, upgrade, terms, license, dashboardUpdate },
) => {
  const settingsAdmin = requireAuth(auth, 'admin', 'settings.deployment');

  app.put(
    '/v1/admin/update_apigateway',
    {
      preValidation: settingsAdmin,
      schema: {
        tags: ['settings'],
        summary:
          'Upgrade APIs: apply pending database migrations and reload the API configuration on every instance',
        response: { 200: UpgradeApisResponseSchema },
      },
    },
    async () => ({ status: 'success' as const, ...(await upgrade.upgrade()) }),
  );

  app.get(
    '/v1/admin/terms_policy',
    {
      preValidation: settingsAdmin,
      schema: {
        tags: ['settings'],
        summary: 'Privacy Policy and Terms of Use: content and public URL of each (or of one)',
        querystring: TermsPolicyQuerySchema,
        response: { 200: TermsPolicySchema },
      },
    },
    async (request) => terms.get(request.query.file),
  );

  app.put(
    '/v1/admin/terms_policy',
    {
      preValidation: settingsAdmin,
      schema: {
        tags: ['settings'],
        summary: 'Save Privacy Policy and/or Terms of Use (HTML or text) as public files',
        body: TermsPolicyBodySchema,
        response: { 200: TermsPolicyPutResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      description: SETTINGS_MESSAGES.termsSaved,
      ...(await terms.save(request.body)),
    }),
  );

  app.delete(
    '/v1/admin/terms_policy',
    {
      preValidation: settingsAdmin,
      schema: {
        tags: ['settings'],
        summary: 'Delete the Privacy Policy or the Terms of Use',
        querystring: TermsPolicyDeleteQuerySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await terms.delete(request.query.file);
      return { status: 'success' as const, description: SETTINGS_MESSAGES.termsDeleted };
    },
  );

  app.get(
    '/v1/terms_policy',
    {
      schema: {
        tags: ['settings'],
        summary:
          'Public: the links to the Privacy Policy and Terms of Use (null when none); with ?file=, that document too',
        security: [],
        querystring: TermsPublicQuerySchema,
        response: { 200: TermsLinksSchema },
      },
    },
    async (request) => terms.links(request.query.file),
  );

  app.get(
    '/v1/terms_policy/:file',
    {
      schema: {
        tags: ['settings'],
        summary: 'Public: the Privacy Policy or Terms of Use document (sandboxed)',
        security: [],
        params: z.object({ file: TermsFileSchema }),
      },
    },
    async (request, reply) => {
      const stored = await terms.read(request.params.file);
      if (!stored)
        throw notFound(SETTINGS_MESSAGES.termsFileNotFound, SETTINGS_ERROR_CODES.termsFileNotFound);
      return reply
        .header('content-security-policy', DOCUMENT_CSP)
        .header('cache-control', 'no-cache')
        .type(
          looksLikeHtml(stored.content) ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8',
        )
        .send(stored.content);
    },
  );

  app.get(
    '/v1/admin/license_file',
    {
      preValidation: settingsAdmin,
      schema: {
        tags: ['settings'],
        summary: 'The current licence file (file_name, date_modified)',
        response: { 200: LicenseFilesSchema },
      },
    },
    async () => ({ status: 'success' as const, license_files: await license.list() }),
  );

  app.put(
    '/v1/admin/license_file',
    {
      preValidation: settingsAdmin,
      schema: {
        tags: ['settings'],
        summary: 'Upload the licence: a .pem file, base64-encoded; parsed and refused when not PEM',
        body: LicenseUploadBodySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await license.upload(request.body);
      return { status: 'success' as const, description: SETTINGS_MESSAGES.licenseUploaded };
    },
  );

  app.get(
    '/v1/admin/dashboard/update',
    {
      preValidation: requireAuth(auth),
      schema: {
        tags: ['settings'],
        summary: 'Whether the server serves a newer dashboard build than current_version',
        querystring: DashboardUpdateQuerySchema,
        response: { 200: DashboardUpdateCheckSchema },
      },
    },
    async (request) => dashboardUpdate.check(request.query.current_version),
  );

  app.put(
    '/v1/admin/dashboard/update',
    {
      preValidation: requireAuth(auth),
      schema: {
        tags: ['settings'],
        summary:
          'Acknowledge moving the open dashboard to the served build (version must match it)',
        body: DashboardUpdateBodySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await dashboardUpdate.acknowledge(request.body.version, authOf(request).user.userId);
      return {
        status: 'success' as const,
        description: formatMessage(SETTINGS_MESSAGES.dashboardUpdated, {
          version: request.body.version,
        }),
      };
    },
  );
};
