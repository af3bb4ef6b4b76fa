import type { NodeRegistration } from '@fleetdeck/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chunkPlan,
  selectNodesForIngest,
  updateNodesForIngest,
  upsertNodeConfigs,
} from '../src/repositories/node-batch.repository.js';
import { DIALECTS, createTestServer, type TestServer } from './helpers/test-server.js';

const NODE_COUNT = 600;
const nodeId = (index: number) => `nb-${String(index).padStart(4, '0')}`;

describe('chunkPlan', () => {
  it('covers every item once, in order, with padded sizes from the fixed list', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }), (count) => {
        const plan = chunkPlan(count);
        let next = 0;
        for (const { start, length, size } of plan) {
          expect(start).toBe(next);
          expect(length).toBeGreaterThan(0);
          expect(size).toBeGreaterThanOrEqual(length);
          expect([1, 8, 32, 128, 256]).toContain(size);
          next += length;
        }
        expect(next).toBe(count);
      }),
    );
  });
});

describe.each(DIALECTS)('node batch statements on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer(dialect);
    const registrations: NodeRegistration[] = Array.from({ length: NODE_COUNT }, (_, index) => ({
      node_id: nodeId(index),
      type: 'Refrigerator',
      model: 'FD-NB1',
      fw_version: '1.0.0',
      tags: [`esp.serial_num:NB${index}`],
    }));
    await server.services.nodes.register(registrations);
  });
  afterAll(async () => {
    await server.close();
  });

  it('reads exactly the asked nodes, with params only when asked, across chunk sizes', async () => {
    const db = server.database.db;
    for (const count of [1, 2, 9, 33, 257, 300]) {
      const ids = Array.from({ length: count }, (_, index) => nodeId((index * 7) % NODE_COUNT));
      ids.push('nb-unknown');
      const rows = await selectNodesForIngest(db, ids, count % 2 === 0);
      expect([...rows.keys()].sort()).toEqual(
        [...new Set(ids)].filter((id) => id !== 'nb-unknown').sort(),
      );
      const row = rows.get(ids[0]!)!;
      expect(row).toMatchObject({ type: 'Refrigerator', model: 'FD-NB1', conn_session: 0 });
      expect('params' in row).toBe(count % 2 === 0);
    }
  });

  it('writes every node its own columns, whatever the mix and the count (property-based)', async () => {
    const db = server.database.db;
    const update = fc.record(
      {
        connected: fc.constantFrom(0, 1),
        conn_session: fc.integer({ min: 0, max: 2 ** 40 }),
        conn_changed_at: fc.integer({ min: 0, max: 2 ** 42 }),
        params: fc.json(),
        params_updated_at: fc.integer({ min: 0, max: 2 ** 31 }),
        name: fc.string({ maxLength: 40 }),
        last_activity_at: fc.integer({ min: 0, max: 2 ** 31 }),
      },
      { requiredKeys: ['last_activity_at'] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 0, max: NODE_COUNT - 1 }), { maxLength: 300 }),
        fc.array(update, { minLength: 300, maxLength: 300 }),
        async (indexes, values) => {
          const updates = indexes.map((index, position) => ({
            nodeId: nodeId(index),
            update: values[position]!,
          }));
          const before = await db.selectFrom('nodes').selectAll().orderBy('node_id').execute();
          await db.transaction().execute((trx) => updateNodesForIngest(trx, updates));
          const after = await db.selectFrom('nodes').selectAll().orderBy('node_id').execute();
          const expected = new Map(updates.map((item) => [item.nodeId, item.update]));
          for (let index = 0; index < after.length; index += 1) {
            const row = after[index]!;
            const wanted = { ...before[index]!, ...expected.get(row.node_id) };
            for (const [column, value] of Object.entries(wanted)) {
              const stored = (row as Record<string, unknown>)[column];
              // PostgreSQL returns bigint columns as strings.
              expect(
                typeof value === 'number' ? Number(stored) : stored,
                `${row.node_id}.${column}`,
              ).toEqual(value);
            }
          }
        },
      ),
      { numRuns: 12, endOnFailure: true },
    );
  });

  it('stores each node its last config document, new or replaced, at any count (property-based)', async () => {
    const db = server.database.db;
    const stored = async () =>
      new Map(
        (await db.selectFrom('node_configs').select(['node_id', 'config']).execute()).map((row) => [
          row.node_id,
          row.config,
        ]),
      );
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 0, max: NODE_COUNT - 1 }), { maxLength: 300 }),
        fc.array(fc.json(), { minLength: 300, maxLength: 300 }),
        async (indexes, documents) => {
          const configs = indexes.map((index, position) => ({
            nodeId: nodeId(index),
            config: documents[position]!,
          }));
          const expected = await stored();
          for (const { nodeId: id, config } of configs) expected.set(id, config);
          await db.transaction().execute((trx) => upsertNodeConfigs(trx, configs));
          expect(await stored()).toEqual(expected);
        },
      ),
      { numRuns: 12, endOnFailure: true },
    );
  });

  it("drops a node's config document with the node", async () => {
    const db = server.database.db;
    await server.services.nodes.register([
      { node_id: 'nb-gone', type: 'Refrigerator', model: 'FD-NB1', fw_version: '1.0.0', tags: [] },
    ]);
    await db
      .transaction()
      .execute((trx) =>
        upsertNodeConfigs(trx, [{ nodeId: 'nb-gone', config: '{"node_id":"nb-gone"}' }]),
      );
    const configOf = () =>
      db.selectFrom('node_configs').select('config').where('node_id', '=', 'nb-gone').execute();
    expect(await configOf()).toEqual([{ config: '{"node_id":"nb-gone"}' }]);
    await db.deleteFrom('nodes').where('node_id', '=', 'nb-gone').execute();
    expect(await configOf()).toEqual([]);
  });
});
