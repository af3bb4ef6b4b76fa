import type { NodeRegistration } from '@fleetdeck/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countNodes, type NodeFilter } from '../src/repositories/node.repository.js';
import { DIALECTS, createTestServer, type TestServer } from './helpers/test-server.js';

/** A small deterministic generator, so a failure replays the same operations. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const TYPES = ['Air Conditioner', 'Refrigerator', 'Washing Machine'] as const;
const MODELS = ['FD-A1', 'FD-B2', 'FD-C3'];
const VERSIONS = ['1.0.0', '1.1.0', '2.0.0'];
const CITIES = ['Pune', 'Mumbai', 'Delhi'];

describe.each(DIALECTS)('node facet counts on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  /** Every facet count the filters use, compared with a COUNT over the rows themselves. */
  async function expectCountsExact(): Promise<void> {
    const db = server.database.db;
    const filters: NodeFilter[] = [
      ...TYPES.map((type) => ({ type })),
      ...MODELS.map((model) => ({ model })),
      ...VERSIONS.map((fwVersion) => ({ fwVersion })),
      ...CITIES.map((city) => ({ city })),
      ...CITIES.map((city) => ({ tag: `location:${city}` })),
      { tag: 'team:blue' },
    ];
    for (const filter of filters) {
      const fromCounts = await countNodes(db, filter);
      // The same filter plus a condition that is always true takes the COUNT path.
      const counted = await countNodes(db, { ...filter, search: 'fc-' });
      expect(fromCounts, JSON.stringify(filter)).toBe(counted);
    }
  }

  it('stay equal to COUNT through registrations, tag and firmware changes and deletes', async () => {
    const next = random(7);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    const registrations: NodeRegistration[] = Array.from({ length: 120 }, (_, index) => ({
      node_id: `fc-${String(index).padStart(4, '0')}`,
      type: pick(TYPES),
      model: pick(MODELS),
      fw_version: pick(VERSIONS),
      tags: [
        `location:${pick(CITIES)}`,
        `esp.serial_num:FC${index}`,
        ...(next() < 0.3 ? ['team:blue'] : []),
      ],
    }));
    await server.services.nodes.register(registrations.slice(0, 80));
    await server.services.nodes.register(registrations.slice(80));
    await expectCountsExact();
    expect(await countNodes(server.database.db, { type: registrations[0]!.type })).toBeGreaterThan(
      0,
    );

    const db = server.database.db;
    for (let step = 0; step < 40; step += 1) {
      const nodeId = `fc-${String(Math.floor(next() * 120)).padStart(4, '0')}`;
      const action = next();
      if (action < 0.4) {
        await server.services.nodes
          .setTags(nodeId, [`location:${pick(CITIES)}`, `esp.serial_num:${nodeId}`])
          .catch(() => undefined); // already deleted
      } else if (action < 0.8) {
        // What a config message does when a node reports new firmware or another model.
        await db
          .updateTable('nodes')
          .set({ fw_version: pick(VERSIONS), model: pick(MODELS) })
          .where('node_id', '=', nodeId)
          .execute();
      } else {
        await db.deleteFrom('nodes').where('node_id', '=', nodeId).execute();
      }
    }
    await expectCountsExact();
  });

  it('count concurrent bulk registrations exactly (and without deadlocks)', async () => {
    const batches = Array.from({ length: 4 }, (_, batch) =>
      Array.from({ length: 50 }, (_, index) => ({
        node_id: `fc-bulk-${batch}-${String(index).padStart(3, '0')}`,
        type: TYPES[(index + batch) % 3]!,
        model: MODELS[index % 3]!,
        fw_version: VERSIONS[(index * 7 + batch) % 3]!,
        tags: [`location:${CITIES[index % 3]!}`],
      })),
    );
    await Promise.all(batches.map((batch) => server.services.nodes.register(batch)));
    await expectCountsExact();
    const { rows } = await sql<{ n: number | string }>`
      select count(*) as n from nodes where node_id like 'fc-bulk-%'`.execute(server.database.db);
    expect(Number(rows[0]?.n)).toBe(200);
  });
});
