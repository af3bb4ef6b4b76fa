import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql, type Kysely, type QueryExecutor } from 'kysely';
import {
  NODE_STATUSES,
  AdminNodesListSchema,
  type NodeInfo,
  type NodeStatus,
} from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ID_VERSION_COUNTER,
  cityKey,
  explainCountNodes,
  explainListNodes,
  insertNodes,
  rebuildCounters,
  readStatusCounters,
  readCounter,
  type NodeFilter,
} from '../src/repositories/node.repository.js';
import type { Database } from '../src/db/schema.js';
import { NodeService } from '../src/services/nodes/node.service.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

const TYPES = ['Air Conditioner', 'Refrigerator', 'Washing Machine'] as const;
const CITIES = ['Mumbai', 'Kolkata', 'Pune', 'Delhi', 'banglore', 'Other'] as const;

/** The filter combinations the spec's screens send, as the repository receives them. */
const SPEC_FILTERS: NodeFilter[] = [
  // The Dashboard's node list call (§7): online or offline, type and city, reading the total.
  { status: 'online', type: 'Refrigerator', city: 'pune' },
  { status: 'offline', city: 'pune' },
  // Geo Region: device type and location.
  { type: 'Refrigerator', city: 'pune' },
  // Manage device and Device reports: status with a device-id search, and with a type.
  { status: 'online', search: 'N00' },
  { status: 'online', type: 'Refrigerator', search: 'N00' },
];

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

  /** A query plan; on PostgreSQL with sequential scans priced out, as the tiny tables need. */
  const explain = (read: (db: Kysely<Database>, postgres: boolean) => Promise<string>) =>
    dialect === 'postgres'
      ? server.database.db.transaction().execute(async (trx) => {
          // Tiny test tables make a sequential scan cheapest; ask what the planner does with indexes.
          await sql`SET LOCAL enable_seqscan = off`.execute(trx);
          return read(trx, true);
        })
      : read(server.database.db, false);

  /** A plan reads nodes only through indexes (or reads a maintained counter and no node). */
  const expectIndexed = (plan: string, label: string) => {
    if (dialect === 'postgres') {
      expect(plan, `${label}\n${plan}`).toMatch(/Index (Only )?Scan|Bitmap Index Scan/);
      expect(plan, `${label}\n${plan}`).not.toMatch(/Seq Scan on nodes/);
    } else {
      expect(plan, `${label}\n${plan}`).toMatch(
        /USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY|USING PRIMARY KEY/,
      );
      expect(plan, `${label}\n${plan}`).not.toMatch(/SCAN nodes(?! USING)/);
    }
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

  it('reads every filter from an index, on the first page, from a cursor and for its total (query plans)', async () => {
    const filters: NodeFilter[] = [
      { nodeId: 'N0007' },
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
      // The spec's combinations (§2 search screens, §7 status, type and city with data.total).
      ...SPEC_FILTERS,
      { nodeId: 'N0007', status: 'not_activated' },
      { model: 'FD-1', fwVersion: '1.0.0', tag: 'batch:one' },
    ];
    for (const filter of filters) {
      for (const startId of [undefined, 'N0030']) {
        const label = `${JSON.stringify(filter)} from ${startId ?? 'the start'}`;
        const plan = await explain((db, postgres) =>
          explainListNodes(db, filter, postgres, startId),
        );
        expectIndexed(plan, label);
        if (dialect === 'postgres') {
          // ADR 33: a list with one condition (or none) runs its generic plan, which shows the
          // parameters; one with several conditions, or the own-nodes union, is planned for its
          // values, which the plan shows instead. (Its total's subquery is part of the plan.)
          const conditions = Object.keys(filter).length;
          const generic = conditions === 0 || (conditions === 1 && filter.userId === undefined);
          // (`InitPlan 1 (returns $0)` is the total's subquery, not a parameter.)
          const parameters = /\$\d/.test(plan.replace(/returns \$\d+/g, ''));
          expect(parameters, `${label}\n${plan}`).toBe(generic);
        }
      }
      // The total read on its own (a page past the end has no row to carry it).
      const label = `total of ${JSON.stringify(filter)}`;
      expectIndexed(
        await explain((db, postgres) => explainCountNodes(db, filter, postgres)),
        label,
      );
    }
  });

  it('reads the combined filters of the spec and their totals from indexes at fleet scale (query plans)', async () => {
    // 5,000 more nodes spread as a fleet is (most online, 24 cities, unique serials), with the
    // planner's statistics on PostgreSQL, where autovacuum keeps them; SQLite plans without
    // statistics, as the product runs it (ADR 36). All rolled back, so the other tests see
    // their fleet.
    const rollback = new Error('rollback');
    const plans = await server.database.db
      .transaction()
      .execute(async (trx) => {
        const postgres = dialect === 'postgres';
        const rows = Array.from({ length: 5000 }, (_, i) => {
          const city = i % 4 === 0 ? cityKey(CITIES[i % 6] ?? 'Pune') : `city-${i % 24}`;
          return {
            node_id: `S${String(i).padStart(5, '0')}`,
            name: '',
            type: TYPES[i % 3] ?? 'Refrigerator',
            model: `FD-${i % 12}`,
            fw_version: `1.${i % 7}.0`,
            city,
            serial: `SERIAL-${i}`,
            tags: JSON.stringify([`location:${city}`, `esp.serial_num:SERIAL-${i}`]),
            credential_hash: 'x',
            broker_credential: null,
            secret_key_hash: 'x',
            registered_at: 1,
            activated_at: null,
            connected: i % 10 < 7 ? 1 : i % 10 < 9 ? 0 : null,
            conn_changed_at: null,
            conn_session: 0,
            params: null,
            config_updated_at: null,
            params_updated_at: null,
            last_activity_at: null,
            primary_user_id: null,
            claimed_at: null,
          };
        });
        await insertNodes(trx, rows);
        // PostgreSQL plans from the statistics its autovacuum keeps; SQLite has none (ADR 36).
        if (postgres) await sql`ANALYZE nodes`.execute(trx);
        const explained: Array<[string, string]> = [];
        for (const filter of [
          ...SPEC_FILTERS,
          { status: 'online', serial: 'SERIAL-17' },
          { status: 'online', model: 'FD-3', fwVersion: '1.2.0' },
        ] as const) {
          const label = JSON.stringify(filter);
          explained.push([`total of ${label}`, await explainCountNodes(trx, filter, postgres)]);
          for (const startId of [undefined, 'S02500'])
            explained.push([
              `${label} from ${startId ?? 'the start'}`,
              await explainListNodes(trx, filter, postgres, startId),
            ]);
        }
        throw Object.assign(rollback, { explained });
      })
      .catch((error: unknown) => {
        if (error !== rollback) throw error;
        return (rollback as Error & { explained: Array<[string, string]> }).explained;
      });
    for (const [label, plan] of plans) expectIndexed(plan, label);
    // A status combined with a rare value reads the rare value's index, not every online node:
    // a serial number is one node, a city one node in ten (ADR 36).
    const planOf = (label: string) => {
      const plan = plans.find(([name]) => name === label)?.[1];
      expect(plan, label).toBeDefined();
      return plan ?? '';
    };
    const bySerial = '{"status":"online","serial":"SERIAL-17"}';
    for (const label of [`${bySerial} from the start`, `total of ${bySerial}`])
      expect(planOf(label), label).toMatch(/nodes_serial_idx/);
    if (dialect === 'sqlite') {
      const byCity = '{"status":"offline","city":"pune"}';
      for (const label of [
        `${byCity} from the start`,
        `${byCity} from S02500`,
        `total of ${byCity}`,
      ])
        expect(planOf(label), label).toMatch(/nodes_city_idx/);
      const byModel = '{"status":"online","model":"FD-3","fwVersion":"1.2.0"}';
      expect(planOf(`${byModel} from the start`)).not.toMatch(/nodes_connected_idx/);
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

/** A node of the generated fleet the paging properties walk. */
interface FleetNode {
  node_id: string;
  type: string;
  model: string;
  fw_version: string;
  city: string;
  serial: string;
  tags: string[];
}

type FilterKey =
  | 'node_id'
  | 'search'
  | 'node_status'
  | 'type'
  | 'model'
  | 'fw_version'
  | 'tags'
  | 'city'
  | 'serial';
const FILTER_KEYS: readonly FilterKey[] = [
  'node_id',
  'search',
  'node_status',
  'type',
  'model',
  'fw_version',
  'tags',
  'city',
  'serial',
];
/** The combinations the spec's screens send (Devices list, Geo Region, Dashboard, reports). */
const SPEC_COMBINATIONS: readonly FilterKey[][] = [
  ['node_status', 'type'],
  ['node_status', 'type', 'city'],
  ['node_status', 'city'],
  ['type', 'city'],
  ['node_status', 'search'],
  ['node_status', 'type', 'search'],
];
/** A list query as the API receives it: filter values as typed, before trimming. */
type ListQuery = Partial<Record<FilterKey, string>>;

const MODELS = ['FD-100', 'FD-200', 'FD 300', 'X1'] as const;
const VERSIONS = ['1.0.0', '1.2.0', '2.0.0-rc1'] as const;
// Prefixes of one another and on both sides of the digits, '_' and the lower-case letters in
// code-point order, so searches and cursors cross every boundary of the id order.
const ID_PREFIXES = ['A', 'AB', 'ABC', 'B', 'b', 'C-', 'C_', '9'] as const;

/** 80 nodes with unique ids, generated once from a fixed seed, and each node's first state. */
function generatedFleet(): { nodes: FleetNode[]; states: Map<string, NodeStatus> } {
  const node = fc.record({
    node_id: fc
      .tuple(fc.constantFrom(...ID_PREFIXES), fc.stringMatching(/^[0-9A-F]{2,3}$/))
      .map(([prefix, rest]) => prefix + rest),
    type: fc.constantFrom(...TYPES),
    model: fc.constantFrom(...MODELS),
    fw_version: fc.constantFrom(...VERSIONS),
    city: fc.constantFrom(...CITIES),
    batch: fc.constantFrom('batch:one', 'batch:two'),
    state: fc.constantFrom(...NODE_STATUSES),
  });
  const [drawn] = fc.sample(
    fc.uniqueArray(node, { minLength: 80, maxLength: 80, selector: (n) => n.node_id }),
    { seed: 20_240_601, numRuns: 1 },
  );
  const nodes: FleetNode[] = [];
  const states = new Map<string, NodeStatus>();
  for (const { batch, state, ...n } of drawn ?? []) {
    // `b1A` and `B1A` share the serial key `SN-B1A`: a serial search finds both.
    const serial = `sn-${n.node_id}`;
    nodes.push({ ...n, serial, tags: [`location:${n.city}`, `esp.serial_num:${serial}`, batch] });
    states.set(n.node_id, state);
  }
  return { nodes, states };
}

/** A filter value with the blanks a user might type around it (the API trims them). */
const padded = (value: fc.Arbitrary<string>) =>
  fc
    .tuple(fc.constantFrom('', ' ', '  '), value, fc.constantFrom('', ' ', '\t'))
    .map(([before, core, after]) => before + core + after);
const anyCase = (value: fc.Arbitrary<string>) =>
  fc
    .tuple(value, fc.constantFrom('as is', 'lower', 'upper'))
    .map(([text, casing]) =>
      casing === 'lower' ? text.toLowerCase() : casing === 'upper' ? text.toUpperCase() : text,
    );

/** Whether a node in a state matches a list query, as the spec reads each filter. */
function matchesQuery(node: FleetNode, state: NodeStatus, query: ListQuery): boolean {
  return FILTER_KEYS.every((key) => {
    // Blank values are no filter (a whitespace-only search restores the full list).
    const value = query[key]?.trim();
    if (!value) return true;
    switch (key) {
      case 'node_id':
        return node.node_id === value;
      case 'search':
        return node.node_id.startsWith(value);
      case 'node_status':
        return state === value;
      case 'type':
        return node.type === value;
      case 'model':
        return node.model === value;
      case 'fw_version':
        return node.fw_version === value;
      case 'tags':
        return node.tags.includes(value);
      case 'city':
        return node.city.toLowerCase() === value.toLowerCase();
      case 'serial':
        return node.serial.toUpperCase() === value.toUpperCase();
    }
  });
}

/** One page of a walk, with what the test knew of the fleet when it asked for it. */
interface WalkedPage {
  startId: string | undefined;
  nodes: string[];
  statuses: string[];
  total: number;
  nextId: string | undefined;
  states: ReadonlyMap<string, NodeStatus>;
}

describe.each(DIALECTS)('fleet list paging properties on %s', (dialect) => {
  let server: TestServer;
  let token: string;
  const { nodes: fleetNodes, states } = generatedFleet();
  const ids = fleetNodes.map((n) => n.node_id);
  let session = 0;

  /** Moves nodes online or offline through the ingest path the gateway uses, and commits. */
  const setConnectivity = async (changes: ReadonlyArray<[string, boolean]>) => {
    for (const [nodeId, online] of changes) {
      session += 1;
      if (online) server.services.ingest.nodeConnected(nodeId, session, Date.now());
      else server.services.ingest.nodeDisconnected(nodeId, session, Date.now());
      states.set(nodeId, online ? 'online' : 'offline');
    }
    await server.services.ingest.flush();
  };

  /** Follows next_id from the first page to the last; `between` runs before every later page. */
  const walk = async (
    query: ListQuery,
    size: number,
    between: (page: number) => Promise<void> = async () => {},
  ): Promise<WalkedPage[]> => {
    const pages: WalkedPage[] = [];
    let startId: string | undefined;
    do {
      if (pages.length > 0) await between(pages.length);
      if (pages.length > fleetNodes.length + 1) throw new Error('the walk does not end');
      const params = new URLSearchParams({ num_records: String(size) });
      for (const key of FILTER_KEYS) {
        const value = query[key];
        if (value !== undefined) params.set(key, value);
      }
      if (startId !== undefined) params.set('start_id', startId);
      const response = await server.app.inject({
        method: 'GET',
        url: `/v1/admin/nodes?${params.toString()}`,
        headers: { authorization: token },
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = AdminNodesListSchema.parse(response.json());
      pages.push({
        startId,
        nodes: body.nodes,
        statuses: body.node_info.map((info) => info.node_status),
        total: body.total,
        nextId: body.next_id,
        states: new Map(states),
      });
      startId = body.next_id;
    } while (startId !== undefined);
    return pages;
  };

  const valueOf: { [K in FilterKey]: fc.Arbitrary<string> } = {
    node_id: fc.constantFrom(...ids, 'NOPE-1'),
    search: padded(
      fc.oneof(
        fc
          .tuple(fc.constantFrom(...ids), fc.nat())
          .map(([id, n]) => id.slice(0, 1 + (n % id.length))),
        fc.constantFrom('', 'Z', 'a', 'AB0'),
      ),
    ),
    node_status: fc.constantFrom(...NODE_STATUSES),
    type: padded(fc.constantFrom(...TYPES)),
    model: padded(fc.constantFrom(...MODELS, 'FD-999')),
    fw_version: padded(fc.constantFrom(...VERSIONS)),
    tags: padded(
      fc.constantFrom(
        'batch:one',
        'batch:two',
        'location:Pune',
        'location:banglore',
        `esp.serial_num:sn-${ids[0] ?? ''}`,
      ),
    ),
    city: padded(anyCase(fc.constantFrom(...CITIES, 'Atlantis'))),
    serial: padded(anyCase(fc.constantFrom(...fleetNodes.map((n) => n.serial)))),
  };
  /** Up to three filters, or one of the spec's combinations, with values for them. */
  const queryOf = (keys: fc.Arbitrary<FilterKey[]>): fc.Arbitrary<ListQuery> =>
    fc.tuple(keys, fc.record(valueOf)).map(([chosen, values]) => {
      const query: ListQuery = {};
      for (const key of chosen) query[key] = values[key];
      return query;
    });
  // Mostly small pages, so most walks take several; now and then up to the largest page.
  const pageSize = fc.oneof(
    { arbitrary: fc.integer({ min: 1, max: 3 }), weight: 3 },
    { arbitrary: fc.integer({ min: 4, max: 12 }), weight: 2 },
    { arbitrary: fc.integer({ min: 13, max: 100 }), weight: 1 },
  );

  beforeAll(async () => {
    server = await createTestServer(dialect);
    token = (await apiLogin(server.app)).accesstoken;
    const response = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/node_ids',
      headers: { authorization: token },
      payload: {
        nodes: fleetNodes.map(({ city: _city, serial: _serial, ...n }) => n),
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    // Every node registers not activated; the online ones connect, the offline ones also drop.
    const first = new Map(states);
    await setConnectivity(
      ids.filter((id) => first.get(id) !== 'not_activated').map((id) => [id, true]),
    );
    await setConnectivity(ids.filter((id) => first.get(id) === 'offline').map((id) => [id, false]));
  });
  afterAll(async () => {
    await server.close();
  });

  // QUALITY R9: paging visits every matching node exactly once, for any filter and page size.
  it('pages through exactly the matching nodes once each, with the exact total on every page (property-based)', async () => {
    expect(new Set(states.values())).toEqual(new Set(NODE_STATUSES));
    await fc.assert(
      fc.asyncProperty(
        queryOf(
          fc.oneof(
            fc.subarray([...FILTER_KEYS], { maxLength: 3 }),
            fc.constantFrom(...SPEC_COMBINATIONS),
          ),
        ),
        pageSize,
        async (query, size) => {
          const label = `${JSON.stringify(query)} by ${size}`;
          const pages = await walk(query, size);
          const expected = fleetNodes
            .filter((n) => matchesQuery(n, states.get(n.node_id) ?? 'not_activated', query))
            .map((n) => n.node_id)
            .sort();
          // In node-id order (code points, both databases), each once, none missing.
          expect(
            pages.flatMap((page) => page.nodes),
            label,
          ).toEqual(expected);
          for (const page of pages) {
            expect(page.total, label).toBe(expected.length);
            expect(page.statuses, label).toEqual(page.nodes.map((id) => states.get(id)));
            // Every page but the last is full; the cursor is the first node of the next page.
            if (page.nextId === undefined)
              expect(page.nodes.length, label).toBeLessThanOrEqual(size);
            else {
              expect(page.nodes.length, label).toBe(size);
              expect(page.nextId > (page.nodes.at(-1) ?? ''), label).toBe(true);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  // What keyset paging by node_id guarantees while the status filter's membership changes
  // between pages. Each page reads the ids from its cursor up to the next cursor, in one
  // statement: the cursors cut the id space into consecutive ranges, and a node is read exactly
  // once, by the page whose range holds its id, as the node was when that page was read. So: no
  // node twice, ever; every node matching throughout the walk is visited; a node that stopped
  // matching before its page was read is not; a node that started matching after its page was
  // read is not; and a node matching at the start and at the end but not while its page was
  // read is not visited either (no paging without a snapshot can do better, and the list keeps
  // none across requests). Each page's total is the exact count as of that page.
  it('visits every node that keeps matching exactly once while nodes connect and disconnect between pages (property-based)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...NODE_STATUSES),
        queryOf(
          fc.oneof(
            fc.subarray(
              FILTER_KEYS.filter((key) => key !== 'node_status'),
              { maxLength: 2 },
            ),
            fc.constantFrom<FilterKey[]>([], ['type'], ['type', 'city'], ['search']),
          ),
        ),
        pageSize,
        fc.infiniteStream(
          fc.array(fc.tuple(fc.constantFrom(...ids), fc.boolean()), { maxLength: 6 }),
        ),
        async (status, others, size, changes) => {
          const query: ListQuery = { ...others, node_status: status };
          const label = `${JSON.stringify(query)} by ${size}`;
          const pages = await walk(query, size, async () => {
            const next = changes.next();
            if (!next.done) await setConnectivity(next.value);
          });
          const seen = pages.flatMap((page) => page.nodes);
          expect(new Set(seen).size, label).toBe(seen.length);
          expect(seen, label).toEqual([...seen].sort());
          // The page that read a node: the last one whose cursor is at or before its id.
          const readBy = (id: string) => pages.findLast((page) => (page.startId ?? '') <= id);
          const expected = fleetNodes
            .filter((n) => {
              const page = readBy(n.node_id);
              return page && matchesQuery(n, page.states.get(n.node_id) ?? 'not_activated', query);
            })
            .map((n) => n.node_id)
            .sort();
          expect(seen, label).toEqual(expected);
          const throughout = fleetNodes.filter((n) =>
            pages.every((page) =>
              matchesQuery(n, page.states.get(n.node_id) ?? 'not_activated', query),
            ),
          );
          for (const n of throughout) expect(seen, label).toContain(n.node_id);
          for (const page of pages) {
            const matching = fleetNodes.filter((n) =>
              matchesQuery(n, page.states.get(n.node_id) ?? 'not_activated', query),
            );
            expect(page.total, label).toBe(matching.length);
            expect(page.statuses, label).toEqual(page.nodes.map((id) => page.states.get(id)));
          }
        },
      ),
      { numRuns: 30 },
    );
    // The maintained status counters followed every change.
    const maintained = await readStatusCounters(server.database.db);
    expect(await rebuildCounters(server.database.db)).toEqual(maintained);
  });
});
