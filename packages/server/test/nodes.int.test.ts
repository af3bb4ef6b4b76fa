import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql, type QueryExecutor } from 'kysely';
import type { NodeInfo } from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ID_VERSION_COUNTER,
  explainListNodes,
  rebuildCounters,
  readStatusCounters,
  readCounter,
  type NodeFilter,
} from '../src/repositories/node.repository.js';
import { NodeService } from '../src/services/nodes/node.service.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

const TYPES = ['Air Conditioner', 'Refrigerator', 'Washing Machine'] as const;
const CITIES = ['Mumbai', 'Kolkata', 'Pune', 'Delhi', 'banglore', 'Other'] as const;

interface Seeded {
  node_id: string;
  type: string;
  model: string;
  fw_version: string;
  city: string;
  serial: string;
}

/** A deterministic fleet of `count` nodes spread over types, models, versions and cities. */
function fleet(count: number, prefix: string): Seeded[] {
  return Array.from({ length: count }, (_, i) => ({
    node_id: `${prefix}${String(i).padStart(4, '0')}`,
    type: TYPES[i % 3] as string,
    model: `FD-${i % 4}`,
    fw_version: `1.${i % 5}.0`,
    city: CITIES[i % 6] as string,
    serial: `SN${prefix}${i}`,
  }));
}

describe.each(DIALECTS)('node registry and fleet list on %s', (dialect) => {
  let server: TestServer;
  let token: string;
  const nodes = fleet(60, 'N');

  const get = async (query: string) => {
    const response = await server.app.inject({
      method: 'GET',
      url: `/v1/admin/nodes?${query}`,
      headers: { authorization: token },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{
      nodes: string[];
      node_info: NodeInfo[];
      total: number;
      next_id?: string;
    }>();
  };

  beforeAll(async () => {
    server = await createTestServer(dialect);
    token = (await apiLogin(server.app)).accesstoken;
    const response = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/node_ids',
      headers: { authorization: token },
      payload: {
        nodes: nodes.map((n) => ({
          node_id: n.node_id,
          type: n.type,
          model: n.model,
          fw_version: n.fw_version,
          tags: [`location:${n.city}`, `esp.serial_num:${n.serial}`, 'batch:one'],
        })),
      },
    });
    expect(response.statusCode, response.body).toBe(200);
  });
  afterAll(async () => {
    await server.close();
  });

  it('returns each node its own credentials once and stores only hashes', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/node_ids',
      headers: { authorization: token },
      payload: {
        nodes: [
          { type: 'Refrigerator', model: 'FD-R', fw_version: '2.0.0', tags: ['location:Pune'] },
        ],
      },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      nodes: Array<{ node_id: string; mqtt_username: string; mqtt_password: string }>;
    }>();
    const [created] = body.nodes;
    expect(created?.node_id).toMatch(/^[0-9A-F]{12}$/);
    expect(created?.mqtt_username).toBe(created?.node_id);
    expect(created?.mqtt_password.length).toBeGreaterThanOrEqual(40);
    const row = await server.database.db
      .selectFrom('nodes')
      .selectAll()
      .where('node_id', '=', created?.node_id ?? '')
      .executeTakeFirstOrThrow();
    expect(row.credential_hash).not.toContain(created?.mqtt_password ?? 'x');
    await expect(
      server.services.nodes.authenticateNode(created?.node_id ?? '', created?.mqtt_password ?? ''),
    ).resolves.toBe(true);
    await expect(
      server.services.nodes.authenticateNode(created?.node_id ?? '', 'wrong'),
    ).resolves.toBe(false);
    await expect(
      server.services.nodes.authenticateNode('NOPE', created?.mqtt_password ?? ''),
    ).resolves.toBe(false);
    const list = await get(`node_id=${created?.node_id}`);
    expect(JSON.stringify(list)).not.toContain(created?.mqtt_password);
  });

  it('refuses bad registrations with clear messages and writes nothing', async () => {
    const before = await readCounter(server.database.db, 'total');
    const cases: Array<[object, number, RegExp]> = [
      [{ nodes: [] }, 400, /.+/],
      [{ nodes: [{ type: 'Toaster', model: 'X' }] }, 400, /.+/],
      [{ nodes: [{ type: 'Refrigerator', model: 'X', tags: ['no-colon'] }] }, 400, /key:value/],
      [
        { nodes: [{ node_id: 'N0000', type: 'Refrigerator', model: 'X' }] },
        409,
        /already registered/,
      ],
      [
        {
          nodes: [
            { node_id: 'DUP', type: 'Refrigerator', model: 'X' },
            { node_id: 'DUP', type: 'Refrigerator', model: 'X' },
          ],
        },
        400,
        /more than once/,
      ],
      [{ nodes: [{ node_id: 'bad id!', type: 'Refrigerator', model: 'X' }] }, 400, /Node Id/],
    ];
    for (const [payload, status, description] of cases) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/v1/admin/node_ids',
        headers: { authorization: token },
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json<{ status: string; description: string }>()).toMatchObject({
        status: 'failure',
      });
      expect(response.json<{ description: string }>().description).toMatch(description);
    }
    expect(await readCounter(server.database.db, 'total')).toBe(before);
  });

  it('shows RainMaker NodeInfo with location first and the serial tag', async () => {
    const page = await get('node_id=N0007');
    expect(page.total).toBe(1);
    expect(page.node_info[0]).toMatchObject({
      node_id: 'N0007',
      type: 'Refrigerator',
      model: 'FD-3',
      fw_version: '1.2.0',
      tags: ['location:Kolkata', 'esp.serial_num:SNN7', 'batch:one'],
      node_status: 'not_activated',
      status: { connectivity: {} },
      is_claimed: false,
    });
  });

  it('filters by type, model, firmware, city, serial, tag, status and id prefix with exact totals', async () => {
    const expectations: Array<[string, (n: Seeded) => boolean]> = [
      ['type=Refrigerator', (n) => n.type === 'Refrigerator'],
      ['model=FD-2', (n) => n.model === 'FD-2'],
      ['fw_version=1.4.0', (n) => n.fw_version === '1.4.0'],
      ['city=pune', (n) => n.city === 'Pune'],
      ['city=BANGLORE', (n) => n.city === 'banglore'],
      ['serial=snn12', (n) => n.serial === 'SNN12'],
      ['tags=location:Delhi', (n) => n.city === 'Delhi'],
      ['search=N001', (n) => n.node_id.startsWith('N001')],
      [
        'type=Washing%20Machine&city=Mumbai',
        (n) => n.type === 'Washing Machine' && n.city === 'Mumbai',
      ],
      ['node_status=not_activated&type=Refrigerator', (n) => n.type === 'Refrigerator'],
      ['node_status=online', () => false],
    ];
    for (const [query, predicate] of expectations) {
      const expected = nodes
        .filter(predicate)
        .map((n) => n.node_id)
        .sort();
      const page = await get(`${query}&num_records=100`);
      // Other tests register a few nodes with generated ids; the seeded fleet is the N… ids.
      expect(page.total, query).toBe(page.nodes.length);
      expect(
        page.nodes.filter((id) => id.startsWith('N')),
        query,
      ).toEqual(expected);
    }
  });

  it('answers an empty filter with an empty page, not an error', async () => {
    const page = await get('city=Atlantis');
    expect(page).toEqual({ nodes: [], node_info: [], total: 0 });
  });

  it('validates query parameters', async () => {
    for (const query of [
      'num_records=0',
      'num_records=101',
      'node_status=sleeping',
      `search=${'x'.repeat(65)}`,
    ]) {
      const response = await server.app.inject({
        method: 'GET',
        url: `/v1/admin/nodes?${query}`,
        headers: { authorization: token },
      });
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ status: 'failure', error_code: 100021 });
    }
  });

  // QUALITY R9: paging visits every matching node exactly once, for any filter and page size.
  it('pages through every matching node exactly once (property-based)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 25 }),
        fc.option(fc.constantFrom(...TYPES), { nil: undefined }),
        fc.option(fc.constantFrom('Pune', 'Delhi', 'Other'), { nil: undefined }),
        fc.option(fc.constantFrom('location:Pune', 'batch:one'), { nil: undefined }),
        async (size, type, city, tag) => {
          const params = new URLSearchParams({ num_records: String(size) });
          if (type) params.set('type', type);
          if (city) params.set('city', city);
          if (tag) params.set('tags', tag);
          const seen: string[] = [];
          let cursor: string | undefined;
          let total = -1;
          for (let guard = 0; guard < 100; guard++) {
            if (cursor) params.set('start_id', cursor);
            const page = await get(params.toString());
            total = page.total;
            expect(page.nodes.length).toBeLessThanOrEqual(size);
            seen.push(...page.nodes);
            cursor = page.next_id;
            if (!cursor) break;
          }
          const expected = nodes
            .filter(
              (n) =>
                (!type || n.type === type) &&
                (!city || n.city === city) &&
                (tag !== 'location:Pune' || n.city === 'Pune'),
            )
            .map((n) => n.node_id);
          expect(new Set(seen).size).toBe(seen.length);
          expect(seen.filter((id) => id.startsWith('N')).sort()).toEqual(expected.sort());
          expect(total).toBe(seen.length);
          expect(seen).toEqual([...seen].sort());
        },
      ),
      { numRuns: 40 },
    );
  });

  it('uses an index for every filter (query plans)', async () => {
    const filters: NodeFilter[] = [
      { type: 'Refrigerator' },
      { model: 'FD-1' },
      { fwVersion: '1.0.0' },
      { city: 'pune' },
      { serial: 'SNN1' },
      { status: 'online' },
      { search: 'N00' },
      { tag: 'location:Pune' },
      { type: 'Refrigerator', status: 'offline' },
      { userId: 'someone' },
      // A group's page of nodes (the group view, B6's group filter).
      { groupId: 'AAAA-0001' },
      {},
    ];
    for (const filter of filters) {
      const plan =
        dialect === 'postgres'
          ? await server.database.db.transaction().execute(async (trx) => {
              // Tiny test tables make a sequential scan cheapest; ask what the planner does with indexes.
              await sql`SET LOCAL enable_seqscan = off`.execute(trx);
              return explainListNodes(trx, filter, true);
            })
          : await explainListNodes(server.database.db, filter, false);
      if (dialect === 'postgres') {
        expect(plan, JSON.stringify(filter)).toMatch(/Index (Only )?Scan|Bitmap Index Scan/);
        expect(plan, JSON.stringify(filter)).not.toMatch(/Seq Scan on nodes/);
        // ADR 33: a list with one condition (or none) runs its generic plan, which shows the
        // parameters; one with several conditions, or the own-nodes union, is planned for its
        // values, which the plan shows instead.
        const conditions = Object.keys(filter).length;
        const generic = conditions === 0 || (conditions === 1 && filter.userId === undefined);
        expect(/\$\d/.test(plan), `${JSON.stringify(filter)}\n${plan}`).toBe(generic);
      } else {
        expect(plan, JSON.stringify(filter)).toMatch(
          /USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY|USING PRIMARY KEY/,
        );
        expect(plan, JSON.stringify(filter)).not.toMatch(/SCAN nodes(?! USING)/);
      }
    }
  });

  it('replaces tags and keeps the derived city and serial filters in step', async () => {
    const response = await server.app.inject({
      method: 'PUT',
      url: '/v1/admin/nodes?node_id=N0001',
      headers: { authorization: token },
      payload: { tags: ['location:Other', 'esp.serial_num:NEW-SERIAL-1'] },
    });
    expect(response.statusCode).toBe(200);
    expect((await get('serial=new-serial-1')).nodes).toEqual(['N0001']);
    expect((await get('serial=SNN1')).nodes).toEqual([]);
    const missing = await server.app.inject({
      method: 'PUT',
      url: '/v1/admin/nodes?node_id=NOPE',
      headers: { authorization: token },
      payload: { tags: [] },
    });
    expect(missing.statusCode).toBe(404);
    await server.app.inject({
      method: 'PUT',
      url: '/v1/admin/nodes?node_id=N0001',
      headers: { authorization: token },
      payload: { tags: ['location:Kolkata', 'esp.serial_num:SNN1', 'batch:one'] },
    });
  });

  it('enforces permissions: engineers read, only writers register, anonymous gets 401', async () => {
    const engineer = `eng-${randomUUID().slice(0, 8)}@fleetdeck.test`;
    const created = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/user2',
      headers: { authorization: token },
      payload: {
        user_name: engineer,
        password: 'Quiet-Harbor-2031',
        roles: ['service_engineer_role'],
      },
    });
    expect(created.statusCode).toBe(201);
    const engineerToken = (await apiLogin(server.app, engineer, 'Quiet-Harbor-2031')).accesstoken;
    const read = await server.app.inject({
      method: 'GET',
      url: '/v1/admin/nodes',
      headers: { authorization: engineerToken },
    });
    expect(read.statusCode).toBe(200);
    const write = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/node_ids',
      headers: { authorization: engineerToken },
      payload: { nodes: [{ type: 'Refrigerator', model: 'X' }] },
    });
    expect(write.statusCode).toBe(403);
    const tags = await server.app.inject({
      method: 'PUT',
      url: '/v1/admin/nodes?node_id=N0001',
      headers: { authorization: engineerToken },
      payload: { tags: [] },
    });
    expect(tags.statusCode).toBe(403);
    const anonymous = await server.app.inject({ method: 'GET', url: '/v1/admin/nodes' });
    expect(anonymous.statusCode).toBe(401);
    const createUser = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/user2',
      headers: { authorization: engineerToken },
      payload: { user_name: 'x@fleetdeck.test', password: 'Quiet-Harbor-2031', roles: ['user'] },
    });
    expect(createUser.statusCode).toBe(403);
  });

  it('keeps a node-id search total until the set of node ids changes (ADR 22)', async () => {
    // A NodeService whose database handle records the SQL texts it runs.
    const texts: string[] = [];
    const db = server.database.db;
    const bound = (target: object, property: string | symbol): unknown => {
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    };
    const recordingExecutor = (executor: QueryExecutor): QueryExecutor =>
      new Proxy(executor, {
        get(inner, name) {
          if (name !== 'executeQuery') return bound(inner, name);
          return (query: { sql: string }, ...rest: unknown[]) => {
            texts.push(query.sql);
            return (inner.executeQuery as (...args: unknown[]) => unknown).call(
              inner,
              query,
              ...rest,
            );
          };
        },
      });
    const recording = new Proxy(db, {
      get(target, property) {
        if (property === 'getExecutor') return () => recordingExecutor(target.getExecutor());
        return bound(target, property);
      },
    });
    const service = new NodeService(recording);
    const search = (prefix: string) =>
      service.listForAdmin({ search: prefix, num_records: 5 } as Parameters<
        NodeService['listForAdmin']
      >[0]);
    const counts = () => texts.filter((text) => text.includes('count(*)')).length;

    const first = await search('N00');
    expect(first.total).toBe(60);
    expect(counts()).toBe(1);
    // Every further page of the same search reuses the total.
    const second = await search('N00');
    expect(second.total).toBe(60);
    expect(counts()).toBe(1);
    expect((await search('N001')).total).toBe(10);
    expect(counts()).toBe(2);

    // A registration moves the id set's version: counted again, and exact.
    const version = await readCounter(db, ID_VERSION_COUNTER);
    const registered = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/node_ids',
      headers: { authorization: token },
      payload: {
        nodes: [{ node_id: 'N00999', type: 'Refrigerator', model: 'FD-1', fw_version: '1.0.0' }],
      },
    });
    expect(registered.statusCode, registered.body).toBe(200);
    expect(await readCounter(db, ID_VERSION_COUNTER)).toBeGreaterThan(version);
    expect((await search('N00')).total).toBe(61);
    expect(counts()).toBe(3);
    // So does a node deleted from the registry.
    await db.deleteFrom('nodes').where('node_id', '=', 'N00999').execute();
    // The raw delete bypasses the status counters (no product path deletes nodes): restore them.
    await rebuildCounters(db);
    expect((await search('N00')).total).toBe(60);
    expect(counts()).toBe(4);
  });

  it('keeps maintained counters equal to a recount', async () => {
    const maintained = await readStatusCounters(server.database.db);
    expect(Object.keys(maintained).some((name) => name.includes('|'))).toBe(true);
    expect(await rebuildCounters(server.database.db)).toEqual(maintained);
  });

  it('reads the total of a list filtered by status and type from its counter, not a count', async () => {
    const db = server.database.db;
    const query = 'node_status=not_activated&type=Refrigerator&num_records=1';
    const counted = (await get(query)).total;
    expect(counted).toBeGreaterThan(0);
    // A counter moved by hand shows through: the list did not count the rows.
    await db
      .updateTable('node_counters')
      .set({ value: 123_456 })
      .where('name', '=', 'not_activated|Refrigerator')
      .execute();
    expect((await get(query)).total).toBe(123_456);
    await rebuildCounters(db);
    expect((await get(query)).total).toBe(counted);
  });
});
