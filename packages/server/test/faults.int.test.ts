import {
  DEFAULT_FAULT_CATALOGUES,
  ERROR_CODES,
  FAULT_PARAM_BY_TYPE,
  MESSAGES,
  NODE_TYPES,
  SERVER_MESSAGES,
  type FaultBreakdown,
  type FaultHistory,
  type FaultNodesList,
  type NodeType,
  type ParamByValueCount,
  type ParamValueList,
} from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

/** A tiny seeded generator, so a failing run can be repeated. */
function lcg(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

interface FleetNode {
  node_id: string;
  type: NodeType;
  model: string;
  fw_version: string;
  city: string;
}

const DEVICE: Record<NodeType, string> = {
  'Air Conditioner': 'Air Conditioner',
  Refrigerator: 'Fridge',
  'Washing Machine': 'Washer',
};

function countBy<T>(items: readonly T[], key: (item: T) => string) {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].map(([value, count]) => ({ value, count }));
}
const byValue = (a: { value: string }, b: { value: string }) =>
  a.value < b.value ? -1 : a.value > b.value ? 1 : 0;

describe.each(DIALECTS)('faults on %s', (dialect) => {
  let server: TestServer;
  let token: string;
  const fleet: FleetNode[] = [];
  /** Two refrigerators the history tests drive by hand. */
  const historyNodes: FleetNode[] = ['HIST1', 'HIST2'].map((node_id) => ({
    node_id,
    type: 'Refrigerator',
    model: 'R',
    fw_version: '1',
    city: '',
  }));
  /** What each node reports now, as the test sent it ('' = no fault). */
  const reported = new Map<string, string>();
  let clock = 1_800_000_000_000;

  const call = (method: 'GET' | 'PUT', url: string, payload?: object) =>
    server.app.inject({
      method,
      url,
      headers: { authorization: token },
      ...(payload ? { payload } : {}),
    });
  const sendFault = (node: FleetNode, value: number | string | null, init = false) => {
    clock += 1000;
    server.services.ingest.nodeParams(
      node.node_id,
      { [DEVICE[node.type]]: { [FAULT_PARAM_BY_TYPE[node.type]]: value } },
      init,
      clock,
    );
    reported.set(node.node_id, value === null || value === 0 || value === '' ? '' : String(value));
  };
  const historyRows = async (nodeId: string) =>
    server.database.db
      .selectFrom('node_fault_history')
      .select(['value', 'timestamp'])
      .where('node_id', '=', nodeId)
      .orderBy('id')
      .execute();

  beforeAll(async () => {
    server = await createTestServer(dialect);
    token = (await apiLogin(server.app)).accesstoken;
    const random = lcg(20260101);
    const cities = ['Pune', 'Delhi', 'Mumbai', 'Kolkata'];
    for (let i = 0; i < 90; i++) {
      const type = NODE_TYPES[i % 3] as NodeType;
      fleet.push({
        node_id: `F${String(i).padStart(3, '0')}`,
        type,
        model: `M-${Math.floor(random() * 3)}`,
        fw_version: ['2.0.0', '2.1.0', '2.2.0'][Math.floor(random() * 3)] ?? '2.0.0',
        city: cities[Math.floor(random() * cities.length)] ?? 'Pune',
      });
    }
    const registered = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/node_ids',
      headers: { authorization: token },
      payload: {
        nodes: [
          ...fleet.map((node) => ({
            node_id: node.node_id,
            type: node.type,
            model: node.model,
            fw_version: node.fw_version,
            tags: [`location:${node.city}`],
          })),
          { node_id: 'HIST1', type: 'Refrigerator', model: 'R', fw_version: '1', tags: [] },
          { node_id: 'HIST2', type: 'Refrigerator', model: 'R', fw_version: '1', tags: [] },
        ],
      },
    });
    expect(registered.statusCode, registered.body).toBe(200);
  });
  afterAll(async () => {
    await server.close();
  });

  describe('fault catalogues (common_custom_data)', () => {
    it('installs a default catalogue per appliance type, readable as value and as data[0].value', async () => {
      for (const [name, type] of [
        ['ac_faults', 'Air Conditioner'],
        ['refrigerator_faults', 'Refrigerator'],
        ['washing_machine_faults', 'Washing Machine'],
      ] as const) {
        const response = await call('GET', `/v1/admin/common_custom_data?name=${name}`);
        expect(response.statusCode).toBe(200);
        const body = response.json<{
          name: string;
          value: unknown;
          data: Array<{ value: unknown }>;
        }>();
        expect(body.name).toBe(name);
        expect(body.value).toEqual(DEFAULT_FAULT_CATALOGUES[type]);
        expect(body.data[0]?.value).toEqual(DEFAULT_FAULT_CATALOGUES[type]);
        expect(DEFAULT_FAULT_CATALOGUES[type].length).toBeGreaterThanOrEqual(6);
      }
      const all = await call('GET', '/v1/admin/common_custom_data');
      expect(all.json<{ data: Array<{ name: string }> }>().data.map((d) => d.name)).toEqual([
        'ac_faults',
        'refrigerator_faults',
        'washing_machine_faults',
      ]);
    });

    it("answers an unknown name with Name doesn't exist", async () => {
      const response = await call('GET', '/v1/admin/common_custom_data?name=nothing_here');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        status: 'failure',
        description: SERVER_MESSAGES.customDataNameNotFound,
        error_code: ERROR_CODES.customDataNameNotFound,
      });
    });

    it('lets a super admin replace a catalogue and refuses invalid ones', async () => {
      const edited = [
        ...DEFAULT_FAULT_CATALOGUES['Washing Machine'],
        { err_code: '99', disp_code: 'E99', description: 'Child lock stuck' },
      ];
      const saved = await call('PUT', '/v1/admin/common_custom_data', {
        name: 'washing_machine_faults',
        value: edited,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const read = await call('GET', '/v1/admin/common_custom_data?name=washing_machine_faults');
      expect(read.json<{ value: unknown }>().value).toEqual(edited);

      const invalid: Array<[unknown, string]> = [
        [
          [
            { err_code: '1', disp_code: 'E1', description: 'a' },
            { err_code: '1', disp_code: 'E2', description: 'b' },
          ],
          'Duplicate err_code 1',
        ],
        [[{ err_code: '1', disp_code: 'E1' }], 'description is required'],
        [[], 'A fault catalogue needs at least one fault definition'],
        ['text', 'value must be an array of fault definitions'],
        [null, SERVER_MESSAGES.faultCatalogueNotDeletable],
      ];
      for (const [value, message] of invalid) {
        const response = await call('PUT', '/v1/admin/common_custom_data', {
          name: 'washing_machine_faults',
          value,
        });
        expect(response.statusCode, JSON.stringify(value)).toBe(400);
        expect(response.json()).toMatchObject({ status: 'failure', description: message });
      }
      const after = await call('GET', '/v1/admin/common_custom_data?name=washing_machine_faults');
      expect(after.json<{ value: unknown }>().value).toEqual(edited);
    });

    it('merges object values key-wise and deletes with null for other names', async () => {
      await call('PUT', '/v1/admin/common_custom_data', {
        name: 'branding',
        value: { a: 1, b: 2 },
      });
      await call('PUT', '/v1/admin/common_custom_data', {
        name: 'branding',
        value: { b: null, c: 3 },
      });
      const merged = await call('GET', '/v1/admin/common_custom_data?name=branding');
      expect(merged.json<{ value: unknown }>().value).toEqual({ a: 1, c: 3 });
      const removed = await call('PUT', '/v1/admin/common_custom_data', {
        name: 'branding',
        value: null,
      });
      expect(removed.json()).toMatchObject({ description: SERVER_MESSAGES.customDataDeleted });
      expect((await call('GET', '/v1/admin/common_custom_data?name=branding')).statusCode).toBe(
        400,
      );
    });
  });

  describe('fault history through the ingest', () => {
    it('appends a row on every change only: duplicates and unrelated params add nothing', async () => {
      const node = {
        node_id: 'HIST1',
        type: 'Refrigerator' as const,
        model: 'R',
        fw_version: '1',
        city: '',
      };
      const ingest = server.services.ingest;
      sendFault(node, 0, true); // a healthy start is not a change
      await ingest.flush();
      expect(await historyRows('HIST1')).toEqual([]);
      sendFault(node, 5);
      await ingest.flush();
      sendFault(node, 5); // the same value again
      await ingest.flush();
      clock += 1000;
      ingest.nodeParams('HIST1', { Fridge: { Temp: 4 } }, false, clock); // no fault param
      await ingest.flush();
      ingest.nodeParams('HIST1', { Fridge: { Temp: 3, RefFault: 5 } }, true, clock + 1); // init, same
      await ingest.flush();
      expect((await historyRows('HIST1')).map((row) => row.value)).toEqual(['5']);
      sendFault(node, 7);
      await ingest.flush();
      sendFault(node, 0); // cleared
      await ingest.flush();
      sendFault(node, null); // still clear
      await ingest.flush();
      const rows = await historyRows('HIST1');
      expect(rows.map((row) => row.value)).toEqual(['5', '7', '']);
      const current = await server.database.db
        .selectFrom('node_faults')
        .selectAll()
        .where('node_id', '=', 'HIST1')
        .execute();
      expect(current).toEqual([]);

      const history = await call('GET', '/v1/admin/faults/history?node_id=HIST1');
      expect(history.statusCode, history.body).toBe(200);
      const [entry] = history.json<FaultHistory>().nodes;
      expect(entry?.current).toBeNull();
      expect(entry?.faults.map((f) => [f.err_code, f.disp_code, f.cleared])).toEqual([
        ['', '', true],
        ['7', 'E7', false],
        ['5', 'E5', false],
      ]);
      expect(entry?.faults[2]?.description).toBe(
        DEFAULT_FAULT_CATALOGUES.Refrigerator.find((d) => d.err_code === '5')?.description,
      );
    });

    it('coalesces changes inside one batch to the value that stands at the end', async () => {
      const node = {
        node_id: 'HIST2',
        type: 'Refrigerator' as const,
        model: 'R',
        fw_version: '1',
        city: '',
      };
      sendFault(node, 3);
      sendFault(node, 4);
      await server.services.ingest.flush();
      expect((await historyRows('HIST2')).map((row) => row.value)).toEqual(['4']);
    });
  });

  describe('over a random fleet', () => {
    beforeAll(async () => {
      const random = lcg(7);
      // Three rounds of raising, changing and clearing faults, flushed between rounds.
      for (let round = 0; round < 3; round++) {
        for (const node of fleet) {
          if (random() < 0.3) continue;
          const codes = DEFAULT_FAULT_CATALOGUES[node.type].map((d) => d.err_code);
          const pick = random();
          const value = pick < 0.4 ? 0 : Number(codes[Math.floor(random() * 3)]);
          sendFault(node, value, round === 0 && random() < 0.5);
        }
        await server.services.ingest.flush();
      }
    });

    const faulty = (type?: NodeType) =>
      [...fleet, ...historyNodes].filter(
        (n) => (reported.get(n.node_id) ?? '') !== '' && (!type || n.type === type),
      );

    it('lists current values with include and exclude, paging visits each node once', async () => {
      const expected = faulty('Refrigerator')
        .map((n) => ({ node_id: n.node_id, value: reported.get(n.node_id) ?? '' }))
        .sort((a, b) => (a.node_id < b.node_id ? -1 : 1));
      expect(expected.length).toBeGreaterThan(5);
      const seen: Array<{ node_id: string; value: string }> = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const response = await call(
          'GET',
          `/insights/v1/param/value/list?dimensionname=RefFault&datatype=2&limit=4${token ? `&pagetoken=${token}` : ''}`,
        );
        expect(response.statusCode, response.body).toBe(200);
        const body = response.json<ParamValueList>();
        expect(body.totalnodes).toBe(expected.length);
        for (const item of body.list) {
          expect(item.timestamp).toBeGreaterThan(0);
          seen.push({ node_id: item.node_id, value: item.value });
        }
        token = body.pagetoken;
        pages++;
      } while (token && pages < 100);
      expect(seen).toEqual(expected);

      const included = await call(
        'GET',
        '/insights/v1/param/value/list?dimensionname=RefFault&datatype=2&include=1,2&limit=1000',
      );
      const includeBody = included.json<ParamValueList>();
      const wanted = expected.filter((e) => e.value === '1' || e.value === '2');
      expect(includeBody.list.map((i) => i.node_id)).toEqual(wanted.map((e) => e.node_id));
      expect(includeBody.totalnodes).toBe(wanted.length);
      expect(includeBody.pagetoken).toBeUndefined();

      const excluded = await call(
        'GET',
        '/insights/v1/param/value/list?dimensionname=RefFault&datatype=2&exclude=1&limit=1000',
      );
      expect(excluded.json<ParamValueList>().list.map((i) => i.node_id)).toEqual(
        expected.filter((e) => e.value !== '1').map((e) => e.node_id),
      );

      const both = await call(
        'GET',
        '/insights/v1/param/value/list?dimensionname=RefFault&include=1&exclude=2',
      );
      expect(both.statusCode).toBe(400);
      const unknown = await call('GET', '/insights/v1/param/value/list?dimensionname=Temp');
      expect(unknown.statusCode).toBe(400);
    });

    it('counts nodes by value equal to a recount', async () => {
      for (const type of NODE_TYPES) {
        const response = await call(
          'GET',
          `/insights/v1/param/byvalue/count?dimensionname=${FAULT_PARAM_BY_TYPE[type]}&datatype=2`,
        );
        const body = response.json<ParamByValueCount>();
        const expected = countBy(faulty(type), (n) => reported.get(n.node_id) ?? '');
        expect([...body.distribution].sort(byValue)).toEqual(expected.sort(byValue));
        expect(body.totalnodes).toBe(faulty(type).length);
        const counts = body.distribution.map((d) => d.count);
        expect(counts).toEqual([...counts].sort((a, b) => b - a));
      }
      // Paged by one and with an exclusion.
      const pages: Array<{ value: string; count: number }> = [];
      let token: string | undefined;
      do {
        const response = await call(
          'GET',
          `/insights/v1/param/byvalue/count?dimensionname=ACFault&limit=1&exclude=2${token ? `&pagetoken=${token}` : ''}`,
        );
        const body = response.json<ParamByValueCount>();
        pages.push(...body.distribution);
        token = body.pagetoken;
      } while (token);
      expect(pages.sort(byValue)).toEqual(
        countBy(
          faulty('Air Conditioner').filter((n) => reported.get(n.node_id) !== '2'),
          (n) => reported.get(n.node_id) ?? '',
        ).sort(byValue),
      );
    });

    it('breaks the affected devices down by firmware, model and city equal to a recount', async () => {
      for (const type of NODE_TYPES) {
        for (const code of [undefined, '1', '2', 'E3']) {
          const response = await call(
            'GET',
            `/v1/admin/faults/breakdown?type=${encodeURIComponent(type)}${code ? `&code=${code}` : ''}`,
          );
          expect(response.statusCode, response.body).toBe(200);
          const body = response.json<FaultBreakdown>();
          const errCode = code?.startsWith('E') ? code.slice(1) : code;
          const affected = faulty(type).filter(
            (n) => errCode === undefined || reported.get(n.node_id) === errCode,
          );
          expect(body.total).toBe(affected.length);
          expect([...body.by_fw_version].sort(byValue)).toEqual(
            countBy(affected, (n) => n.fw_version).sort(byValue),
          );
          expect([...body.by_model].sort(byValue)).toEqual(
            countBy(affected, (n) => n.model).sort(byValue),
          );
          // Cities as the tags and the spec's region list spell them, not the lower-case keys.
          expect([...body.by_city].sort(byValue)).toEqual(
            countBy(affected, (n) => n.city).sort(byValue),
          );
        }
      }
    });

    it('lists the devices with one fault, with definitions, exact search and paging', async () => {
      const withCode = faulty('Refrigerator').filter((n) => reported.get(n.node_id) === '1');
      expect(withCode.length).toBeGreaterThan(1);
      const ids: string[] = [];
      let start: string | undefined;
      do {
        const response = await call(
          'GET',
          `/v1/admin/faults/nodes?type=Refrigerator&code=1&num_records=1${start ? `&start_id=${start}` : ''}`,
        );
        expect(response.statusCode, response.body).toBe(200);
        const body = response.json<FaultNodesList>();
        expect(body.count).toBe(withCode.length);
        for (const item of body.nodes) {
          expect(item).toMatchObject({ err_code: '1', disp_code: 'E1' });
          expect(item.description).toBe(DEFAULT_FAULT_CATALOGUES.Refrigerator[0]?.description);
          ids.push(item.node_id);
        }
        start = body.next;
      } while (start);
      expect(ids).toEqual(withCode.map((n) => n.node_id).sort());

      const byDisplay = await call('GET', '/v1/admin/faults/nodes?type=Refrigerator&search=E1');
      expect(byDisplay.json<FaultNodesList>().count).toBe(withCode.length);
      const first = withCode[0]?.node_id ?? '';
      const byId = await call('GET', `/v1/admin/faults/nodes?type=Refrigerator&search=${first}`);
      expect(byId.json<FaultNodesList>().nodes.map((n) => n.node_id)).toEqual([first]);
      const prefixOnly = await call(
        'GET',
        `/v1/admin/faults/nodes?type=Refrigerator&search=${first.slice(0, 2)}`,
      );
      expect(prefixOnly.json<FaultNodesList>().count).toBe(0);
      const all = await call('GET', '/v1/admin/faults/nodes?type=Refrigerator&num_records=100');
      expect(all.json<FaultNodesList>().count).toBe(faulty('Refrigerator').length);
    });

    it('pages the fault history by node and says Nodes not found. when nothing matches', async () => {
      const expectedIds = [
        ...new Set(
          (
            await server.database.db.selectFrom('node_fault_history').select('node_id').execute()
          ).map((row) => row.node_id),
        ),
      ].sort();
      const seen: string[] = [];
      let start: string | undefined;
      do {
        const response = await call(
          'GET',
          `/v1/admin/faults/history?num_records=5${start ? `&start_id=${start}` : ''}`,
        );
        expect(response.statusCode, response.body).toBe(200);
        const body = response.json<FaultHistory>();
        expect(body.total).toBe(expectedIds.length);
        for (const node of body.nodes) {
          seen.push(node.node_id);
          const times = node.faults.map((f) => f.timestamp);
          expect(times).toEqual([...times].sort((a, b) => b - a));
          const now = reported.get(node.node_id) ?? '';
          expect(node.current?.err_code ?? '').toBe(now);
          expect(node.faults[0]?.err_code).toBe(now);
        }
        start = body.next_id;
      } while (start);
      expect(seen).toEqual(expectedIds);

      const prefixed = await call('GET', '/v1/admin/faults/history?search=F00&num_records=25');
      expect(prefixed.json<FaultHistory>().nodes.every((n) => n.node_id.startsWith('F00'))).toBe(
        true,
      );
      const none = await call('GET', '/v1/admin/faults/history?search=ZZZ');
      expect(none.statusCode).toBe(404);
      expect(none.json()).toMatchObject({ status: 'failure', description: MESSAGES.nodesNotFound });
    });

    it('shows cities as the spec and the tags spell them, grouping spellings case-insensitively', async () => {
      const spelled: Array<[string, string]> = [
        ['CITY1', 'kolkata'],
        ['CITY2', 'KOLKATA'],
        ['CITY3', 'Kolkata'],
        ['CITY4', 'Navi Mumbai'],
        ['CITY5', 'Navi Mumbai'],
        ['CITY6', 'BANGLORE'],
      ];
      const nodes: FleetNode[] = spelled.map(([node_id, city]) => ({
        node_id,
        type: 'Air Conditioner',
        model: 'CASE',
        fw_version: '9',
        city,
      }));
      const registered = await server.app.inject({
        method: 'POST',
        url: '/v1/admin/node_ids',
        headers: { authorization: token },
        payload: {
          nodes: nodes.map((node) => ({
            node_id: node.node_id,
            type: node.type,
            model: node.model,
            fw_version: node.fw_version,
            tags: [`location:${node.city}`],
          })),
        },
      });
      expect(registered.statusCode, registered.body).toBe(200);
      // The key column stays lower case: the node list's city filter matches any spelling.
      const keys = await server.database.db
        .selectFrom('nodes')
        .select('city')
        .where('node_id', '=', 'CITY2')
        .executeTakeFirstOrThrow();
      expect(keys.city).toBe('kolkata');
      for (const node of nodes) sendFault(node, 97);
      await server.services.ingest.flush();

      const breakdown = await call(
        'GET',
        '/v1/admin/faults/breakdown?type=Air+Conditioner&code=97',
      );
      expect(breakdown.statusCode, breakdown.body).toBe(200);
      expect(breakdown.json<FaultBreakdown>().by_city).toEqual([
        { value: 'Kolkata', count: 3 },
        { value: 'Navi Mumbai', count: 2 },
        { value: 'banglore', count: 1 },
      ]);

      const history = await call('GET', '/v1/admin/faults/history?search=CITY&num_records=25');
      expect(history.statusCode, history.body).toBe(200);
      expect(history.json<FaultHistory>().nodes.map((node) => [node.node_id, node.city])).toEqual([
        ['CITY1', 'Kolkata'],
        ['CITY2', 'Kolkata'],
        ['CITY3', 'Kolkata'],
        ['CITY4', 'Navi Mumbai'],
        ['CITY5', 'Navi Mumbai'],
        ['CITY6', 'banglore'],
      ]);
      // A node without a location shows none.
      const hist1 = await call('GET', '/v1/admin/faults/history?search=HIST1');
      expect(hist1.json<FaultHistory>().nodes[0]?.city).toBe('');
    });
  });
});
