import {
  MESSAGES,
  nodeTopic,
  type LogByIntervalResponse,
  type LogCountResponse,
  type LogListResponse,
  type MetricListResponse,
  type MetricMetaResponse,
  type NodeDiagnosticsInfo,
  type ParamListResponse,
  type ParamMetaResponse,
} from '@fleetdeck/contract';
import { encode } from 'cborg';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedBroker } from '../src/gateway/embedded-broker.js';
import type { NodeGateway } from '../src/gateway/node-gateway.js';
import { createLogger } from '../src/logger.js';
import { connectNode } from './helpers/mqtt-clients.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

const DAY = 86_400;
const IST = 19_800;
/** A fixed IST midnight: 2025-06-10 00:00 +05:30. */
const MIDNIGHT_IST = Date.UTC(2025, 5, 10) / 1000 - IST;

/** An ESP Insights frame: kind byte, little-endian CBOR length, CBOR body. */
function frame(kind: number, body: Uint8Array): Buffer {
  const header = Buffer.alloc(3);
  header[0] = kind;
  header.writeUInt16LE(body.length, 1);
  return Buffer.concat([header, Buffer.from(body)]);
}

/** `{"diag": diag}` as an indefinite-length CBOR map, as the firmware writes it. */
function indefiniteDiag(diag: object): Uint8Array {
  return Buffer.concat([
    Buffer.from([0xbf]),
    Buffer.from(encode('diag')),
    Buffer.from(encode(diag)),
    Buffer.from([0xff]),
  ]);
}

async function publish(client: MqttClient, nodeId: string, payload: Buffer | string) {
  await client.publishAsync(nodeTopic(nodeId, 'diagnostics/from-node'), payload, { qos: 1 });
}

describe.each(DIALECTS)('device diagnostics on %s', (dialect) => {
  let server: TestServer;
  let broker: NodeGateway & { port: number };
  let token: string;
  let node: MqttClient;

  const get = async <T>(url: string, status = 200): Promise<T> => {
    const response = await server.app.inject({
      method: 'GET',
      url,
      headers: { authorization: token },
    });
    expect(response.statusCode, response.body).toBe(status);
    return response.json<T>();
  };

  beforeAll(async () => {
    server = await createTestServer(dialect);
    broker = await startEmbeddedBroker(
      0,
      '127.0.0.1',
      server.services.ingest,
      createLogger('silent'),
    );
    token = (await apiLogin(server.app)).accesstoken;
    const registered = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/node_ids',
      headers: { authorization: token },
      payload: {
        nodes: ['WMDIAG1', 'WMQUIET'].map((node_id) => ({
          node_id,
          type: 'Washing Machine',
          model: 'FD-WM-7',
          fw_version: '3.0.0',
          tags: ['location:Pune'],
        })),
      },
    });
    expect(registered.statusCode).toBe(200);
    const password =
      registered.json<{ nodes: Array<{ mqtt_password: string }> }>().nodes[0]?.mqtt_password ?? '';
    node = await connectNode(`mqtt://127.0.0.1:${broker.port}`, 'WMDIAG1', password);
  });
  afterAll(async () => {
    await node.endAsync();
    await broker.close();
    await server.services.ingest.flush();
    await server.close();
  });

  it('ingests the JSON form: info, a crash with its backtrace, a reboot, metrics and variables', async () => {
    await publish(
      node,
      'WMDIAG1',
      JSON.stringify({
        info: { project: 'fd-washer', app_version: '3.1.0', chip: 'esp32s3' },
        logs: [
          {
            ts: MIDNIGHT_IST + 3600,
            type: 'crash',
            tag: 'panic',
            message: 'Guru Meditation Error: Core 0 panic',
            data: {
              prev_app_version: '3.0.0',
              pc: '0x400d2f1c',
              registers: { a0: '0x800d2f1c', a1: '0x3ffb5e40' },
              cause: 'LoadProhibited (28)',
              vaddr: '0x00000004',
              backtrace: [
                {
                  address: '0x400d2f1c',
                  method: 'drum_motor_set_rpm',
                  file: 'main/drum.c',
                  line: 142,
                },
                {
                  address: '0x400d31a8',
                  method: 'wash_cycle_step',
                  file: 'main/cycle.c',
                  line: 77,
                },
              ],
              corrupted: false,
            },
          },
          {
            ts: MIDNIGHT_IST + 3605,
            type: 'reboot',
            tag: 'boot',
            message: 'Reboot: ESP_RST_PANIC',
            data: { reason: 4, reset_reason: 'ESP_RST_PANIC', app_version: '3.1.0' },
          },
          { ts: MIDNIGHT_IST + 7200, type: 'warning', tag: 'wifi', message: 'RSSI low' },
        ],
        metrics: [
          {
            id: 'drum.speed',
            label: 'Drum speed',
            unit: 'rpm',
            points: Array.from({ length: 360 }, (_, i) => ({
              ts: MIDNIGHT_IST + i * 10,
              val: 800 + (i % 7),
            })),
          },
        ],
        variables: [
          {
            label: 'Wi-Fi',
            type: 'folder',
            children: [
              {
                label: 'SSID',
                type: 'param',
                id: 'wifi.ssid',
                values: { data: [{ val: 'home-net', ts: MIDNIGHT_IST + 60 }] },
              },
            ],
          },
        ],
      }),
    );
    const info = await get<NodeDiagnosticsInfo>('/insights/v1/node/info?node_id=WMDIAG1');
    expect(info).toMatchObject({ project: 'fd-washer', app_version: '3.1.0', chip: 'esp32s3' });
    expect(info.last_boot).toBe(MIDNIGHT_IST + 3605);

    const page = await get<LogListResponse>(
      `/insights/v1/node/log/list?node_id=WMDIAG1&time=Day&start=${MIDNIGHT_IST}&tz=${IST}`,
    );
    expect(page.list.map((entry) => entry.type)).toEqual(['warning', 'reboot', 'crash']);
    const crash = page.list[2];
    expect(crash?.type === 'crash' && crash.data.backtrace[0]).toMatchObject({
      method: 'drum_motor_set_rpm',
      file: 'main/drum.c',
      line: 142,
    });
    expect(page.remarks.missingelfs).toEqual([]);
    expect(page.pagetoken).toBeUndefined();
  });

  it('ingests the ESP Insights binary framing with indefinite-length CBOR', async () => {
    const t = (MIDNIGHT_IST + 4 * 3600) * 1e6;
    const sha256 = 'ab'.repeat(32);
    await publish(
      node,
      'WMDIAG1',
      frame(
        0x02,
        indefiniteDiag({
          ver: '2.0',
          ts: t,
          sha256,
          data: {
            boot: { ts: t, chip: 'esp32c3', reason: 6, proj: 'fd-washer', app_ver: '3.1.1' },
            crash: {
              ver: 1,
              sha256,
              task: 'main',
              exc_val: [5, 0x3fc80000],
              mepc: 0x42008a10,
              ra: 0x42008a00,
              sp: 0x3fc9f000,
              mstatus: 0x1880,
              a_reg: [1, 2, 3, 4, 5, 6, 7, 8],
            },
            traces: {
              errors: [{ ts: t + 1e6, tag: 'drum', pc: 0x42001234, ro: 0x3c001000, av: [12, 'x'] }],
              events: [{ ts: t + 2e6, tag: 'cycle', pc: 0x42001240, ro: 0, av: 'rinse started' }],
            },
            metrics: [
              { n: ['M', 'heap', 'free'], v: 81234, t: t },
              { n: ['M', 'wifi', 'rssi'], v: -61, t: t },
            ],
            params: [{ n: ['P', 'ip', 'ipv4'], v: new Uint8Array([192, 168, 1, 23]), t: t }],
          },
        }),
      ),
    );
    await publish(
      node,
      'WMDIAG1',
      frame(
        0x03,
        encode({
          diagmeta: {
            ver: '1.0',
            data: { M: { heap: { free: { label: 'Free heap', unit: 'bytes', path: 'heap' } } } },
          },
        }),
      ),
    );
    const info = await get<NodeDiagnosticsInfo>('/insights/v1/node/info?node_id=WMDIAG1');
    expect(info).toMatchObject({ app_version: '3.1.1', chip: 'esp32c3', sha256 });

    const page = await get<LogListResponse>(
      `/insights/v1/node/log/list?node_id=WMDIAG1&time=Day&start=${MIDNIGHT_IST}&tz=${IST}`,
    );
    const raw = page.list.filter((entry) => entry.sha256 === sha256);
    expect(raw.map((entry) => entry.type).sort()).toEqual(['crash', 'error', 'event', 'reboot']);
    const crash = raw.find((entry) => entry.type === 'crash');
    expect(crash?.type === 'crash' && crash.data).toMatchObject({
      pc: '0x42008a10',
      cause: 'Load access fault (5)',
      registers: { ra: '0x42008a00', a0: '0x00000001' },
    });
    expect(crash?.elf_missing).toBe(true);
    expect(raw.find((entry) => entry.type === 'event')?.message).toBe('rinse started');
    expect(raw.find((entry) => entry.type === 'reboot')?.data).toMatchObject({
      reason: 6,
      reset_reason: 'ESP_RST_TASK_WDT',
    });
    expect(page.remarks).toEqual({ missingelfs: [sha256], message: MESSAGES.missingElfRemark });

    const meta = await get<MetricMetaResponse>('/insights/v1/node/metric/meta?node_id=WMDIAG1');
    expect(meta.metrics).toEqual(
      expect.arrayContaining([
        { id: 'heap.free', label: 'Free heap', unit: 'bytes', path: 'heap', storageType: 'Metric' },
        { id: 'wifi.rssi', label: 'wifi.rssi', unit: '', storageType: 'Metric' },
      ]),
    );
    const params = await get<ParamListResponse>(
      `/insights/v1/node/param/list?node_id=WMDIAG1&start=${MIDNIGHT_IST}&end=${MIDNIGHT_IST + DAY}&id=ip.ipv4`,
    );
    expect(params.params[0]?.values.data[0]?.val).toBe('192.168.1.23');
  });

  it('rejects and counts malformed frames without dropping the connection', async () => {
    const counters = server.services.ingest.diagnosticsCounters;
    const before = counters.rejected;
    const good = encode({ diag: { ts: MIDNIGHT_IST * 1e6, data: {} } });
    const badLength = frame(0x02, good).subarray(0, 10);
    const unknownKind = frame(0x7f, good);
    const garbage = frame(0x02, new Uint8Array([0x1c, 0xff, 0xfe]));
    const notJson = Buffer.from('{"logs": [oops');
    const wrongShape = Buffer.from(JSON.stringify({ logs: [{ ts: 12, type: 'crash' }] }));
    for (const payload of [badLength, unknownKind, garbage, notJson, wrongShape])
      await publish(node, 'WMDIAG1', payload);
    expect(counters.rejected - before).toBe(5);
    expect(node.connected).toBe(true);
    await publish(
      node,
      'WMDIAG1',
      JSON.stringify({
        logs: [{ ts: MIDNIGHT_IST + 6 * 3600, type: 'event', message: 'still here' }],
      }),
    );
    const page = await get<LogListResponse>(
      `/insights/v1/node/log/list?node_id=WMDIAG1&time=Day&start=${MIDNIGHT_IST}&tz=${IST}`,
    );
    expect(page.list.some((entry) => entry.message === 'still here')).toBe(true);
  });

  it('answers the firmware hint for a node without diagnostics', async () => {
    for (const path of ['node/info', 'node/log/list', 'node/metric/meta', 'node/param/meta']) {
      const body = await get<{ description: string }>(`/insights/v1/${path}?node_id=WMQUIET`, 404);
      expect(body.description).toBe(MESSAGES.enableDiagnosticsFirmware);
    }
  });

  it('counts logs and buckets them into local days and hours across a timezone offset', async () => {
    const counts = await get<LogCountResponse>(
      `/insights/v1/node/log/count?node_id=WMDIAG1&time=Day&start=${MIDNIGHT_IST}&tz=${IST}`,
    );
    expect(counts).toMatchObject({ crash: 2, reboot: 2, error: 1, warning: 1, event: 2 });
    expect(counts.end - counts.start).toBe(DAY);

    // A week starting at the IST midnight: everything lies in its first bar.
    const ist = await get<LogByIntervalResponse>(
      `/insights/v1/node/log/byinterval/count?node_id=WMDIAG1&time=Week&start=${MIDNIGHT_IST + 5000}&tz=${IST}`,
    );
    expect(ist.start).toBe(MIDNIGHT_IST);
    expect(ist.intervals).toHaveLength(7);
    expect(ist.data[0]).toMatchObject({ crash: 2, reboot: 2, event: 2 });
    // In UTC the same instants straddle a day boundary (IST 00:00–05:30 is the UTC day before).
    const utc = await get<LogByIntervalResponse>(
      `/insights/v1/node/log/byinterval/count?node_id=WMDIAG1&time=Week&start=${MIDNIGHT_IST}&tz=0`,
    );
    expect(utc.start).toBe(Date.UTC(2025, 5, 9) / 1000);
    expect(utc.data[0]).toEqual({
      ts: utc.start,
      crash: 2,
      reboot: 2,
      error: 1,
      warning: 1,
      event: 1,
    });
    // IST 06:00 is 00:30 UTC: the next UTC day.
    expect(utc.data[1]).toEqual({
      ts: utc.start + DAY,
      crash: 0,
      reboot: 0,
      error: 0,
      warning: 0,
      event: 1,
    });

    const day = await get<LogByIntervalResponse>(
      `/insights/v1/node/log/byinterval/count?node_id=WMDIAG1&time=day&start=${MIDNIGHT_IST}&tz=${IST}`,
    );
    expect(day.intervals).toHaveLength(24);
    expect(day.bucket_seconds).toBe(3600);
    expect(day.data[1]).toMatchObject({ crash: 1, reboot: 1 });
    expect(day.data[2]).toMatchObject({ warning: 1 });
    const month = await get<LogByIntervalResponse>(
      `/insights/v1/node/log/byinterval/count?node_id=WMDIAG1&start=${MIDNIGHT_IST}&tz=${IST}`,
    );
    expect(month.interval).toBe('Month');
    expect(month.intervals).toHaveLength(30);
  });

  it('pages through every log exactly once with the page tokens', async () => {
    const base = MIDNIGHT_IST + 2 * DAY;
    // 47 entries, several sharing a second, so the cursor must break ties.
    const logs = Array.from({ length: 47 }, (_, i) => ({
      ts: base + Math.floor(i / 3),
      type: 'event' as const,
      message: `event ${i}`,
    }));
    await publish(node, 'WMDIAG1', JSON.stringify({ logs }));
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page: LogListResponse = await get<LogListResponse>(
        `/insights/v1/node/log/list?node_id=WMDIAG1&time=Day&start=${base}&tz=${IST}${token ? `&page_token=${encodeURIComponent(token)}` : ''}`,
      );
      seen.push(...page.list.map((entry) => entry.message));
      token = page.pagetoken;
      pages += 1;
    } while (token && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(47);
    expect(new Set(seen).size).toBe(47);

    const events: string[] = [];
    let eventToken: string | undefined;
    const filters = encodeURIComponent(
      JSON.stringify({
        'Node.ID': 'WMDIAG1',
        'Node.Interface.ID': '0',
        'Node.Interface.Type': 'RMP',
      }),
    );
    do {
      const page: LogListResponse = await get<LogListResponse>(
        `/insights/v1/query/event/list?from_ts=${base}&to_ts=${base + DAY}&filters=${filters}${eventToken ? `&pagetoken=${encodeURIComponent(eventToken)}` : ''}`,
      );
      expect(page.list.length).toBeLessThanOrEqual(10);
      events.push(...page.list.map((entry) => entry.id));
      eventToken = page.pagetoken;
    } while (eventToken);
    expect(new Set(events).size).toBe(47);
    expect(events).toHaveLength(47);

    await get(`/insights/v1/node/log/list?node_id=WMDIAG1&page_token=not-a-token`, 400);
  });

  it('limits metric points by the range: 150 below a day, 200 from a day, never more', async () => {
    const hour = await get<MetricListResponse>(
      `/insights/v1/node/metric/list?node_id=WMDIAG1&start=${MIDNIGHT_IST}&end=${MIDNIGHT_IST + 3600}&id=drum.speed&limit=1000`,
    );
    expect(hour.limit).toBe(150);
    const drum = hour.metrics[0];
    expect(drum).toMatchObject({ id: 'drum.speed', label: 'Drum speed', unit: 'rpm' });
    expect(drum?.points.length).toBeLessThanOrEqual(150);
    expect(drum?.points.length).toBeGreaterThan(100);
    const values = drum?.points.map((point) => point.val) ?? [];
    expect(Math.min(...values)).toBeGreaterThanOrEqual(800);
    expect(Math.max(...values)).toBeLessThanOrEqual(806);

    const few = await get<MetricListResponse>(
      `/insights/v1/node/metric/list?node_id=WMDIAG1&start=${MIDNIGHT_IST}&end=${MIDNIGHT_IST + 600}&id=drum.speed`,
    );
    // 61 raw points fit under the limit and come back as sent.
    expect(few.metrics[0]?.points).toHaveLength(61);
    expect(few.metrics[0]?.points[1]).toEqual({ ts: MIDNIGHT_IST + 10, val: 801 });

    const day = await get<MetricListResponse>(
      `/insights/v1/node/metric/list?node_id=WMDIAG1&start=${MIDNIGHT_IST}&end=${MIDNIGHT_IST + DAY}&id=drum.speed&id=heap.free`,
    );
    expect(day.limit).toBe(200);
    expect(day.metrics.map((metric) => metric.id)).toEqual(['drum.speed', 'heap.free']);
    expect(day.metrics[0]?.points.length).toBeLessThanOrEqual(200);
    const sixDays = await get<MetricListResponse>(
      `/insights/v1/node/metric/list?node_id=WMDIAG1&start=${MIDNIGHT_IST}&end=${MIDNIGHT_IST + 6 * DAY}`,
    );
    expect(sixDays.limit).toBe(1000);
    await get(
      `/insights/v1/node/metric/list?node_id=WMDIAG1&start=${MIDNIGHT_IST}&end=${MIDNIGHT_IST - 1}`,
      400,
    );
  });

  it('serves the variables tree and the insights base URL', async () => {
    const meta = await get<ParamMetaResponse>('/insights/v1/node/param/meta?node_id=WMDIAG1');
    expect(meta.params).toEqual(
      expect.arrayContaining([
        {
          label: 'Wi-Fi',
          type: 'folder',
          children: [{ label: 'SSID', type: 'param', id: 'wifi.ssid', storageType: 'ParamValue' }],
        },
      ]),
    );
    const capability = await get<{ name: string; value: string }>(
      '/v1/admin/deployment_capabilities?name=InsightsAPIUrl',
    );
    expect(capability).toEqual({
      name: 'InsightsAPIUrl',
      value: 'http://fleetdeck.test/insights/v1',
    });
  });

  it('purges diagnostics older than the retention in small batches', async () => {
    const now = Math.floor(Date.now() / 1000);
    const old = now - 40 * DAY;
    await publish(
      node,
      'WMDIAG1',
      JSON.stringify({
        logs: Array.from({ length: 5 }, (_, i) => ({ ts: old + i, type: 'error', message: 'old' })),
        metrics: [{ id: 'heap.free', points: [{ ts: old, val: 1 }] }],
        variables: [
          {
            label: 'ssid',
            type: 'param',
            id: 'wifi.ssid',
            values: { data: [{ val: 'x', ts: old }] },
          },
        ],
      }),
    );
    await publish(
      node,
      'WMDIAG1',
      JSON.stringify({ logs: [{ ts: now - DAY, type: 'error', message: 'recent' }] }),
    );
    const db = server.database.db;
    const countOld = async () =>
      Number(
        (
          await db
            .selectFrom('diag_logs')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('ts', '<', now - 30 * DAY)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await countOld()).toBeGreaterThanOrEqual(5);
    const deleted = await server.services.diagnostics.purgeExpired(now, 2);
    expect(deleted).toBeGreaterThanOrEqual(7);
    expect(await countOld()).toBe(0);
    const recent = await db
      .selectFrom('diag_logs')
      .select('message')
      .where('message', '=', 'recent')
      .execute();
    expect(recent).toHaveLength(1);
    const oldPoints = await db
      .selectFrom('diag_metric_points')
      .selectAll()
      .where('ts', '<', now - 30 * DAY)
      .execute();
    expect(oldPoints).toHaveLength(0);
  });

  it('refuses diagnostics to roles without the device read permission', async () => {
    const created = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/user2',
      headers: { authorization: token },
      payload: {
        user_name: 'owner@fleetdeck.test',
        password: 'Qv7-Drum-Spin-Pune',
        roles: ['user'],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const userToken = (await apiLogin(server.app, 'owner@fleetdeck.test', 'Qv7-Drum-Spin-Pune'))
      .accesstoken;
    const response = await server.app.inject({
      method: 'GET',
      url: '/insights/v1/node/info?node_id=WMDIAG1',
      headers: { authorization: userToken },
    });
    expect(response.statusCode).toBe(403);
  });
});
