/**
 * `npm start` entry: parse configuration, open and migrate the database, create the first super
 * admin on an empty database, start the device broker and the HTTP server, and shut down cleanly.
 */
import { SharedStateConnectError } from './cluster/shared-state.js';
import { ConfigError, parseConfig, scaleOutGaps, type AppConfig } from './config/env.js';
import { buildApp, createServices } from './app.js';
import type { FastifyInstance } from 'fastify';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { BASIC_INGEST_LOCK, contendForLeadership } from './db/leadership.js';
import { migrateToLatest } from './db/migrator.js';
import { MAINTENANCE_OFF_WARNING, postgresMaintenanceGaps } from './db/postgres-maintenance.js';
import type { Services } from './app.js';
import { startBrokerThread } from './gateway/broker-thread.js';
import { startExternalGateway } from './gateway/external-gateway.js';
import type { NodeGateway } from './gateway/node-gateway.js';
import { createLogger, type Logger } from './logger.js';
import { missingNodeFlags } from './runtime-flags.js';
import { syncRolesFromContract } from './repositories/role.repository.js';
import { bootstrapFirstSuperAdmin, type BootstrapResult } from './services/auth/bootstrap-admin.js';

const SHUTDOWN_DEADLINE_MS = 20_000;
/**
 * Requests still open this long into a shutdown have their connections closed, so the rest of
 * the shutdown (broker, pending ingest, database) runs before the deadline. Before, one client
 * stalled in a request body held app.close() until the deadline ended the process with exit 1.
 */
const REQUEST_GRACE_MS = 10_000;

function fail(line: string): never {
  console.error(`fleetdeck: ${line}`);
  process.exit(1);
}

function isAddressInUse(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === 'EADDRINUSE'
  );
}

function printFirstStart(result: BootstrapResult, config: AppConfig): void {
  const lines = [
    'First start: created the super admin account.',
    `  Sign in at ${config.publicUrl}/login`,
    `  User name: ${result.userName}`,
    result.generatedPassword
      ? `  Password:  ${result.generatedPassword}   (shown only this once: change it after signing in)`
      : '  Password:  the value of FLEETDECK_ADMIN_PASSWORD',
  ];
  const width = Math.max(...lines.map((line) => line.length)) + 2;
  console.log(['', '='.repeat(width), ...lines, '='.repeat(width), ''].join('\n'));
}

/**
 * Installed first thing, so a SIGTERM at any moment of start-up or service stops cleanly:
 * in-flight requests finish, the broker closes, the database closes, then exit 0. Returns the
 * same stop for a part that failed for good (exit code 1, so a supervisor restarts the server).
 */
function installShutdown(
  logger: Logger,
  running: {
    app?: FastifyInstance;
    broker?: NodeGateway;
    services?: Services;
    database?: DatabaseHandle;
  },
): (reason: string, exitCode: number) => void {
  let stopping = false;
  const shutdown = (reason: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason, exitCode }, 'shutting down');
    const deadline = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    void (async () => {
      const cut = setTimeout(() => {
        logger.warn('requests still open after 10 s of shutdown: closing their connections');
        running.app?.server.closeAllConnections();
      }, REQUEST_GRACE_MS);
      await running.app?.close();
      clearTimeout(cut);
      await running.services?.rollout.stop();
      await running.broker?.close();
      await running.services?.ingest.flush();
      await running.database?.close();
      process.exit(exitCode);
    })();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  return shutdown;
}

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = parseConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const running: {
    app?: FastifyInstance;
    broker?: NodeGateway;
    services?: Services;
    database?: DatabaseHandle;
  } = {};
  const shutdown = installShutdown(logger, running);
  const database = openDatabase(
    {
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      onConnectionError: (error) =>
        logger.warn(
          { err: error },
          'a PostgreSQL connection closed; requests use new connections (and answer 503 while the database cannot be reached)',
        ),
    },
    (error) =>
      logger.warn(
        { err: error },
        'the background WAL checkpointer stopped; SQLite checkpoints on the main connection again',
      ),
    (error) => {
      if (error) logger.warn({ err: error }, 'SQLite checkpoints are failing; retrying');
      else logger.warn('SQLite checkpoints work again');
    },
  );
  running.database = database;
  const applied = await migrateToLatest(database.db);
  if (applied.length) logger.info({ applied }, 'database migrated');
  const maintenanceGaps = await postgresMaintenanceGaps(database.db);
  if (maintenanceGaps.length) logger.warn({ gaps: maintenanceGaps }, MAINTENANCE_OFF_WARNING);
  const scaleOut = scaleOutGaps(config);
  if (scaleOut.length)
    logger.warn(
      { gaps: scaleOut },
      'REDIS_URL is set for several instances, but they will not agree',
    );
  await syncRolesFromContract(database.db);

  const services = await createServices(config, database, logger).catch(async (error: unknown) => {
    if (!(error instanceof SharedStateConnectError)) throw error;
    await database.close();
    return fail(error.message);
  });
  running.services = services;
  // Mapping requests the node never confirmed are kept as timed out (counted by statistics).
  const mappingExpiry = setInterval(() => {
    services.nodes
      .expireMappingRequests()
      .catch((error: unknown) => logger.error({ err: error }, 'mapping expiry failed'));
  }, 30_000);
  mappingExpiry.unref();
  // End-of-day online/offline levels for the statistics: rewritten for today every few minutes,
  // so the last run of each UTC day is that day's snapshot (idempotent per day; ADR 8).
  const statsSnapshot = setInterval(() => {
    services.stats
      .snapshotConnectivity()
      .catch((error: unknown) => logger.error({ err: error }, 'statistics snapshot failed'));
  }, 5 * 60_000);
  statsSnapshot.unref();

  // Upload URLs that never became images are removed with their files.
  const uploadPurge = setInterval(() => {
    services.images
      .purgeStaleUploads()
      .catch((error: unknown) => logger.error({ err: error }, 'upload purge failed'));
  }, 15 * 60_000);
  uploadPurge.unref();
  // Diagnostics older than DIAG_RETENTION_DAYS go in small batches (never one long delete).
  const diagnosticsPurge = setInterval(() => {
    services.diagnostics
      .purgeExpired()
      .catch((error: unknown) => logger.error({ err: error }, 'diagnostics purge failed'));
  }, 60 * 60_000);
  diagnosticsPurge.unref();

  const startup = { done: false };
  const app = await buildApp({ config, database, services, logger, startup });
  running.app = app;
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await database.close();
    if (isAddressInUse(error))
      fail(
        `HTTP port ${config.port} is already in use: set PORT to a free port (e.g. PORT=8081 npm start).`,
      );
    throw error;
  }

  // Devices are let in last, once the process has nothing else to set up: a listener that is open
  // while start-up still holds the event loop fills the kernel's accept queue in a reconnect storm,
  // and every node whose SYN is then dropped waits 1, 3, 7, 15 s… before trying again (B3).
  let broker: NodeGateway | undefined;
  let brokerPort: number | undefined;
  if (!config.mqttUrl) {
    // Session numbers start again at 1 with the embedded broker: nobody is connected yet.
    await services.ingest.resetConnectivity(Date.now());
    try {
      // The broker has a thread of its own, so a flood of device traffic does not hold up the API
      // and the timers of this thread (ADR 23).
      const embedded = await startBrokerThread(
        config.mqttPort,
        config.host,
        services.ingest,
        logger,
        { onFailure: () => shutdown('the MQTT broker thread stopped', 1) },
      );
      broker = embedded;
      brokerPort = embedded.port;
      services.identity.setBrokerPort(embedded.port);
      running.broker = broker;
    } catch (error) {
      await app.close();
      await database.close();
      if (isAddressInUse(error)) {
        fail(
          `MQTT port ${config.mqttPort} is already in use (another MQTT broker?): set MQTT_PORT to a free port, or MQTT_URL to use that broker.`,
        );
      }
      throw error;
    }
  } else {
    try {
      broker = await startExternalGateway(config.mqttUrl, services.ingest, logger, {
        sessionExpirySeconds: config.mqttSessionExpirySeconds,
        // One instance takes the `$aws/rules/…` topics, which cannot be shared (ADR 39).
        leadership: contendForLeadership(config.databaseUrl, BASIC_INGEST_LOCK, logger, {
          name: 'basic-ingest',
        }),
      });
      running.broker = broker;
    } catch (error) {
      await app.close();
      await database.close();
      fail(`MQTT broker: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  if (broker) await services.rollout.attachGateway(broker);
  // Automation actions set params on nodes through the same gateway.
  if (broker) services.automations.attachGateway(broker);

  // The first super admin is created only once both ports are ours, so a generated password is
  // never lost to a start that fails on a busy port.
  const firstStart = await bootstrapFirstSuperAdmin(database.db, {
    email: config.adminEmail,
    password: config.adminPassword,
  }).catch(async (error: unknown) => {
    await app.close();
    await broker?.close();
    await database.close();
    return fail(error instanceof Error ? error.message : String(error));
  });

  startup.done = true;
  logger.info(
    {
      url: config.publicUrl,
      database: database.dialect,
      mqtt: config.mqttUrl ?? `embedded broker on port ${brokerPort}`,
    },
    'fleetdeck started',
  );
  const missingFlags = missingNodeFlags(process.execArgv, process.env.NODE_OPTIONS);
  if (missingFlags.length > 0)
    logger.info(
      { missing: missingFlags },
      `started without the Node flags ${missingFlags.join(' ')}, which npm start passes: ingest and list pages spend more time collecting garbage without them`,
    );
  console.log(
    `Fleetdeck is running at ${config.publicUrl} (database: ${database.location}; MQTT: ${config.mqttUrl ?? `embedded broker on port ${brokerPort}`})`,
  );
  if (firstStart) printFirstStart(firstStart, config);
}

main().catch((error: unknown) => {
  console.error('fleetdeck: failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
