/**
 * `npm run mosquitto:auth -- <dir>`: writes Mosquitto's password_file and acl_file for the
 * configured database, with Fleetdeck's own account taken from the user and password of MQTT_URL.
 * Re-run after registering nodes, then send Mosquitto SIGHUP to reload them.
 */
import path from 'node:path';
import { ConfigError, parseConfig } from '../config/env.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';
import { writeMosquittoAuthFiles } from './mosquitto-config.js';
import { exportMosquittoAuth } from './mosquitto-export.js';

async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: npm run mosquitto:auth -- <output directory>');
  const config = parseConfig();
  const url = config.mqttUrl ? new URL(config.mqttUrl) : undefined;
  if (!url?.username || !url.password) {
    throw new Error(
      "set MQTT_URL with Fleetdeck's broker account, e.g. mqtt://fleetdeck:<password>@broker:1883",
    );
  }
  const handle = openDatabase(config);
  try {
    await migrateToLatest(handle.db);
    const files = await exportMosquittoAuth(handle.db, {
      username: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
    });
    const passwordFile = path.resolve(dir, 'password_file');
    const aclFile = path.resolve(dir, 'acl_file');
    await writeMosquittoAuthFiles(
      { passwordFilePath: passwordFile, aclFilePath: aclFile },
      { passwordFile: files.passwordFile, aclFile: files.aclFile },
    );
    console.log(
      `Wrote ${passwordFile} (${files.nodes} node(s) + the Fleetdeck account) and ${aclFile}.`,
    );
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  console.error(
    `fleetdeck: ${error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
