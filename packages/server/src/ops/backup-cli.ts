/**
 * `npm run backup -- <directory>` and `npm run restore -- <directory> [--force]`: a copy of the
 * configured database and blobs, and putting one back (docs/OPERATIONS.md).
 */
import { ConfigError, parseConfig } from '../config/env.js';
import { BackupError, backup, restore } from './backup.js';

const USAGE =
  'Usage: npm run backup -- <new directory>\n       npm run restore -- <backup directory> [--force]';

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  const force = rest.includes('--force');
  const directories = rest.filter((arg) => !arg.startsWith('--'));
  if ((command !== 'backup' && command !== 'restore') || directories.length !== 1)
    throw new BackupError(USAGE);
  const config = parseConfig();
  const target = {
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    externalBlobs: config.s3 !== undefined,
  };
  const directory = directories[0]!;
  if (command === 'backup') {
    const manifest = await backup(target, directory);
    console.log(
      `Backed up the ${manifest.dialect} database${
        manifest.blobs
          ? ` and ${manifest.blobs.files} blob file(s) (${manifest.blobs.bytes} bytes)`
          : ' (blobs are in the S3 bucket: back the bucket up with its own tools)'
      } to ${directory}`,
    );
  } else {
    const manifest = await restore(target, directory, { force });
    console.log(
      `Restored the backup of ${manifest.created_at} into ${
        config.databaseUrl ? 'the configured PostgreSQL database' : config.dataDir
      }. Start the server: it applies any newer migrations.`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError || error instanceof BackupError
      ? error.message
      : `Failed: ${String(error)}`,
  );
  process.exit(1);
});
