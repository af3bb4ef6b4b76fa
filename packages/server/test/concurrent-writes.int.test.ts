import { ERROR_CODES, SERVER_MESSAGES, type GroupList } from '@fleetdeck/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { recountMembers } from '../src/repositories/group.repository.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

/** A small deterministic generator, so a failure replays the same requests. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const NODE_COUNT = 40;
const nodeIds = Array.from({ length: NODE_COUNT }, (_, i) => `cw-${String(i).padStart(3, '0')}`);

// Writes that PostgreSQL once aborted as deadlocks (HTTP 500): they must all succeed now, and
// the counters the triggers keep must still equal a recount (ADR 37).
describe.each(DIALECTS)('concurrent writes on %s', (dialect) => {
  let server: TestServer;
  let token: string;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    server.app.inject({
      method,
      url,
      headers: { authorization: token },
      ...(payload ? { payload } : {}),
    });

  /** Statuses with how often each was answered, for a readable failure. */
  const tally = (statuses: number[]) =>
    statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

  /** Every facet count of cities and tags, compared with a recount of the rows. */
  async function expectFacetCountsExact(): Promise<void> {
    const db = server.database.db;
    const kept = await sql<{ facet: string; value: string; n: number | string }>`
      select facet, value, n from node_facet_counts where facet in ('city', 'tag')`.execute(db);
    const counted = await sql<{ facet: string; value: string; n: number | string }>`
      select 'city' as facet, city as value, count(*) as n from nodes
        where city is not null group by city
      union all
      select 'tag', tag, count(*) from node_tags group by tag`.execute(db);
    const asMap = (rows: Array<{ facet: string; value: string; n: number | string }>) =>
      Object.fromEntries(
        rows
          .filter((row) => Number(row.n) !== 0)
          .map((row) => [`${row.facet}:${row.value}`, Number(row.n)]),
      );
    expect(asMap(kept.rows)).toEqual(asMap(counted.rows));
  }

  /** A group's member count as the API reports it, as kept, and as recounted. */
  async function expectMemberCountExact(groupId: string): Promise<void> {
    const response = await call('GET', `/v1/admin/node_group?group_id=${groupId}&num_records=1`);
    expect(response.statusCode, response.body).toBe(200);
    const reported = response.json<GroupList>().groups[0]?.total;
    expect(reported).toBe(await recountMembers(server.database.db, groupId));
  }

  const createGroup = async (name: string, nodes?: string[]): Promise<string> => {
    const response = await call('POST', '/v1/admin/node_group', {
      group_name: name,
      ...(nodes ? { nodes } : {}),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ group_id: string }>().group_id;
  };

  beforeAll(async () => {
    server = await createTestServer(dialect);
    token = (await apiLogin(server.app)).accesstoken;
    const response = await call('POST', '/v1/admin/node_ids', {
      nodes: nodeIds.map((id, i) => ({
        node_id: id,
        type: 'Refrigerator',
        model: 'FD-1',
        fw_version: '1.0.0',
        tags: [`location:Swap${i % 2}`, `team:${i % 2 ? 'red' : 'blue'}`],
      })),
    });
    expect(response.statusCode, response.body).toBe(200);
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers every tag update of nodes swapping cities and teams in parallel with 200', async () => {
    for (let round = 1; round <= 8; round += 1) {
      // Node i moves where node i+1 leaves, so the counter rows are taken in both orders; odd
      // rounds move the city (its facet and its tag), even rounds only the team tag.
      const city = (i: number) => `location:Swap${(i + Math.ceil(round / 2)) % 2}`;
      const team = (i: number) => `team:${(i + Math.floor(round / 2)) % 2 ? 'red' : 'blue'}`;
      const responses = await Promise.all(
        nodeIds.map((id, i) =>
          call('PUT', `/v1/admin/nodes?node_id=${id}`, { tags: [city(i), team(i)] }),
        ),
      );
      const statuses = responses.map((response) => response.statusCode);
      expect(tally(statuses), `round ${round}`).toEqual({ 200: NODE_COUNT });
    }
    await expectFacetCountsExact();
  }, 120_000);

  it('answers every add and remove of a burst on one group with 200', async () => {
    const groupId = await createGroup('cw-burst');
    const next = random(11);
    for (let round = 0; round < 8; round += 1) {
      const responses = await Promise.all(
        Array.from({ length: 40 }, () => {
          // About a third of the nodes, in a random order, as a client may send them.
          const picked = nodeIds
            .filter(() => next() < 0.3)
            .map((id) => ({ id, key: next() }))
            .sort((a, b) => a.key - b.key)
            .map(({ id }) => id);
          return call('PUT', `/v1/admin/node_group?group_id=${groupId}`, {
            operation: next() < 0.5 ? 'add' : 'remove',
            nodes: picked.length > 0 ? picked : [nodeIds[0]],
          });
        }),
      );
      const statuses = responses.map((response) => response.statusCode);
      expect(tally(statuses), `round ${round}`).toEqual({ 200: 40 });
    }
    await expectMemberCountExact(groupId);
  }, 120_000);

  it('answers adding nodes to a group being deleted with 200 or the missing-group 404', async () => {
    const outcomes: number[] = [];
    for (let i = 0; i < 15; i += 1) {
      const groupId = await createGroup(`cw-add-delete-${i}`, nodeIds.slice(0, 10));
      const [added, deleted] = await Promise.all([
        call('PUT', `/v1/admin/node_group?group_id=${groupId}`, {
          operation: 'add',
          nodes: nodeIds.slice(10),
        }),
        call('DELETE', `/v1/admin/node_group?group_id=${groupId}`),
      ]);
      outcomes.push(added.statusCode, deleted.statusCode);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect([200, 404], added.body).toContain(added.statusCode);
      if (added.statusCode === 404)
        expect(added.json()).toMatchObject({ description: SERVER_MESSAGES.groupNotFound });
      // Nothing of the group is left behind, whichever came first.
      expect(await recountMembers(server.database.db, groupId)).toBe(0);
      const counts = await server.database.db
        .selectFrom('node_group_counts')
        .select('n')
        .where('group_id', '=', groupId)
        .execute();
      expect(counts).toEqual([]);
    }
    expect(outcomes.filter((status) => status >= 500)).toEqual([]);
  });

  it('answers bulk registrations racing tag updates and group changes with 200', async () => {
    // An automatic group every new Refrigerator in Swap1 joins, and a static one edited meanwhile.
    const automatic = await call('POST', '/v1/admin/node_group', {
      group_name: 'cw-auto-fridges',
      node_type: 'Refrigerator',
      node_city: 'Swap1',
    });
    expect(automatic.statusCode, automatic.body).toBe(200);
    const staticGroup = await createGroup('cw-static', nodeIds.slice(0, 5));
    const next = random(23);
    for (let round = 0; round < 6; round += 1) {
      const batches = Array.from({ length: 8 }, (_, b) =>
        Array.from({ length: 15 }, (_, n) => ({
          node_id: `cw-reg-${round}-${b}-${n}`,
          type: n % 3 === 0 ? 'Washing Machine' : 'Refrigerator',
          model: 'FD-2',
          fw_version: '1.0.0',
          tags: [`location:Swap${(b + n) % 2}`, `team:${n % 2 ? 'red' : 'blue'}`],
        })),
      );
      const responses = await Promise.all([
        ...batches.map((nodes) => call('POST', '/v1/admin/node_ids', { nodes })),
        ...nodeIds.map((id, i) =>
          call('PUT', `/v1/admin/nodes?node_id=${id}`, {
            tags: [`location:Swap${(i + round) % 2}`, `team:${next() < 0.5 ? 'red' : 'blue'}`],
          }),
        ),
        ...Array.from({ length: 6 }, () =>
          call('PUT', `/v1/admin/node_group?group_id=${staticGroup}`, {
            operation: next() < 0.5 ? 'add' : 'remove',
            nodes: nodeIds.filter(() => next() < 0.3).concat(nodeIds[0]!),
          }),
        ),
      ]);
      const statuses = responses.map((response) => response.statusCode);
      expect(tally(statuses), `round ${round}`).toEqual({ 200: responses.length });
    }
    await expectFacetCountsExact();
    await expectMemberCountExact(automatic.json<{ group_id: string }>().group_id);
    await expectMemberCountExact(staticGroup);
  }, 180_000);

  it('answers 503 with the write-conflict message when a deadlock outlives the retries', async () => {
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    const spy = vi.spyOn(server.services.nodes, 'setTags').mockRejectedValueOnce(deadlock);
    try {
      const response = await call('PUT', `/v1/admin/nodes?node_id=${nodeIds[0]}`, {
        tags: ['location:Swap0'],
      });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('1');
      expect(response.json()).toEqual({
        status: 'failure',
        description: SERVER_MESSAGES.writeConflict,
        error_code: ERROR_CODES.writeConflict,
      });
    } finally {
      spy.mockRestore();
    }
  });
});
