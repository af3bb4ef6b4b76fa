import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, migrateUpTo } from '../src/db/migrator.js';
import { readStatusCounters, rebuildCounters } from '../src/repositories/node.repository.js';
import { DIALECTS, openTestDatabase } from './helpers/test-server.js';

describe.each(DIALECTS)('migration 0021 (counters by state and type) on %s', (dialect) => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it('counts the nodes already there by state and type, and drops the counters on the way down', async () => {
    const opened = await openTestDatabase(dialect);
    cleanup = opened.cleanup;
    const db = opened.handle.db;
    await migrateUpTo(db, '0020-diag-metric-points-covering');
    const longType = 'T'.repeat(64);
    const node = (node_id: string, type: string, connected: number | null) => ({
      node_id,
      name: '',
      fw_version: '1.0.0',
      tags: '[]',
      conn_session: 0,
      type,
      model: 'FD-1',
      credential_hash: 'x',
      secret_key_hash: 'y',
      registered_at: 1,
      connected,
    });
    await db
      .insertInto('nodes')
      .values([
        node('S1', 'Refrigerator', 1),
        node('S2', 'Refrigerator', 1),
        node('S3', 'Refrigerator', 0),
        node('S4', 'Washing Machine', null),
        node('S5', longType, null),
      ])
      .execute();
    // The four totals, as the product kept them before 0021.
    await db
      .insertInto('node_counters')
      .values([
        { name: 'total', value: 5 },
        { name: 'online', value: 2 },
        { name: 'offline', value: 1 },
        { name: 'not_activated', value: 2 },
      ])
      .execute();

    await migrateToLatest(db);
    const counters = await readStatusCounters(db);
    expect(counters).toMatchObject({
      'online|Refrigerator': 2,
      'offline|Refrigerator': 1,
      'not_activated|Washing Machine': 1,
      // The longest type fits the widened name column.
      [`not_activated|${longType}`]: 1,
    });
    expect(await rebuildCounters(db)).toEqual(counters);

    await migrateUpTo(db, '0020-diag-metric-points-covering');
    expect(Object.keys(await readStatusCounters(db)).filter((name) => name.includes('|'))).toEqual(
      [],
    );
  });
});
