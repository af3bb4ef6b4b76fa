import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Dialect } from '../../src/db/database.js';

// The databases tests run on, apart from the in-process app (test-server.ts) so that tests of the
// built server (e2e/) can have a fresh database without loading the server's sources.

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export const DIALECTS: Dialect[] = process.env.TEST_DATABASE_URL
  ? ['sqlite', 'postgres']
  : ['sqlite'];

/** A fresh, empty database of the given dialect, dropped again by `cleanup`. */
export async function createTestDatabase(dialect: Dialect): Promise<{
  env: Record<string, string>;
  cleanup: () => Promise<void>;
}> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-test-'));
  if (dialect === 'sqlite') {
    return {
      env: { DATA_DIR: dataDir },
      cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `fleetdeck_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    cleanup: async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      // A closed pool's connections end asynchronously; killing one that is still saying goodbye
      // makes pg raise an uncaught error, so wait (briefly) until they are gone.
      for (let attempt = 0; attempt < 40; attempt += 1) {
        const { rows } = await client.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
          [name],
        );
        if ((rows[0]?.n ?? 0) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
