import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import {
  ERROR_CODES,
  EVENT_STREAMS_PER_USER,
  REFRESH_TOKEN_COOKIE,
  SERVER_MESSAGES,
} from '@fleetdeck/contract';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import helmet from 'helmet';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { AppConfig } from './config/env.js';
import type { DatabaseHandle } from './db/database.js';
import { AppError } from './errors.js';
import {
  clientErrorHandler,
  frameworkErrors,
  registerContentEncodingGuard,
  registerErrorHandler,
} from './http/error-handler.js';
import { registerCsrfGuard } from './http/plugins/auth.plugin.js';
import { authRoutes } from './http/routes/auth.routes.js';
import { groupRoutes } from './http/routes/group.routes.js';
import { nodeRoutes } from './http/routes/node.routes.js';
import { systemRoutes } from './http/routes/system.routes.js';
import { userRoutes } from './http/routes/user.routes.js';
import { templateRoutes } from './http/routes/template.routes.js';
import { TemplateService } from './services/templates/template.service.js';
import { messagingRoutes } from './http/routes/messaging.routes.js';
import { registerWebApp } from './http/web-app.js';
import { blobRoutes } from './http/routes/blob.routes.js';
import { firmwareRoutes } from './http/routes/firmware.routes.js';
import { otaRoutes } from './http/routes/ota.routes.js';
import { statsRoutes } from './http/routes/stats.routes.js';
import { StatsService } from './services/stats/stats.service.js';
import { faultRoutes } from './http/routes/fault.routes.js';
import { FaultService } from './services/faults/fault.service.js';
import { diagnosticsRoutes } from './http/routes/diagnostics.routes.js';
import { DiagnosticsService } from './services/diagnostics/diagnostics.service.js';
import { getOrCreateSecret } from './repositories/secret.repository.js';
import { ImageSigner } from './services/firmware/image-signer.js';
import { ImageService } from './services/firmware/image.service.js';
import { OtaJobService } from './services/ota/ota-job.service.js';
import { RolloutEngine } from './services/ota/rollout-engine.js';
import type { BlobStore } from './storage/blob-store.js';
import { LocalBlobStore } from './storage/local-blob-store.js';
import { registerNulGuard } from './http/nul-guard.js';
import { registerApiCacheControl } from './http/api-cache-control.js';
import { registerSpecPathAliases } from './http/spec-path-aliases.js';
import { UrlSigner } from './storage/signed-url.js';
import type { Logger } from './logger.js';
import {
  AuthService,
  DEFAULT_AUTH_OPTIONS,
  type AuthServiceOptions,
} from './services/auth/auth.service.js';
import { TokenService } from './services/auth/token.service.js';
import { GroupService } from './services/groups/group.service.js';
import { EventStreamRegistry } from './services/nodes/event-stream-registry.js';
import { NodeEvents } from './services/nodes/node-events.js';
import { NodeIngestService } from './services/nodes/node-ingest.service.js';
import { NodeService } from './services/nodes/node.service.js';
import { UserService } from './services/users/user.service.js';
import { MessagingService, type SmsProvider } from './services/messaging/messaging.service.js';
import { VerificationCodes } from './services/messaging/verification-codes.js';
import { accountRoutes } from './http/routes/account.routes.js';
import { AccountService } from './services/accounts/account.service.js';
import { MfaService } from './services/auth/mfa.service.js';
import { identityRoutes } from './http/routes/identity.routes.js';
import { identityOAuthRoutes } from './http/routes/identity-oauth.routes.js';
import { SecretBox } from './services/crypto/secret-box.js';
import { DEFAULT_ISSUERS } from './services/identity/identity-provider-clients.js';
import { IdentitySettingsService } from './services/identity/identity-settings.service.js';
import { SocialSignInService } from './services/identity/social-sign-in.service.js';
import { pushRoutes } from './http/routes/push.routes.js';
import { settingsRoutes } from './http/routes/settings.routes.js';
import { PushService } from './services/push/push.service.js';
import { RoutingSender } from './services/push/routing-sender.js';
import type { DispatcherOptions } from './services/push/push-dispatcher.js';
import { ConfigReloader } from './services/settings/config-reloader.js';
import { DashboardUpdateService } from './services/settings/dashboard-update.service.js';
import { LicenseService } from './services/settings/license.service.js';
import { TermsService } from './services/settings/terms.service.js';
import { UpgradeService } from './services/settings/upgrade.service.js';
import { sharingRoutes } from './http/routes/sharing.routes.js';
import { automationRoutes } from './http/routes/automation.routes.js';
import { SharingService } from './services/sharing/sharing.service.js';
import { AutomationService } from './services/automations/automation.service.js';
import { connectSharedState, type SharedState } from './cluster/shared-state.js';
import { memoryLimiters } from './services/auth/rate-limiter.js';

/** The services one server process runs, shared by HTTP routes, MQTT handlers and jobs. */
export interface Services {
  tokens: TokenService;
  auth: AuthService;
  users: UserService;
  nodes: NodeService;
  nodeEvents: NodeEvents;
  /** The dashboards' open event streams per user, at most EVENT_STREAMS_PER_USER each. */
  eventStreams: EventStreamRegistry;
  /** What the device gateway calls (batched, coalesced writes). */
  ingest: NodeIngestService;
  groups: GroupService;
  /** Firmware files (local disk) and the signer of their URLs. */
  blobStore: BlobStore;
  urlSigner: UrlSigner;
  images: ImageService;
  otaJobs: OtaJobService;
  /** Sends OTA offers once the device gateway is attached (main does it after start-up). */
  rollout: RolloutEngine;
  /** Fleet statistics from the daily rollups. */
  stats: StatsService;
  /** Fault catalogues, insights fault calls, fault device list, breakdown and history. */
  faults: FaultService;
  /** The insights API (device diagnostics) and the diagnostics retention purge. */
  diagnostics: DiagnosticsService;
  /** Mail over SMTP (or the outbox), text messages, per-recipient hourly caps. */
  messaging: MessagingService;
  /** One-time 6-digit codes (sign-up, password reset, MFA, deletion…). */
  codes: VerificationCodes;
  /** Sign-up, password recovery and the user's own settings (phone, MFA). */
  accounts: AccountService;
  /** Second factors: SMS codes, authenticator app, recovery codes, the MFA step of sign-in. */
  mfa: MfaService;
  /** E-mail templates (the invitation) and verified sender addresses. */
  templates: TemplateService;
  /** Identity providers, app clients, domain, backup and deployment details per user pool. */
  identity: IdentitySettingsService;
  /** Social sign-in (OAuth 2.0 / OIDC with PKCE) through the configured providers. */
  social: SocialSignInService;
  /** Reloads configuration caches when the configuration generation moves (ADR 14). */
  configReloader: ConfigReloader;
  /** Upgrade APIs: pending migrations and a configuration reload. */
  upgrade: UpgradeService;
  /** Privacy Policy and Terms of Use in the blob store. */
  terms: TermsService;
  /** The licence (.pem) file. */
  license: LicenseService;
  /** Whether the open dashboard is older than the served web build. */
  dashboardUpdate: DashboardUpdateService;
  /** Push switches, platforms, devices, and fleet events turned into notifications. */
  push: PushService;
  /** Node sharing between users and device-group sharing with users (ADR 14). */
  sharing: SharingService;
  /** End users' node automations, evaluated after ingest commits (ADR 14). */
  automations: AutomationService;
  /** Limits and live updates shared with other instances through Redis (REDIS_URL, ADR 38). */
  shared: SharedState | undefined;
}

/** Builds the services over an open, migrated database. */
export async function createServices(
  config: AppConfig,
  database: DatabaseHandle,
  logger: Logger,
  authOptions: Partial<AuthServiceOptions> = {},
  extras: { sms?: SmsProvider; push?: Partial<DispatcherOptions>; redisNamespace?: string } = {},
): Promise<Services> {
  const nodeEvents = new NodeEvents();
  const shared = config.redisUrl
    ? await connectSharedState(
        config.redisUrl,
        nodeEvents,
        logger,
        extras.redisNamespace ?? config.redisKeyPrefix,
      )
    : undefined;
  const limiters = shared?.limiters ?? memoryLimiters;
  const tokens = await TokenService.create(
    database.db,
    config.publicUrl,
    config.accessTokenTtlSeconds,
  );
  const auth = new AuthService(database.db, tokens, {
    ...DEFAULT_AUTH_OPTIONS,
    limiters,
    ...authOptions,
  });
  const nodes = new NodeService(database.db);
  const ingest = new NodeIngestService(database.db, nodes, nodeEvents, logger);
  const urlKey = await getOrCreateSecret(
    database.db,
    'blob_url_key',
    () => Promise.resolve(randomBytes(32).toString('base64')),
    Math.floor(Date.now() / 1000),
  );
  const urlSigner = new UrlSigner(Buffer.from(urlKey, 'base64'));
  // S3_BUCKET selects an S3-compatible store; the SDK is loaded only then (it is large).
  const blobStore: BlobStore = config.s3
    ? new (await import('./storage/s3-blob-store.js')).S3BlobStore(config.s3)
    : new LocalBlobStore(config.dataDir, config.publicUrl, urlSigner);
  const images = new ImageService(
    database.db,
    blobStore,
    await ImageSigner.create(database.db),
    config.otaImageMaxBytes,
  );
  const otaJobs = new OtaJobService(database.db);
  const rollout = new RolloutEngine(database.db, images, nodeEvents, logger);
  otaJobs.setListener(rollout);
  ingest.onOtaFetch((nodeId, payload, receivedAt) => rollout.otaFetch(nodeId, payload, receivedAt));
  const identity = new IdentitySettingsService(
    database.db,
    await SecretBox.create(database.db),
    config,
    readVersion(),
  );
  const configReloader = new ConfigReloader(database.db, logger, config.configPollSeconds * 1000);
  const groups = new GroupService(database.db);
  const push = new PushService(
    database.db,
    await SecretBox.create(database.db),
    configReloader,
    new RoutingSender({
      fcm: { apiUrl: config.push.fcmApiUrl, tokenUrl: config.push.fcmTokenUrl },
      apns: {
        productionUrl: config.push.apnsUrl,
        sandboxUrl: config.push.apnsSandboxUrl,
        ca: config.push.caFile ? fs.readFileSync(config.push.caFile, 'utf8') : undefined,
      },
    }),
    logger,
    extras.push,
  );
  // Fleet events reach push notifications after commit (ingest, mapping removal, groups).
  push.attach(nodeEvents);
  nodes.setEvents(nodeEvents);
  groups.setEvents(nodeEvents);
  // Automations hear committed params of the nodes they watch; sharing tells push on accept.
  const automations = new AutomationService(database.db, configReloader, logger);
  automations.setEvents(nodeEvents);
  ingest.setParamsWatcher(automations);
  const sharing = new SharingService(database.db, automations);
  sharing.setEvents(nodeEvents);
  if (shared) {
    // Revocations and configuration changes reach the other instances' caches at once (ADR 38).
    auth.setPeers((forgotten) => shared.announce({ kind: 'forget-tokens', ...forgotten }));
    configReloader.setPeers(() => shared.announce({ kind: 'config-changed' }));
    shared.onNotice((notice) => {
      if (notice.kind === 'forget-tokens') auth.forgetFromPeer(notice);
      else void configReloader.poll();
    });
  }
  await configReloader.start();
  const messaging = new MessagingService(database.db, logger, {
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    sendsPerHour: config.mail.sendsPerHour,
    ...(extras.sms ? { sms: extras.sms } : {}),
  });
  const codes = await VerificationCodes.create(database.db);
  const mfa = new MfaService(database.db, await SecretBox.create(database.db), messaging, codes, {
    issuer: 'Fleetdeck',
    clock: authOptions.clock ?? Date.now,
    limiters,
  });
  auth.attachMfa(mfa);
  const accounts = new AccountService(database.db, auth, messaging, codes, logger, {
    deploymentMode: config.deploymentMode,
    publicUrl: config.publicUrl,
    requestsPerAddressPerHour: Math.min(5, config.mail.sendsPerHour),
    clock: authOptions.clock ?? Date.now,
    limiters,
  });
  const templates = new TemplateService(database.db, messaging, codes, {
    mailFrom: config.mail.from,
  });
  return {
    tokens,
    auth,
    users: new UserService(database.db, {
      auth,
      messaging,
      codes,
      templates,
      publicUrl: config.publicUrl,
    }),
    nodes,
    nodeEvents,
    eventStreams: new EventStreamRegistry(EVENT_STREAMS_PER_USER),
    ingest,
    groups,
    blobStore,
    urlSigner,
    images,
    otaJobs,
    rollout,
    stats: new StatsService(database.db),
    faults: new FaultService(database.db),
    diagnostics: new DiagnosticsService(
      database.db,
      config.publicUrl,
      config.diagnosticsRetentionDays,
    ),
    messaging,
    codes,
    accounts,
    mfa,
    templates,
    identity,
    social: new SocialSignInService(database.db, identity, auth, config, logger),
    configReloader,
    upgrade: new UpgradeService(database.db, configReloader),
    terms: new TermsService(database.db, blobStore, config.publicUrl),
    license: new LicenseService(database.db),
    dashboardUpdate: new DashboardUpdateService(database.db, config.webDistDir),
    push,
    sharing,
    automations,
    shared,
  };
}

/**
 * A connection that sends and receives nothing this long is closed, whatever it is in: a client
 * gone away mid-upload was otherwise held for good (Fastify turns Node's timeouts off), with its
 * request and, for an upload, the object store's multipart upload. Longer than any wait a request
 * has on purpose (SMTP 40 s, S3 about 40 s, event-stream pings every 25 s); headers must arrive
 * within Node's headersTimeout (60 s, checked every 30 s). No whole-request cap: a large image
 * upload over a slow link may take many minutes.
 */
export const HTTP_IDLE_TIMEOUT_MS = 60_000;

export interface BuildAppOptions {
  config: AppConfig;
  database: DatabaseHandle;
  services: Services;
  logger: Logger;
  /** Readiness: main sets `done` after start-up; in-process tests are ready at once. */
  startup?: { done: boolean };
  /** Per-IP cap on sign-in requests per minute. */
  loginRequestsPerMinute?: number;
}

function readVersion(): string {
  try {
    const file = path.resolve(import.meta.dirname, '../package.json');
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** Creates the HTTP app (it does not listen): API, OpenAPI document and the SPA. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database, services, logger } = options;
  // Widen pino's type to Fastify's logger interface so plugins type-check against the default.
  const loggerInstance: FastifyBaseLogger = logger;
  const app = Fastify({
    loggerInstance,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    connectionTimeout: HTTP_IDLE_TIMEOUT_MS,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    frameworkErrors,
    clientErrorHandler,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerContentEncodingGuard(app);
  registerNulGuard(app);
  registerApiCacheControl(app);

  // Security headers on every answer. The middleware is built once here: @fastify/helmet built it
  // again (re-parsing the policy) on every request, ~4 % of a node-list page's CPU (B6).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        // Uploads go straight to an object store when one is configured.
        connectSrc: [
          "'self'",
          ...(services.blobStore.externalOrigin ? [services.blobStore.externalOrigin] : []),
        ],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: config.secureCookies ? [] : null,
      },
    },
    strictTransportSecurity: config.secureCookies,
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    // Helmet throws on a bad configuration (at build time above) and never passes an error here.
    securityHeaders(request.raw, reply.raw, () => done());
  });
  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, {
    global: false,
    // With REDIS_URL the per-minute caps count across instances; a Redis outage lets requests
    // through here (the sign-in windows still refuse them, ADR 38).
    ...(services.shared
      ? {
          redis: services.shared.redis,
          nameSpace: `${services.shared.namespace}rate:`,
          skipOnError: true,
        }
      : {}),
    errorResponseBuilder: () =>
      new AppError(429, ERROR_CODES.tooManyRequests, SERVER_MESSAGES.tooManyRequests),
  });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Fleetdeck API',
        description:
          'RainMaker-compatible API of Fleetdeck. Failures answer {"status":"failure","description","error_code"}.',
        version: readVersion(),
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          AccessToken: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'The raw access token from login',
          },
          RefreshCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: REFRESH_TOKEN_COOKIE,
            description: 'The HttpOnly refresh-token cookie a browser sign-in sets',
          },
        },
      },
      security: [{ AccessToken: [] }],
    },
    transform: jsonSchemaTransform,
  });

  // Apple returns social sign-ins as a form POST from its own origin (no cookies ride along).
  registerCsrfGuard(app, [new URL(config.publicUrl).origin, DEFAULT_ISSUERS.SignInWithApple]);

  registerSpecPathAliases(app);

  await app.register(systemRoutes, {
    config,
    database,
    version: readVersion(),
    startup: options.startup ?? { done: true },
    socialProviders: () => services.identity.availableProviders(),
  });
  await app.register(authRoutes, {
    config,
    auth: services.auth,
    accounts: services.accounts,
    loginRateLimit: { max: options.loginRequestsPerMinute ?? 60, timeWindow: 60_000 },
  });
  await app.register(accountRoutes, {
    auth: services.auth,
    accounts: services.accounts,
    mfa: services.mfa,
    publicRateLimit: { max: options.loginRequestsPerMinute ?? 60, timeWindow: 60_000 },
  });
  await app.register(userRoutes, { auth: services.auth, users: services.users });
  await app.register(templateRoutes, { auth: services.auth, templates: services.templates });
  await app.register(messagingRoutes, { auth: services.auth, messaging: services.messaging });
  await app.register(nodeRoutes, {
    auth: services.auth,
    nodes: services.nodes,
    events: services.nodeEvents,
    eventStreams: services.eventStreams,
  });
  await app.register(groupRoutes, { auth: services.auth, groups: services.groups });
  await app.register(firmwareRoutes, { auth: services.auth, images: services.images });
  await app.register(otaRoutes, { auth: services.auth, jobs: services.otaJobs });
  await app.register(statsRoutes, { auth: services.auth, stats: services.stats });
  await app.register(faultRoutes, { auth: services.auth, faults: services.faults });
  await app.register(diagnosticsRoutes, {
    auth: services.auth,
    diagnostics: services.diagnostics,
  });
  await app.register(blobRoutes, {
    store: services.blobStore,
    signer: services.urlSigner,
    images: services.images,
  });
  await app.register(identityRoutes, { auth: services.auth, identity: services.identity });
  await app.register(identityOAuthRoutes, {
    config,
    social: services.social,
    rateLimit: { max: options.loginRequestsPerMinute ?? 60, timeWindow: 60_000 },
  });
  await app.register(settingsRoutes, {
    auth: services.auth,
    upgrade: services.upgrade,
    terms: services.terms,
    license: services.license,
    dashboardUpdate: services.dashboardUpdate,
  });
  await app.register(pushRoutes, { auth: services.auth, push: services.push });
  await app.register(sharingRoutes, { auth: services.auth, sharing: services.sharing });
  await app.register(automationRoutes, { auth: services.auth, automations: services.automations });
  app.addHook('onClose', async () => {
    await services.configReloader.stop();
    await services.push.stop();
    await services.automations.stop();
    await services.shared?.close();
  });
  await registerWebApp(app, config.webDistDir, config.deploymentMode);
  return app;
}
