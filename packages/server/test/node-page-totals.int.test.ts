import {
  AdminNodesQuerySchema,
  CreateGroupBodySchema,
  type AdminNodesQuery,
  type NodeRegistration,
} from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  counterQuery,
  countNodes,
  listNodesWithScalar,
  readCounter,
  type NodeFilter,
} from '../src/repositories/node.repository.js';
import { DIALECTS, createTestServer, type TestServer } from './helpers/test-server.js';

const TYPES = ['Air Conditioner', 'Refrigerator', 'Washing Machine'] as const;
const CITIES = ['Pune', 'Mumbai', 'Delhi'];
/** After every registered node id: a cursor whose page is empty. */
const PAST_THE_END = 'zzzz';

/** 31 nodes: `pt-00`…`pt-30`, with types and cities spread over them. */
const REGISTRATIONS: NodeRegistration[] = Array.from({ length: 31 }, (_, index) => ({
  node_id: `pt-${String(index).padStart(2, '0')}`,
  type: TYPES[index % 3]!,
  model: 'FD-PT',
  fw_version: index % 4 === 0 ? '2.0.0' : '1.0.0',
  tags: [`location:${CITIES[index % 3]}`, `esp.serial_num:PT${index}`],
}));

/** The API query of a repository filter (the fields the fleet list takes). */
function queryOf(filter: NodeFilter, startId?: string): AdminNodesQuery {
  return AdminNodesQuerySchema.parse({
    num_records: 7,
    ...(startId ? { start_id: startId } : {}),
    ...(filter.search ? { search: filter.search } : {}),
    ...(filter.status ? { node_status: filter.status } : {}),
    ...(filter.type ? { type: filter.type } : {}),
    ...(filter.fwVersion ? { fw_version: filter.fwVersion } : {}),
    ...(filter.city ? { city: filter.city } : {}),
    ...(filter.tag ? { tags: filter.tag } : {}),
  });
}

describe.each(DIALECTS)('fleet list pages carry exact totals on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer(dialect);
    await server.services.nodes.register(REGISTRATIONS);
  });
  afterAll(async () => {
    await server.close();
  });

  const filters: NodeFilter[] = [
    {},
    { status: 'not_activated' },
    { status: 'online' },
    { type: 'Refrigerator' },
    { city: 'Pune' },
    { tag: 'location:Delhi' },
    { fwVersion: '2.0.0' },
    { type: 'Air Conditioner', city: 'Pune' },
    { search: 'pt-1' },
    { search: 'pt-2', type: 'Washing Machine' },
    { search: 'nothing-matches' },
  ];

  it.each(filters)(
    'every page of %o, and a page past the end, has the COUNT as its total',
    async (filter) => {
      const expected = await countNodes(server.database.db, filter);
      let cursor: string | undefined;
      let seen = 0;
      do {
        const page = await server.services.nodes.listForAdmin(queryOf(filter, cursor));
        expect(page.total).toBe(expected);
        seen += page.rows.length;
        cursor = page.nextId;
      } while (cursor);
      expect(seen).toBe(expected);
      // An empty page has no row to carry the total: it is read on its own.
      const past = await server.services.nodes.listForAdmin(queryOf(filter, PAST_THE_END));
      expect(past.rows).toEqual([]);
      expect(past.total).toBe(expected);
    },
  );

  it('counts a search again once a matching node is registered, on full and empty pages', async () => {
    const before = await server.services.nodes.listForAdmin(queryOf({ search: 'pt-3' }));
    expect(before.total).toBe(1); // pt-30
    await server.services.nodes.register([
      {
        node_id: 'pt-31',
        type: 'Refrigerator',
        model: 'FD-PT',
        fw_version: '1.0.0',
        tags: ['location:Pune', 'esp.serial_num:PT31'],
      },
    ]);
    const after = await server.services.nodes.listForAdmin(queryOf({ search: 'pt-3' }));
    expect(after.total).toBe(2);
    expect(after.rows.map((row) => row.node_id)).toEqual(['pt-30', 'pt-31']);
    const past = await server.services.nodes.listForAdmin(
      queryOf({ search: 'pt-3' }, PAST_THE_END),
    );
    expect(past.total).toBe(2);
  });

  it('reads the scalar with the page in one statement, and nothing for an empty page', async () => {
    const db = server.database.db;
    const total = await readCounter(db, 'total');
    expect(total).toBeGreaterThan(0);
    const page = await listNodesWithScalar(db, { type: 'Refrigerator' }, 'pt-1', 3, false, {
      text: 'select ? + 1 as n',
      values: [41],
    });
    // The scalar's placeholder comes before the filter's and the cursor's in the text.
    expect(page.rows.map((row) => row.node_id)).toEqual(['pt-10', 'pt-13', 'pt-16', 'pt-19']);
    expect(Number(page.scalar)).toBe(42);
    const counted = await listNodesWithScalar(db, {}, undefined, 5, true, counterQuery('total'));
    expect(Number(counted.scalar)).toBe(total);
    expect(counted.rows).toHaveLength(6);
    const missing = await listNodesWithScalar(db, {}, undefined, 1, false, counterQuery('none'));
    expect(missing.scalar).toBeNull();
    const empty = await listNodesWithScalar(db, {}, PAST_THE_END, 5, false, counterQuery('total'));
    expect(empty).toEqual({ rows: [], scalar: undefined });
  });

  it('gives a group page past the end its member count, and the All group the fleet total', async () => {
    const groupId = await server.services.groups.create(
      CreateGroupBodySchema.parse({ group_name: 'Totals', node_type: 'Refrigerator' }),
    );
    const members = await countNodes(server.database.db, { type: 'Refrigerator' });
    const first = await server.services.groups.details(groupId, undefined, 4);
    expect(first.total).toBe(members);
    expect(first.nodes).toHaveLength(4);
    const past = await server.services.groups.details(groupId, PAST_THE_END, 4);
    expect(past.total).toBe(members);
    expect(past.nodes).toEqual([]);
    const fleet = await readCounter(server.database.db, 'total');
    expect((await server.services.groups.details('FFFF-FFFF', undefined, 4)).total).toBe(fleet);
    expect((await server.services.groups.details('FFFF-FFFF', PAST_THE_END, 4)).total).toBe(fleet);
  });
});
