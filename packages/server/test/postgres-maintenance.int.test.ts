import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { postgresMaintenanceGaps } from '../src/db/postgres-maintenance.js';
import { DIALECTS, openTestDatabase } from './helpers/test-server.js';

describe.each(DIALECTS)('background maintenance check on %s', (dialect) => {
  let handle: DatabaseHandle;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, cleanup } = await openTestDatabase(dialect));
    await migrateToLatest(handle.db);
  });
  afterAll(async () => {
    await cleanup();
  });

  if (dialect === 'sqlite') {
    it('has nothing to report on SQLite', async () => {
      expect(await postgresMaintenanceGaps(handle.db)).toEqual([]);
    });
    return;
  }

  it("reports the server's autovacuum setting as it is", async () => {
    const { rows } = await sql<{
      setting: string;
    }>`select current_setting('autovacuum') as setting`.execute(handle.db);
    const gaps = await postgresMaintenanceGaps(handle.db);
    expect(gaps.includes('autovacuum = off')).toBe(rows[0]!.setting !== 'on');
  });

  it('names a list table whose autovacuum is turned off, and forgets it once it is back on', async () => {
    await sql`alter table node_group_members set (autovacuum_enabled = off)`.execute(handle.db);
    await sql`alter table nodes set (autovacuum_enabled = false, fillfactor = 90)`.execute(
      handle.db,
    );
    // A table outside the list tables is not the check's business.
    await sql`create table maintenance_other (id integer)`.execute(handle.db);
    await sql`alter table maintenance_other set (autovacuum_enabled = false)`.execute(handle.db);
    const off = await postgresMaintenanceGaps(handle.db);
    expect(off.filter((gap) => gap.includes(':'))).toEqual([
      'node_group_members: autovacuum_enabled = false',
      'nodes: autovacuum_enabled = false',
    ]);
    await sql`alter table nodes reset (autovacuum_enabled)`.execute(handle.db);
    await sql`alter table node_group_members set (autovacuum_enabled = true)`.execute(handle.db);
    const on = await postgresMaintenanceGaps(handle.db);
    expect(on.filter((gap) => gap.includes(':'))).toEqual([]);
  });
});
