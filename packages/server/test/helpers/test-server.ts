import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, createServices, type Services } from '../../src/app.js';
import type { SmsProvider } from '../../src/services/messaging/messaging.service.js';
import { parseConfig, type AppConfig } from '../../src/config/env.js';
import { openDatabase, type DatabaseHandle, type Dialect } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { syncRolesFromContract } from '../../src/repositories/role.repository.js';
import { bootstrapFirstSuperAdmin } from '../../src/services/auth/bootstrap-admin.js';
import type { AuthServiceOptions } from '../../src/services/auth/auth.service.js';
import { createTestDatabase } from './test-database.js';

export { DIALECTS, createTestDatabase } from './test-database.js';

export const ADMIN_EMAIL = 'root@fleetdeck.test';
export const ADMIN_PASSWORD = 'Ops-Console-2031';

/** A fresh, empty test database of the dialect, opened (no migrations); close, then clean up. */
export async function openTestDatabase(
  dialect: Dialect,
): Promise<{ handle: DatabaseHandle; cleanup: () => Promise<void> }> {
  const created = await createTestDatabase(dialect);
  const handle = openDatabase({
    databaseUrl: created.env.DATABASE_URL,
    dataDir: created.env.DATA_DIR!,
  });
  return {
    handle,
    cleanup: async () => {
      await handle.close();
      await created.cleanup();
    },
  };
}

export interface TestServer {
  app: FastifyInstance;
  config: AppConfig;
  database: DatabaseHandle;
  services: Services;
  close: () => Promise<void>;
}

/** A migrated database with the first super admin and an in-process app (no listen). */
export async function createTestServer(
  dialect: Dialect,
  options: {
    env?: Record<string, string>;
    auth?: Partial<AuthServiceOptions>;
    loginRequestsPerMinute?: number;
    /** A text-message provider (the one outside service tests stand in for). */
    sms?: SmsProvider;
    /** A second instance: runs on the database of `server` (which removes it when it closes). */
    sameDatabaseAs?: TestServer;
    /** With REDIS_URL in `env`: the run's own key prefix, shared by its instances. */
    redisNamespace?: string;
    /** The app's logger (default: silent, or TEST_LOG_LEVEL). */
    logger?: Logger;
  } = {},
): Promise<TestServer> {
  const shared = options.sameDatabaseAs;
  const testDb = shared
    ? {
        env: {
          DATA_DIR: shared.config.dataDir,
          ...(shared.config.databaseUrl ? { DATABASE_URL: shared.config.databaseUrl } : {}),
        },
        cleanup: () => Promise.resolve(),
      }
    : await createTestDatabase(dialect);
  const config = parseConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://fleetdeck.test',
    WEB_DIST_DIR: path.join(testDb.env.DATA_DIR ?? os.tmpdir(), 'no-web-build'),
    ...testDb.env,
    ...options.env,
  });
  const database = openDatabase(config);
  if (!shared) {
    await migrateToLatest(database.db);
    await syncRolesFromContract(database.db);
    await bootstrapFirstSuperAdmin(database.db, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  }
  const logger = options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const services = await createServices(config, database, logger, options.auth, {
    ...(options.sms ? { sms: options.sms } : {}),
    ...(options.redisNamespace ? { redisNamespace: options.redisNamespace } : {}),
  }).catch(async (error: unknown) => {
    await database.close();
    await testDb.cleanup();
    throw error;
  });
  const app = await buildApp({
    config,
    database,
    services,
    logger,
    loginRequestsPerMinute: options.loginRequestsPerMinute ?? 1000,
  });
  await app.ready();
  return {
    app,
    config,
    database,
    services,
    close: async () => {
      await app.close();
      await database.close();
      await testDb.cleanup();
    },
  };
}

/** The cookies a response sets, by name, with their attributes. */
export function cookiesOf(
  response: LightMyRequestResponse,
): Map<string, { value: string; attributes: string }> {
  const header = response.headers['set-cookie'];
  const list = Array.isArray(header) ? header : header ? [header] : [];
  const result = new Map<string, { value: string; attributes: string }>();
  for (const line of list) {
    const [pair = '', ...rest] = line.split(';');
    const index = pair.indexOf('=');
    result.set(pair.slice(0, index).trim(), {
      value: decodeURIComponent(pair.slice(index + 1)),
      attributes: rest.join(';'),
    });
  }
  return result;
}

/** Signs in as an API client and returns the tokens of the body. */
export async function apiLogin(
  app: FastifyInstance,
  userName = ADMIN_EMAIL,
  password = ADMIN_PASSWORD,
): Promise<{ accesstoken: string; refreshtoken: string; idtoken: string; expires_at: number }> {
  const response = await app.inject({
    method: 'POST',
    url: '/v1/login',
    payload: { user_name: userName, password },
  });
  if (response.statusCode !== 200)
    throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** Signs in as the SPA would; returns the cookie header to send back. */
export async function browserLogin(
  app: FastifyInstance,
  userName = ADMIN_EMAIL,
  password = ADMIN_PASSWORD,
): Promise<{
  cookieHeader: string;
  cookies: Map<string, { value: string; attributes: string }>;
  body: Record<string, unknown>;
}> {
  const response = await app.inject({
    method: 'POST',
    url: '/v1/login',
    headers: { 'x-fleetdeck-csrf': 'web' },
    payload: { user_name: userName, password },
  });
  if (response.statusCode !== 200)
    throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  const cookies = cookiesOf(response);
  const cookieHeader = [...cookies.entries()]
    .map(([name, c]) => `${name}=${encodeURIComponent(c.value)}`)
    .join('; ');
  return { cookieHeader, cookies, body: response.json() };
}
