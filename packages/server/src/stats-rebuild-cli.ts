/**
 * `npm run stats:rebuild`: recomputes the statistics event rollups from the source tables,
 * reconciles the levels (ADR 8) and prints what it did. Safe while the server runs.
 */
import { ConfigError, parseConfig } from './config/env.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrator.js';
import { StatsService } from './services/stats/stats.service.js';

async function main(): Promise<void> {
  const config = parseConfig();
  const handle = openDatabase(config);
  try {
    await migrateToLatest(handle.db);
    const report = await new StatsService(handle.db).rebuild();
    const { claimed_nodes: claimed, users_with_nodes: holders } = report.corrections;
    console.log(
      `Statistics rebuilt in ${handle.location}: ${report.eventRows} daily event row(s); ` +
        (claimed === 0 && holders === 0
          ? 'levels agreed with a recount.'
          : `levels corrected today by ${claimed} claimed node(s) and ${holders} user(s) with nodes.`),
    );
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError ? error.message : `Statistics rebuild failed: ${String(error)}`,
  );
  process.exit(1);
});
