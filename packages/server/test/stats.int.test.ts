import {
  MAPPING_REQUEST_TIMEOUT_SECONDS,
  MESSAGES,
  SERVER_MESSAGES,
  ERROR_CODES,
  type StatsInfoResponse,
  type StatsSeries,
  type StatsSeriesMetric,
} from '@fleetdeck/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addToDailyStats, readAllDailyStats } from '../src/repositories/stats.repository.js';
import { EVENT_STATS, LEVEL_STATS } from '../src/services/stats/stats-events.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

const DAY = 86_400;
const START = Date.UTC(2025, 2, 10, 0, 0, 10); // Monday 2025-03-10, 00:00:10 UTC
const isoDate = (day: number) => new Date(day * DAY * 1000).toISOString().slice(0, 10);
const nowSeconds = () => Math.floor(Date.now() / 1000);
const today = () => Math.floor(nowSeconds() / DAY);

describe.each(DIALECTS)('statistics on %s', (dialect) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    // Only Date is faked: the ingest batches keep their real timers.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(START);
    // The auth clock follows the faked Date too (its default was bound at import).
    server = await createTestServer(dialect, { auth: { clock: () => Date.now() } });
    token = (await apiLogin(server.app)).accesstoken;
  });
  afterAll(async () => {
    await server.close();
    vi.useRealTimers();
  });

  const get = (query: string, accessToken = token) =>
    server.app.inject({
      method: 'GET',
      url: `/v1/admin/stats_info${query}`,
      headers: { authorization: accessToken },
    });

  it('refuses every invalid range with the message of the spec', async () => {
    const cases: Array<[string, string]> = [
      ['duration=daily&start_date=2025-03-01', MESSAGES.statsInvalidDates],
      ['duration=daily&start_date=2025-02-30&end_date=2025-03-02', MESSAGES.statsInvalidDates],
      ['duration=daily&start_date=2025-03-05&end_date=2025-03-04', MESSAGES.statsDateRangeInvalid],
      ['duration=daily&start_date=2025-01-01&end_date=2025-02-01', MESSAGES.statsDailyLimit],
      [
        'duration=weekly&start_month=1&start_year=2025&end_month=13&end_year=2025',
        MESSAGES.statsInvalidMonths,
      ],
      ['duration=monthly&start_month=March&start_year=2025', MESSAGES.statsInvalidMonths],
      [
        'duration=monthly&start_month=4&start_year=2025&end_month=3&end_year=2025',
        MESSAGES.statsMonthRangeInvalid,
      ],
      [
        'duration=weekly&start_month=1&start_year=2025&end_month=4&end_year=2025',
        MESSAGES.statsWeeklyLimit,
      ],
      [
        'duration=monthly&start_month=1&start_year=2023&end_month=1&end_year=2025',
        SERVER_MESSAGES.statsMonthlyLimit,
      ],
      ['duration=yearly&start_year=2025', MESSAGES.statsInvalidYears],
      ['duration=yearly&start_year=25&end_year=2025', MESSAGES.statsInvalidYears],
      ['duration=yearly&start_year=2025&end_year=2024', MESSAGES.statsYearRangeInvalid],
      ['duration=yearly&start_year=2019&end_year=2025', SERVER_MESSAGES.statsYearlyLimit],
      ['metric_name=num_registered_nodes,bogus', SERVER_MESSAGES.statsInvalidMetrics],
      ['timezone=Mars/Olympus', SERVER_MESSAGES.statsInvalidTimezone],
    ];
    for (const [query, message] of cases) {
      const response = await get(`?${query}`);
      expect({ query, status: response.statusCode, body: response.json<unknown>() }).toEqual({
        query,
        status: 400,
        body: {
          status: 'failure',
          description: message,
          error_code: ERROR_CODES.invalidQueryParam,
        },
      });
    }
    // The limits themselves are allowed: 31 days, 3 months of weeks.
    expect(
      (await get('?duration=daily&start_date=2025-01-01&end_date=2025-01-31')).statusCode,
    ).toBe(200);
    expect(
      (
        await get(
          '?duration=weekly_count&start_month=january&start_year=2025&end_month=March&end_year=2025',
        )
      ).statusCode,
    ).toBe(200);
  });

  it('answers every duration in the RainMaker shape, newest first', async () => {
    await server.services.nodes.register([
      { type: 'Refrigerator', model: 'R1', fw_version: '1.0', tags: [] },
      { type: 'Refrigerator', model: 'R1', fw_version: '1.0', tags: [] },
    ]);
    const none = (await get('')).json<StatsInfoResponse>();
    expect(none.num_registered_nodes).toEqual({ total_count: 2 });
    expect(none.num_registered_users).toEqual({ total_count: 1 });
    expect(none.num_online_nodes).toBe(0);
    expect(none.connectivity_history).toBeUndefined();

    const daily = (
      await get(
        '?duration=daily&start_date=2025-03-04&end_date=2025-03-10&metric_name=num_registered_nodes',
      )
    ).json<StatsInfoResponse>();
    expect(Object.keys(daily).sort()).toEqual(['num_registered_nodes', 'timezone']);
    expect(daily.num_registered_nodes?.data).toEqual([
      { daily_count: 2, date: '2025-03-10' },
      ...[9, 8, 7, 6, 5, 4].map((d) => ({ daily_count: 0, date: `2025-03-0${d}` })),
    ]);

    const weekly = (
      await get(
        '?duration=weekly&start_month=2&start_year=2025&end_month=3&end_year=2025&metric_name=num_registered_nodes',
      )
    ).json<StatsInfoResponse>();
    // Days after today are left out; weeks are Monday–Sunday, clipped to the range.
    expect(weekly.num_registered_nodes?.data?.slice(0, 2)).toEqual([
      { weekly_count: 2, start_date: '2025-03-10', end_date: '2025-03-10' },
      { weekly_count: 0, start_date: '2025-03-03', end_date: '2025-03-09' },
    ]);
    expect(weekly.num_registered_nodes?.data?.at(-1)).toEqual({
      weekly_count: 0,
      start_date: '2025-02-01',
      end_date: '2025-02-02',
    });

    const monthly = (
      await get(
        '?duration=monthly&start_month=1&start_year=2025&end_month=12&end_year=2025&metric_name=num_registered_nodes,num_online_nodes',
      )
    ).json<StatsInfoResponse>();
    expect(monthly.num_registered_nodes?.data).toEqual([
      { monthly_count: 2, month: 'March', year: 2025 },
      { monthly_count: 0, month: 'February', year: 2025 },
      { monthly_count: 0, month: 'January', year: 2025 },
    ]);
    expect(monthly.num_online_nodes).toBe(0);
    expect(monthly.connectivity_history?.num_online_nodes?.data?.[0]).toEqual({
      monthly_count: 0,
      month: 'March',
      year: 2025,
    });

    const yearly = (
      await get('?duration=yearly&start_year=2024&end_year=2025&metric_name=num_registered_nodes')
    ).json<StatsInfoResponse>();
    expect(yearly.num_registered_nodes).toEqual({
      data: [
        { yearly_count: 2, year: '2025' },
        { yearly_count: 0, year: '2024' },
      ],
      total_count: 2,
    });

    const summary = await server.app.inject({
      method: 'GET',
      url: '/v1/admin/stats_info/summary',
      headers: { authorization: token },
    });
    expect(summary.json()).toEqual({
      num_online_nodes: 0,
      num_offline_nodes: 0,
      num_not_activated_nodes: 2,
      num_registered_users: 1,
      num_registered_nodes: 2,
      num_claimed_nodes: 0,
      num_certificates_generated: 2,
    });
    // The alias answers the same.
    const alias = await server.app.inject({
      method: 'GET',
      url: '/v1/stats_info?metric_name=num_registered_nodes',
      headers: { authorization: token },
    });
    expect(alias.json()).toEqual({ num_registered_nodes: { total_count: 2 }, timezone: 'UTC' });
  });

  type Action =
    | { kind: 'day' }
    | { kind: 'register'; count: number }
    | { kind: 'user' }
    | { kind: 'request'; node: number; user: number; confirm: boolean }
    | { kind: 'remove'; node: number }
    | { kind: 'reset'; node: number }
    | { kind: 'expire' }
    | { kind: 'connect'; node: number; connected: boolean };

  const action: fc.Arbitrary<Action> = fc.oneof(
    fc.constant({ kind: 'day' as const }),
    fc.record({ kind: fc.constant('register' as const), count: fc.integer({ min: 1, max: 3 }) }),
    fc.constant({ kind: 'user' as const }),
    fc.record({
      kind: fc.constant('request' as const),
      node: fc.nat(50),
      user: fc.nat(50),
      confirm: fc.boolean(),
    }),
    fc.record({ kind: fc.constant('remove' as const), node: fc.nat(50) }),
    fc.record({ kind: fc.constant('reset' as const), node: fc.nat(50) }),
    fc.constant({ kind: 'expire' as const }),
    fc.record({ kind: fc.constant('connect' as const), node: fc.nat(50), connected: fc.boolean() }),
  );

  it('keeps every series equal to a recount from the source tables and to a rebuild', async () => {
    const db = server.database.db;
    const userIds: string[] = (await db.selectFrom('users').select('user_id').execute()).map(
      (row) => row.user_id,
    );
    let session = 1;
    /** Levels the test observed at the end of each day (from the source tables). */
    const levels = new Map<
      number,
      { with: number; without: number; online: number; offline: number }
    >();
    const observe = async () => {
      const users = await db.selectFrom('users').select('user_id').execute();
      const nodes = await db.selectFrom('nodes').select(['primary_user_id', 'connected']).execute();
      const holders = new Set(nodes.map((n) => n.primary_user_id).filter((id) => id !== null));
      levels.set(today(), {
        with: holders.size,
        without: users.length - holders.size,
        online: nodes.filter((n) => n.connected === 1).length,
        offline: nodes.filter((n) => n.connected === 0).length,
      });
    };
    const nodeIds = async () =>
      (await db.selectFrom('nodes').select('node_id').orderBy('node_id').execute()).map(
        (r) => r.node_id,
      );
    const pick = <T>(list: readonly T[], index: number): T | undefined =>
      list.length === 0 ? undefined : list[index % list.length];

    const run = async (actions: Action[]) => {
      // Each run starts on a fresh day so its days fit one daily query.
      vi.setSystemTime((today() + 1) * DAY * 1000 + 10_000);
      const firstDay = today();
      for (const step of actions) {
        const ids = await nodeIds();
        if (step.kind === 'day') {
          await server.services.stats.snapshotConnectivity();
          await observe();
          vi.setSystemTime((today() + 1) * DAY * 1000 + 10_000);
        } else if (step.kind === 'register') {
          await server.services.nodes.register(
            Array.from({ length: step.count }, () => ({
              type: 'Washing Machine' as const,
              model: 'W1',
              fw_version: '1.0',
              tags: [],
            })),
          );
        } else if (step.kind === 'user') {
          userIds.push(
            await server.services.users.createUser(
              `owner${userIds.length}@fleetdeck.test`,
              'Sunny-Kitchen-2031',
              ['user'],
            ),
          );
        } else if (step.kind === 'request') {
          const nodeId = pick(ids, step.node);
          const userId = pick(userIds, step.user);
          if (!nodeId || !userId) continue;
          await server.services.nodes.requestMapping(userId, nodeId, 'secret-1', 'add');
          if (step.confirm) {
            server.services.ingest.nodeUserMapping(
              nodeId,
              { node_id: nodeId, user_id: userId, secret_key: 'secret-1' },
              Date.now(),
            );
            await server.services.ingest.flush();
          }
        } else if (step.kind === 'remove') {
          const nodeId = pick(ids, step.node);
          if (!nodeId) continue;
          const node = await db
            .selectFrom('nodes')
            .select('primary_user_id')
            .where('node_id', '=', nodeId)
            .executeTakeFirstOrThrow();
          if (node.primary_user_id)
            await server.services.nodes.requestMapping(node.primary_user_id, nodeId, 'x', 'remove');
        } else if (step.kind === 'reset') {
          const nodeId = pick(ids, step.node);
          if (!nodeId) continue;
          server.services.ingest.nodeUserMapping(
            nodeId,
            { node_id: nodeId, user_id: 'esp-rmaker', secret_key: 'failed', reset: true },
            Date.now(),
          );
          await server.services.ingest.flush();
        } else if (step.kind === 'expire') {
          // Stay inside the day: the test observes levels per day.
          const secondOfDay = nowSeconds() % DAY;
          if (secondOfDay + MAPPING_REQUEST_TIMEOUT_SECONDS + 1 < DAY - 60)
            vi.setSystemTime(Date.now() + (MAPPING_REQUEST_TIMEOUT_SECONDS + 1) * 1000);
          await server.services.nodes.expireMappingRequests();
        } else {
          const nodeId = pick(ids, step.node);
          if (!nodeId) continue;
          session += 1;
          if (step.connected) server.services.ingest.nodeConnected(nodeId, session, Date.now());
          else server.services.ingest.nodeDisconnected(nodeId, session, Date.now());
          await server.services.ingest.flush();
        }
      }
      await observe();
      const lastDay = today();

      // Recount the events from the source tables.
      const perDay = (times: Array<number | string>) => {
        const counts = new Map<number, number>();
        for (const t of times)
          counts.set(
            Math.floor(Number(t) / DAY),
            (counts.get(Math.floor(Number(t) / DAY)) ?? 0) + 1,
          );
        return counts;
      };
      const users = await db.selectFrom('users').select('created_at').execute();
      const nodes = await db
        .selectFrom('nodes')
        .select(['registered_at', 'primary_user_id'])
        .execute();
      const mappings = await db.selectFrom('user_node_mappings').selectAll().execute();
      const expected: Partial<Record<StatsSeriesMetric, Map<number, number>>> = {
        num_registered_users: perDay(users.map((u) => u.created_at)),
        num_registered_nodes: perDay(nodes.map((n) => n.registered_at)),
        num_claimed_nodes: perDay(
          mappings
            .filter((m) => m.operation === 'add' && m.status === 'confirmed')
            .map((m) => m.updated_at),
        ),
        num_timed_out_node_association_reqs: perDay(
          mappings.filter((m) => m.status === 'timedout').map((m) => m.updated_at),
        ),
      };
      const login = (await apiLogin(server.app)).accesstoken;
      const answer = (
        await get(
          `?duration=daily&start_date=${isoDate(firstDay)}&end_date=${isoDate(lastDay)}`,
          login,
        )
      ).json<StatsInfoResponse>();
      const series = (s: StatsSeries | undefined) =>
        new Map(
          (s?.data ?? []).map((point) => [
            'date' in point ? point.date : '',
            'daily_count' in point ? point.daily_count : NaN,
          ]),
        );
      for (let day = firstDay; day <= lastDay; day++) {
        const date = isoDate(day);
        for (const [metric, counts] of Object.entries(expected) as Array<
          [StatsSeriesMetric, Map<number, number>]
        >)
          expect({
            metric,
            date,
            n: series(answer[metric]).get(date),
          }).toEqual({
            metric,
            date,
            n: counts.get(day) ?? 0,
          });
        const level = levels.get(day);
        expect(level).toBeDefined();
        expect({
          date,
          with: series(answer.num_users_with_nodes).get(date),
          without: series(answer.num_users_without_nodes).get(date),
          online: series(answer.connectivity_history?.num_online_nodes).get(date),
          offline: series(answer.connectivity_history?.num_offline_nodes).get(date),
        }).toEqual({ date, ...level });
      }
      const claimedNow = nodes.filter((n) => n.primary_user_id !== null).length;
      expect(answer.num_claimed_nodes?.total_count).toBe(claimedNow);
      expect(answer.num_registered_users?.total_count).toBe(users.length);
      expect(answer.num_registered_nodes?.total_count).toBe(nodes.length);
      expect(answer.num_timed_out_node_association_reqs?.total_count).toBe(
        mappings.filter((m) => m.status === 'timedout').length,
      );

      // A yearly answer aggregates the same daily rows.
      const year = new Date(Date.now()).getUTCFullYear();
      const yearly = (
        await get(
          `?duration=yearly&start_year=${year}&end_year=${year}&metric_name=num_registered_nodes`,
          login,
        )
      ).json<StatsInfoResponse>();
      const inYear = nodes.filter(
        (n) => new Date(Number(n.registered_at) * 1000).getUTCFullYear() === year,
      ).length;
      expect(yearly.num_registered_nodes?.data).toEqual([
        { yearly_count: inYear, year: String(year) },
      ]);

      // The rebuild recomputes exactly the maintained rows and finds no drift in the levels.
      const metrics = [...EVENT_STATS, ...LEVEL_STATS];
      const sorted = (rows: Awaited<ReturnType<typeof readAllDailyStats>>) =>
        rows
          .filter((r) => r.value !== 0)
          .sort((a, b) => a.metric.localeCompare(b.metric) || a.day - b.day);
      const maintained = sorted(await readAllDailyStats(db, metrics));
      const report = await server.services.stats.rebuild();
      expect(report.corrections).toEqual({ claimed_nodes: 0, users_with_nodes: 0 });
      expect(sorted(await readAllDailyStats(db, metrics))).toEqual(maintained);
    };

    await fc.assert(fc.asyncProperty(fc.array(action, { minLength: 5, maxLength: 25 }), run), {
      numRuns: 8,
    });
  });

  it('corrects drifted rollups when rebuilt', async () => {
    const db = server.database.db;
    // Drift: a lost day of registrations and five phantom claims.
    await db.deleteFrom('stats_daily').where('metric', '=', 'registered_nodes').execute();
    await addToDailyStats(db, today(), { claimed_nodes_net: 5 });
    const report = await server.services.stats.rebuild();
    expect(report.corrections).toEqual({ claimed_nodes: -5, users_with_nodes: 0 });
    const nodes = await db.selectFrom('nodes').select(['node_id', 'primary_user_id']).execute();
    const login = (await apiLogin(server.app)).accesstoken;
    expect(
      (await get('?metric_name=num_registered_nodes,num_claimed_nodes', login)).json(),
    ).toEqual({
      num_registered_nodes: { total_count: nodes.length },
      num_claimed_nodes: { total_count: nodes.filter((n) => n.primary_user_id !== null).length },
      timezone: 'UTC',
    });
  });

  it('is readable with stats.read only', async () => {
    await server.services.users.createUser('enduser@fleetdeck.test', 'Sunny-Kitchen-2031', [
      'user',
    ]);
    const userToken = (await apiLogin(server.app, 'enduser@fleetdeck.test', 'Sunny-Kitchen-2031'))
      .accesstoken;
    expect((await get('', userToken)).statusCode).toBe(403);
    expect(
      (await server.app.inject({ method: 'GET', url: '/v1/admin/stats_info' })).statusCode,
    ).toBe(401);
  });
});
