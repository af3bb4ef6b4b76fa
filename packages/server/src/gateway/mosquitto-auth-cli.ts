/**
 * `npm run mosquitto:auth -- <dir> [--only-this-account]`: writes Mosquitto's password_file and
 * acl_file for the configured database, with Fleetdeck's own account taken from the user and
 * password of MQTT_URL. The other Fleetdeck accounts already in the files (one per instance of a
 * scale-out) are kept unless `--only-this-account` is given. Re-run after registering nodes, then
 * send Mosquitto SIGHUP to reload them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, parseConfig } from '../config/env.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';
import { writeMosquittoAuthFiles } from './mosquitto-config.js';
import { exportMosquittoAuth, readGatewayAccounts } from './mosquitto-export.js';

function readIfThere(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const onlyThisAccount = args.includes('--only-this-account');
  const dir = args.find((arg) => !arg.startsWith('--'));
  const unknown = args.filter((arg) => arg.startsWith('--') && arg !== '--only-this-account');
  if (!dir || unknown.length)
    throw new Error('usage: npm run mosquitto:auth -- <output directory> [--only-this-account]');
  const config = parseConfig();
  const url = config.mqttUrl ? new URL(config.mqttUrl) : undefined;
  if (!url?.username || !url.password) {
    throw new Error(
      "set MQTT_URL with Fleetdeck's broker account, e.g. mqtt://fleetdeck:<password>@broker:1883",
    );
  }
  const passwordFile = path.resolve(dir, 'password_file');
  const aclFile = path.resolve(dir, 'acl_file');
  const keep = onlyThisAccount
    ? []
    : readGatewayAccounts(readIfThere(passwordFile), readIfThere(aclFile));
  const handle = openDatabase(config);
  try {
    await migrateToLatest(handle.db);
    const files = await exportMosquittoAuth(
      handle.db,
      {
        username: decodeURIComponent(url.username),
        password: decodeURIComponent(url.password),
      },
      keep,
    );
    await writeMosquittoAuthFiles(
      { passwordFilePath: passwordFile, aclFilePath: aclFile },
      { passwordFile: files.passwordFile, aclFile: files.aclFile },
    );
    console.log(
      `Wrote ${passwordFile} (${files.nodes} node(s) + Fleetdeck account(s) ${files.gateways.join(', ')}) and ${aclFile}.`,
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
