/** `npm run db:migrate`: applies pending migrations to the configured database and exits. */
import { ConfigError, parseConfig } from '../config/env.js';
import { openDatabase } from './database.js';
import { migrateToLatest } from './migrator.js';

async function main(): Promise<void> {
  const config = parseConfig();
  const handle = openDatabase(config);
  try {
    const applied = await migrateToLatest(handle.db);
    console.log(
      applied.length
        ? `Applied ${applied.length} migration(s) to ${handle.location}: ${applied.join(', ')}`
        : `Database ${handle.location} is up to date.`,
    );
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError ? error.message : `Migration failed: ${String(error)}`,
  );
  process.exit(1);
});
