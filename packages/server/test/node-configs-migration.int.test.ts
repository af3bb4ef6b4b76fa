import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, migrateUpTo } from '../src/db/migrator.js';
import { listNodes } from '../src/repositories/node.repository.js';
import { DIALECTS, openTestDatabase } from './helpers/test-server.js';

const CONFIG = JSON.stringify({
  node_id: 'C1',
  info: { name: 'Kitchen fridge', type: 'Refrigerator' },
});

describe.each(DIALECTS)('migration 0019 (node configs in their own table) on %s', (dialect) => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it('moves every stored config document out of the node rows, and back on the way down', async () => {
    const opened = await openTestDatabase(dialect);
    cleanup = opened.cleanup;
    const db = opened.handle.db;
    await migrateUpTo(db, '0018-node-id-version');
    const node = (node_id: string, config: string | null) => ({
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
      config,
      params: '{"Fridge":{"Temperature":4}}',
    });
    // The table as it was before 0019 (the schema type no longer has the column).
    await sql`insert into nodes ${sql.raw(
      '(node_id, name, fw_version, tags, conn_session, type, model, credential_hash, secret_key_hash, registered_at, config, params)',
    )} values ${sql.join(
      [
        node('C1', CONFIG),
        node('C2', null),
        node('C3', '{"node_id":"C3","info":{"name":"ü, \\"q\\""}}'),
      ].map((row) => sql`(${sql.join(Object.values(row))})`),
    )}`.execute(db);

    await migrateToLatest(db);
    const configs = await db
      .selectFrom('node_configs')
      .select(['node_id', 'config'])
      .orderBy('node_id')
      .execute();
    expect(configs).toEqual([
      { node_id: 'C1', config: CONFIG },
      { node_id: 'C3', config: '{"node_id":"C3","info":{"name":"ü, \\"q\\""}}' },
    ]);
    await expect(sql`select config from nodes`.execute(db)).rejects.toThrow(/config/);
    // A list with documents reads them from their table; the params stay in the row.
    const rows = await listNodes(db, {}, undefined, 10, true);
    expect(rows.map((row) => [row.node_id, row.config, row.params])).toEqual([
      ['C1', CONFIG, '{"Fridge":{"Temperature":4}}'],
      ['C2', null, '{"Fridge":{"Temperature":4}}'],
      ['C3', '{"node_id":"C3","info":{"name":"ü, \\"q\\""}}', '{"Fridge":{"Temperature":4}}'],
    ]);

    await migrateUpTo(db, '0018-node-id-version');
    const restored = await sql<{ node_id: string; config: string | null }>`
      select node_id, config from nodes order by node_id`.execute(db);
    expect(restored.rows).toEqual([
      { node_id: 'C1', config: CONFIG },
      { node_id: 'C2', config: null },
      { node_id: 'C3', config: '{"node_id":"C3","info":{"name":"ü, \\"q\\""}}' },
    ]);
    await expect(sql`select 1 from node_configs`.execute(db)).rejects.toThrow(/node_configs/);
  });
});
