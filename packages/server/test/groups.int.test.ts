import fc from 'fast-check';
import { MESSAGES, SERVER_MESSAGES, type GroupList } from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recountMembers } from '../src/repositories/group.repository.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

const TYPES = ['Air Conditioner', 'Refrigerator', 'Washing Machine'] as const;
const CITIES = ['Pune', 'Delhi', 'Mumbai'] as const;

describe.each(DIALECTS)('device groups on %s', (dialect) => {
  let server: TestServer;
  let token: string;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    server.app.inject({
      method,
      url,
      headers: { authorization: token },
      ...(payload ? { payload } : {}),
    });

  const register = async (
    nodes: Array<{ id: string; type: string; city: string; fw?: string }>,
  ) => {
    const response = await call('POST', '/v1/admin/node_ids', {
      nodes: nodes.map((n) => ({
        node_id: n.id,
        type: n.type,
        model: 'FD-1',
        fw_version: n.fw ?? '1.0.0',
        tags: [`location:${n.city}`, `esp.serial_num:S${n.id}`],
      })),
    });
    expect(response.statusCode, response.body).toBe(200);
  };

  /** Every node id of a group, following the node cursor. */
  const members = async (groupId: string): Promise<string[]> => {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const response = await call(
        'GET',
        `/v1/admin/node_group?group_id=${groupId}&num_records=7${cursor ? `&start_id=${cursor}` : ''}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      const [group] = response.json<GroupList>().groups;
      ids.push(...(group?.nodes ?? []));
      cursor = group?.next_id;
      if (!cursor) return ids;
    }
  };

  beforeAll(async () => {
    server = await createTestServer(dialect);
    token = (await apiLogin(server.app)).accesstoken;
  });
  afterAll(async () => {
    await server.close();
  });

  it("answers 404 'Please create a Node Group' while there are no groups", async () => {
    const response = await call('GET', '/v1/admin/node_group');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({
      status: 'failure',
      description: MESSAGES.createNodeGroup,
    });
  });

  it('validates a new group', async () => {
    const cases: Array<[object, string | RegExp]> = [
      [{ group_name: '   ' }, 'Please provide group name.'],
      [{ group_name: 'x', description: 'd'.repeat(501) }, /500/],
      [{ group_name: 'x', node_type: 'Toaster' }, /Node type must be one of/],
      [{ group_name: 'x', nodes: ['NOPE'] }, /Nodes do not exist: NOPE/],
    ];
    for (const [payload, description] of cases) {
      const response = await call('POST', '/v1/admin/node_group', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.json<{ description: string }>().description).toMatch(description);
    }
    expect((await call('GET', '/v1/admin/node_group')).statusCode).toBe(404);
  });

  it("keeps 'Pune ACs' equal to the air conditioners in Pune: now, after registrations and after changes", async () => {
    await register([
      { id: 'G001', type: 'Air Conditioner', city: 'Pune' },
      { id: 'G002', type: 'Air Conditioner', city: 'Delhi' },
      { id: 'G003', type: 'Refrigerator', city: 'Pune' },
      { id: 'G004', type: 'Air Conditioner', city: 'pune' },
    ]);
    const count = await call(
      'GET',
      '/v1/admin/node_group/match_count?node_type=Air%20Conditioner&node_city=Pune',
    );
    expect(count.json()).toEqual({ total: 2 });

    const created = await call('POST', '/v1/admin/node_group', {
      group_name: 'Pune ACs',
      description: 'Every AC in Pune',
      node_type: 'Air Conditioner',
      node_city: 'Pune',
    });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ status: 'success', description: MESSAGES.groupCreated });
    const groupId = created.json<{ group_id: string }>().group_id;
    expect(groupId).toMatch(/^[0-9A-F]{4}-[0-9A-F]{4}$/);
    expect(await members(groupId)).toEqual(['G001', 'G004']);

    const details = (
      await call('GET', `/v1/admin/node_group?group_id=${groupId}&node_details=true`)
    ).json<GroupList>();
    expect(details.groups[0]).toMatchObject({
      group_name: 'Pune ACs',
      description: 'Every AC in Pune',
      group_query: 'node_type:Air Conditioner&&node_city:pune',
      is_automatic: true,
      total: 2,
    });
    expect(details.groups[0]?.node_details?.map((n) => n.node_id)).toEqual(['G001', 'G004']);

    // Registered later: joins.
    await register([{ id: 'G005', type: 'Air Conditioner', city: 'Pune' }]);
    expect(await members(groupId)).toEqual(['G001', 'G004', 'G005']);
    // Moves to Delhi: leaves. Moves back: joins again.
    await call('PUT', '/v1/admin/nodes?node_id=G001', {
      tags: ['location:Delhi', 'esp.serial_num:SG001'],
    });
    expect(await members(groupId)).toEqual(['G004', 'G005']);
    await call('PUT', '/v1/admin/nodes?node_id=G002', {
      tags: ['location:Pune', 'esp.serial_num:SG002'],
    });
    expect(await members(groupId)).toEqual(['G002', 'G004', 'G005']);
  });

  it('follows firmware changes reported by the node', async () => {
    await register([
      { id: 'F001', type: 'Refrigerator', city: 'Mumbai', fw: '2.0.0' },
      { id: 'F002', type: 'Refrigerator', city: 'Mumbai', fw: '2.0.0' },
    ]);
    const created = await call('POST', '/v1/admin/node_group', {
      group_name: 'Old fridges',
      node_fw_version: '2.0.0',
    });
    const groupId = created.json<{ group_id: string }>().group_id;
    expect(await members(groupId)).toEqual(['F001', 'F002']);
    server.services.ingest.nodeConfig(
      'F001',
      { node_id: 'F001', info: { fw_version: '2.1.0' } },
      Date.now(),
    );
    await server.services.ingest.flush();
    expect(await members(groupId)).toEqual(['F002']);
  });

  it('adds and removes nodes by hand, and keeps hand-added nodes whatever the filters say', async () => {
    const created = await call('POST', '/v1/admin/node_group', {
      group_name: 'Kitchen',
      nodes: ['G003'],
    });
    const groupId = created.json<{ group_id: string }>().group_id;
    expect(await members(groupId)).toEqual(['G003']);
    const add = await call('PUT', `/v1/admin/node_group?group_id=${groupId}`, {
      operation: 'ADD',
      nodes: ['G002', 'F001', 'G002'],
    });
    expect(add.statusCode).toBe(200);
    expect(add.json()).toMatchObject({ description: 'Successfully added nodes to Kitchen' });
    expect(await members(groupId)).toEqual(['F001', 'G002', 'G003']);
    const unknown = await call('PUT', `/v1/admin/node_group?group_id=${groupId}`, {
      operation: 'add',
      nodes: ['NOPE'],
    });
    expect(unknown.statusCode).toBe(404);
    const none = await call('PUT', `/v1/admin/node_group?group_id=${groupId}`, {
      operation: 'add',
      nodes: [],
    });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ description: SERVER_MESSAGES.selectNodesForGroup });
    // No group chosen: the spec's message (fleet-management §5 Add to group).
    for (const query of ['', '?group_id=', '?group_id=%20']) {
      const noGroup = await call('PUT', `/v1/admin/node_group${query}`, {
        operation: 'add',
        nodes: ['G002'],
      });
      expect(noGroup.statusCode, query).toBe(400);
      expect(noGroup.json(), query).toMatchObject({
        status: 'failure',
        description: MESSAGES.selectGroupToAdd,
      });
    }
    const bad = await call('PUT', `/v1/admin/node_group?group_id=${groupId}`, {
      operation: 'move',
      nodes: ['G002'],
    });
    expect(bad.statusCode).toBe(400);
    await call('PUT', `/v1/admin/node_group?group_id=${groupId}`, {
      operation: 'remove',
      nodes: ['G002'],
    });
    expect(await members(groupId)).toEqual(['F001', 'G003']);

    // A node added by hand to an automatic group stays when it does not match.
    const auto = (await call('GET', '/v1/admin/node_group'))
      .json<GroupList>()
      .groups.find((g) => g.group_name === 'Pune ACs');
    await call('PUT', `/v1/admin/node_group?group_id=${auto?.group_id}`, {
      operation: 'add',
      nodes: ['F002'],
    });
    await call('PUT', '/v1/admin/nodes?node_id=F002', {
      tags: ['location:Delhi', 'esp.serial_num:SF002'],
    });
    expect(await members(auto?.group_id ?? '')).toContain('F002');
  });

  it('pages groups by id with exact totals', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let total: number;
    for (;;) {
      const page = (
        await call(
          'GET',
          `/v1/admin/node_group?num_records=2${cursor ? `&start_id=${cursor}` : ''}`,
        )
      ).json<GroupList>();
      total = page.total;
      seen.push(...page.groups.map((g) => g.group_id));
      cursor = page.next_id;
      if (!cursor) break;
    }
    expect(seen).toHaveLength(total);
    expect(seen).toEqual([...seen].sort());
    expect(total).toBe(3);
  });

  it('treats FFFF-FFFF as every node and never changes or deletes it', async () => {
    const all = (
      await call('GET', '/v1/admin/node_group?group_id=FFFF-FFFF&num_records=100')
    ).json<GroupList>();
    expect(all.groups[0]).toMatchObject({ group_id: 'FFFF-FFFF', group_name: 'All' });
    expect(all.groups[0]?.total).toBe(all.groups[0]?.nodes?.length);
    expect(
      (
        await call('PUT', '/v1/admin/node_group?group_id=FFFF-FFFF', {
          operation: 'add',
          nodes: ['G001'],
        })
      ).statusCode,
    ).toBe(400);
    expect((await call('DELETE', '/v1/admin/node_group?group_id=FFFF-FFFF')).statusCode).toBe(400);
  });

  it('deletes a group', async () => {
    const created = await call('POST', '/v1/admin/node_group', { group_name: 'Temporary' });
    const groupId = created.json<{ group_id: string }>().group_id;
    const deleted = await call('DELETE', `/v1/admin/node_group?group_id=${groupId}`);
    expect(deleted.json()).toMatchObject({ status: 'success', description: MESSAGES.groupDeleted });
    expect((await call('GET', `/v1/admin/node_group?group_id=${groupId}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/v1/admin/node_group?group_id=${groupId}`)).statusCode).toBe(404);
  });

  it('lets engineers read groups but not change them', async () => {
    await call('POST', '/v1/admin/user2', {
      user_name: 'eng-groups@fleetdeck.test',
      password: 'Quiet-Harbor-2031',
      roles: ['service_engineer_role'],
    });
    const engineer = (await apiLogin(server.app, 'eng-groups@fleetdeck.test', 'Quiet-Harbor-2031'))
      .accesstoken;
    const read = await server.app.inject({
      method: 'GET',
      url: '/v1/admin/node_group',
      headers: { authorization: engineer },
    });
    expect(read.statusCode).toBe(200);
    const write = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/node_group',
      headers: { authorization: engineer },
      payload: { group_name: 'x' },
    });
    expect(write.statusCode).toBe(403);
  });

  // The totals come from counts kept by triggers (ADR 21): they must equal a recount always.
  it('keeps every group total equal to a count of its members through adds, removes, filter changes and deletes (property-based)', async () => {
    const ids = Array.from({ length: 10 }, (_, i) => `Q${String(i).padStart(3, '0')}`);
    await register(
      ids.map((id, i) => ({ id, type: TYPES[i % 3] as string, city: CITIES[i % 3] as string })),
    );
    const create = async (body: object) =>
      (await call('POST', '/v1/admin/node_group', body)).json<{ group_id: string }>().group_id;
    const automatic = await create({ group_name: 'count ACs', node_type: 'Air Conditioner' });
    const manual = await create({ group_name: 'count hand-picked' });
    const doomed = await create({ group_name: 'count doomed', node_city: 'Delhi' });
    const totalOf = async (groupId: string) =>
      (await call('GET', `/v1/admin/node_group?group_id=${groupId}`)).json<GroupList>().groups[0]
        ?.total;
    const expectExact = async (groupIds: string[]) => {
      for (const groupId of groupIds) {
        const recount = await recountMembers(server.database.db, groupId);
        expect(await totalOf(groupId)).toBe(recount);
        expect((await members(groupId)).length).toBe(recount);
      }
    };
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({
              kind: fc.constantFrom('add' as const, 'remove' as const),
              group: fc.constantFrom(automatic, manual),
              nodes: fc.array(fc.constantFrom(...ids), { minLength: 1, maxLength: 4 }),
            }),
            fc.record({
              kind: fc.constant('type' as const),
              node: fc.constantFrom(...ids),
              type: fc.constantFrom(...TYPES),
            }),
          ),
          { minLength: 1, maxLength: 6 },
        ),
        async (steps) => {
          for (const step of steps) {
            if (step.kind === 'type') {
              server.services.ingest.nodeConfig(
                step.node,
                { node_id: step.node, info: { type: step.type } },
                Date.now(),
              );
              await server.services.ingest.flush();
            } else {
              const response = await call('PUT', `/v1/admin/node_group?group_id=${step.group}`, {
                operation: step.kind,
                nodes: step.nodes,
              });
              expect(response.statusCode, response.body).toBe(200);
            }
          }
          await expectExact([automatic, manual, doomed]);
        },
      ),
      { numRuns: 10 },
    );
    // A deleted group leaves no count behind; a node deleted from the registry leaves its groups.
    expect(await totalOf(doomed)).toBeGreaterThan(0);
    expect((await call('DELETE', `/v1/admin/node_group?group_id=${doomed}`)).statusCode).toBe(200);
    const leftover = await server.database.db
      .selectFrom('node_group_counts')
      .select('n')
      .where('group_id', '=', doomed)
      .execute();
    expect(leftover).toEqual([]);
    await call('PUT', `/v1/admin/node_group?group_id=${manual}`, {
      operation: 'add',
      nodes: ['Q000', 'Q001'],
    });
    await server.database.db.deleteFrom('nodes').where('node_id', '=', 'Q000').execute();
    await expectExact([automatic, manual]);
  });

  // An automatic group always equals a direct query of the matching nodes, whatever happens.
  it('keeps every filter group equal to a direct query after random node changes (property-based)', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `P${String(i).padStart(3, '0')}`);
    await register(
      ids.map((id, i) => ({ id, type: TYPES[i % 3] as string, city: CITIES[i % 3] as string })),
    );
    const groupsUnderTest: Array<{ id: string; type?: string; city?: string }> = [];
    for (const [type, city] of [
      ['Air Conditioner', 'Pune'],
      [undefined, 'Delhi'],
      ['Refrigerator', undefined],
    ] as const) {
      const created = await call('POST', '/v1/admin/node_group', {
        group_name: `prop ${type ?? '*'} ${city ?? '*'}`,
        ...(type ? { node_type: type } : {}),
        ...(city ? { node_city: city } : {}),
      });
      groupsUnderTest.push({
        id: created.json<{ group_id: string }>().group_id,
        ...(type ? { type } : {}),
        ...(city ? { city } : {}),
      });
    }
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            node: fc.constantFrom(...ids),
            change: fc.oneof(
              fc.record({ kind: fc.constant('city' as const), city: fc.constantFrom(...CITIES) }),
              fc.record({ kind: fc.constant('type' as const), type: fc.constantFrom(...TYPES) }),
            ),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        async (changes) => {
          for (const { node, change } of changes) {
            if (change.kind === 'city') {
              await call('PUT', `/v1/admin/nodes?node_id=${node}`, {
                tags: [`location:${change.city}`, `esp.serial_num:S${node}`],
              });
            } else {
              server.services.ingest.nodeConfig(
                node,
                { node_id: node, info: { type: change.type } },
                Date.now(),
              );
            }
          }
          await server.services.ingest.flush();
          for (const group of groupsUnderTest) {
            const params = new URLSearchParams({ num_records: '100', search: 'P' });
            if (group.type) params.set('type', group.type);
            if (group.city) params.set('city', group.city);
            const direct = (await call('GET', `/v1/admin/nodes?${params.toString()}`)).json<{
              nodes: string[];
            }>().nodes;
            const inGroup = (await members(group.id)).filter((id) => id.startsWith('P'));
            expect(inGroup).toEqual(direct);
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});
