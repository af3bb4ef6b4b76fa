import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, migrateUpTo } from '../src/db/migrator.js';
import { DIALECTS, openTestDatabase } from './helpers/test-server.js';

describe.each(DIALECTS)('migration 0017 (group member counts) on %s', (dialect) => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it('counts the members groups already have, and keeps counting after the upgrade', async () => {
    const opened = await openTestDatabase(dialect);
    cleanup = opened.cleanup;
    const db = opened.handle.db;
    await migrateUpTo(db, '0016-sharing-automations');
    const node = (node_id: string) => ({
      node_id,
      name: '',
      fw_version: '1.0.0',
      tags: '[]',
      conn_session: 0,
      type: 'Refrigerator',
      model: 'FD-RF-300',
      credential_hash: 'x',
      secret_key_hash: 'y',
      registered_at: 1,
    });
    await db.insertInto('nodes').values(['M1', 'M2', 'M3'].map(node)).execute();
    const group = (group_id: string) => ({
      group_id,
      group_name: group_id,
      description: '',
      is_automatic: 0 as const,
      created_at: 1,
    });
    await db
      .insertInto('node_groups')
      .values([group('G-A'), group('G-B'), group('G-C')])
      .execute();
    await db
      .insertInto('node_group_members')
      .values([
        { group_id: 'G-A', node_id: 'M1', source: 'manual' },
        { group_id: 'G-A', node_id: 'M2', source: 'manual' },
        { group_id: 'G-A', node_id: 'M3', source: 'filter' },
        { group_id: 'G-B', node_id: 'M2', source: 'manual' },
      ])
      .execute();

    await migrateToLatest(db);
    const counts = async () =>
      Object.fromEntries(
        (await db.selectFrom('node_group_counts').select(['group_id', 'n']).execute()).map(
          (row) => [row.group_id, Number(row.n)],
        ),
      );
    // G-C has no members and no row: a missing row reads as 0.
    expect(await counts()).toEqual({ 'G-A': 3, 'G-B': 1 });
    await db
      .insertInto('node_group_members')
      .values({ group_id: 'G-C', node_id: 'M1', source: 'manual' })
      .execute();
    await db.deleteFrom('node_group_members').where('node_id', '=', 'M2').execute();
    expect(await counts()).toEqual({ 'G-A': 2, 'G-B': 0, 'G-C': 1 });
  });
});
