import {
  MONTH_NAMES,
  type StatsInfoQuery,
  type StatsInfoResponse,
  type StatsPoint,
  type StatsRange,
  type StatsSeries,
  type StatsSummary,
} from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import { lockNodeOwnership, lockStatsRollups } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import { readCounter } from '../../repositories/node.repository.js';
import {
  addToDailyStats,
  deleteDailyStats,
  insertDailyStats,
  lastDailyStatBefore,
  readDailyStats,
  recountLevels,
  recountMappingsByDay,
  recountNodesByDay,
  recountUsersByDay,
  setDailyStat,
  sumDailyStatsBefore,
  LATEST_DAY,
  type StatsRow,
} from '../../repositories/stats.repository.js';
import { EVENT_STATS, STAT, epochDayOf } from './stats-events.js';
import { transactionWithRetry } from '../../db/transaction-retry.js';

/** What a rebuild did: rows rewritten and the corrections it had to make to the levels. */
export interface StatsRebuildReport {
  eventRows: number;
  /** Level drift found and corrected on today's row (0 when the maintained rollups agreed). */
  corrections: { claimed_nodes: number; users_with_nodes: number };
}

interface Bucket {
  start: number;
  end: number;
  label: (count: number) => StatsPoint;
}

const isoDate = (day: number): string => new Date(day * 86_400_000).toISOString().slice(0, 10);
const utcParts = (day: number) => {
  const date = new Date(day * 86_400_000);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1 };
};
const dayOfDate = (year: number, month: number, day: number): number =>
  Date.UTC(year, month - 1, day) / 86_400_000;

/** The buckets of a range (already clipped to today), oldest first. */
function bucketsOf(duration: StatsRange['duration'], start: number, end: number): Bucket[] {
  const buckets: Bucket[] = [];
  let day = start;
  while (day <= end) {
    const { year, month } = utcParts(day);
    let last: number;
    let label: Bucket['label'];
    if (duration === 'daily') {
      last = day;
      const date = isoDate(day);
      label = (count) => ({ daily_count: count, date });
    } else if (duration === 'weekly') {
      // Weeks run Monday to Sunday (epoch day 0 was a Thursday), clipped to the range.
      last = Math.min(end, day - ((day + 3) % 7) + 6);
      const startDate = isoDate(day);
      const endDate = isoDate(last);
      label = (count) => ({ weekly_count: count, start_date: startDate, end_date: endDate });
    } else if (duration === 'monthly') {
      last = Math.min(end, dayOfDate(year, month + 1, 1) - 1);
      const name = MONTH_NAMES[month - 1] ?? '';
      label = (count) => ({ monthly_count: count, month: name, year });
    } else {
      last = Math.min(end, dayOfDate(year + 1, 1, 1) - 1);
      label = (count) => ({ yearly_count: count, year: String(year) });
    }
    buckets.push({ start: day, end: last, label });
    day = last + 1;
  }
  return buckets;
}

/** Fleet statistics from the daily rollups (ADR 8): answers, the daily snapshot, the rebuild. */
export class StatsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => number = Date.now,
  ) {}

  private today(): number {
    return epochDayOf(Math.floor(this.clock() / 1000));
  }

  /** GET /v1/admin/stats_info: totals per metric and, with a duration, the series. */
  async statsInfo(query: StatsInfoQuery): Promise<StatsInfoResponse> {
    const today = this.today();
    const asked = new Set(query.metrics);
    const totals = await sumDailyStatsBefore(
      this.db,
      [
        STAT.registeredUsers,
        STAT.registeredNodes,
        STAT.claimedNodesNet,
        STAT.usersWithNodesNet,
        STAT.timedOutRequests,
      ],
      LATEST_DAY,
    );
    const total = (metric: string) => totals.get(metric) ?? 0;
    const [online, offline] = await Promise.all([
      readCounter(this.db, 'online'),
      readCounter(this.db, 'offline'),
    ]);
    const totalOf = {
      num_registered_users: total(STAT.registeredUsers),
      num_registered_nodes: total(STAT.registeredNodes),
      num_users_with_nodes: total(STAT.usersWithNodesNet),
      num_users_without_nodes: total(STAT.registeredUsers) - total(STAT.usersWithNodesNet),
      num_claimed_nodes: total(STAT.claimedNodesNet),
      num_timed_out_node_association_reqs: total(STAT.timedOutRequests),
    };

    const series = query.range
      ? await this.series(query.range, today, { online, offline })
      : undefined;
    const answer: StatsInfoResponse = { timezone: 'UTC' };
    for (const metric of [
      'num_registered_users',
      'num_registered_nodes',
      'num_users_with_nodes',
      'num_users_without_nodes',
      'num_claimed_nodes',
      'num_timed_out_node_association_reqs',
    ] as const) {
      if (!asked.has(metric)) continue;
      const entry: StatsSeries = { total_count: totalOf[metric] };
      if (series) entry.data = series[metric];
      answer[metric] = entry;
    }
    if (asked.has('num_online_nodes')) answer.num_online_nodes = online;
    if (asked.has('num_offline_nodes')) answer.num_offline_nodes = offline;
    if (series && (asked.has('num_online_nodes') || asked.has('num_offline_nodes'))) {
      answer.connectivity_history = {};
      if (asked.has('num_online_nodes'))
        answer.connectivity_history.num_online_nodes = {
          data: series.num_online_nodes,
          total_count: online,
        };
      if (asked.has('num_offline_nodes'))
        answer.connectivity_history.num_offline_nodes = {
          data: series.num_offline_nodes,
          total_count: offline,
        };
    }
    return answer;
  }

  /** Every series of a range, newest bucket first; days after today are left out. */
  private async series(
    range: StatsRange,
    today: number,
    now: { online: number; offline: number },
  ): Promise<Record<string, StatsPoint[]>> {
    const start = range.startDay;
    const end = Math.min(range.endDay, today);
    const empty = {
      num_registered_users: [],
      num_registered_nodes: [],
      num_users_with_nodes: [],
      num_users_without_nodes: [],
      num_claimed_nodes: [],
      num_timed_out_node_association_reqs: [],
      num_online_nodes: [],
      num_offline_nodes: [],
    };
    if (start > end) return empty;
    const length = end - start + 1;
    const metrics = Object.values(STAT);
    const [rows, base, lastOnline, lastOffline] = await Promise.all([
      readDailyStats(this.db, metrics, start, end),
      sumDailyStatsBefore(this.db, [STAT.registeredUsers, STAT.usersWithNodesNet], start),
      lastDailyStatBefore(this.db, STAT.onlineNodes, start),
      lastDailyStatBefore(this.db, STAT.offlineNodes, start),
    ]);
    const daily = new Map<string, Array<number | undefined>>();
    // Dense arrays: map() skips the holes of `new Array(n)`.
    for (const metric of metrics)
      daily.set(
        metric,
        Array.from({ length }, (): number | undefined => undefined),
      );
    for (const row of rows) {
      const values = daily.get(row.metric);
      if (values) values[row.day - start] = row.value;
    }
    const at = (metric: string) => daily.get(metric) ?? [];
    const events = (metric: string) => at(metric).map((value) => value ?? 0);
    // Levels: the running sum of net changes from the level before the range.
    const level = (metric: string) => {
      let running = base.get(metric) ?? 0;
      return at(metric).map((value) => (running += value ?? 0));
    };
    // Snapshots: a missing day carries the last known value; today is the live counter.
    const snapshot = (metric: string, before: StatsRow | undefined, live: number) => {
      let last = before?.value ?? 0;
      return at(metric).map((value, index) => {
        if (start + index === today) return live;
        last = value ?? last;
        return last;
      });
    };
    const users = level(STAT.registeredUsers);
    const withNodes = level(STAT.usersWithNodesNet);
    const perDay: Record<string, { values: number[]; kind: 'sum' | 'last' }> = {
      num_registered_users: { values: events(STAT.registeredUsers), kind: 'sum' },
      num_registered_nodes: { values: events(STAT.registeredNodes), kind: 'sum' },
      num_users_with_nodes: { values: withNodes, kind: 'last' },
      num_users_without_nodes: {
        values: users.map((count, index) => count - (withNodes[index] ?? 0)),
        kind: 'last',
      },
      num_claimed_nodes: { values: events(STAT.claims), kind: 'sum' },
      num_timed_out_node_association_reqs: { values: events(STAT.timedOutRequests), kind: 'sum' },
      num_online_nodes: {
        values: snapshot(STAT.onlineNodes, lastOnline, now.online),
        kind: 'last',
      },
      num_offline_nodes: {
        values: snapshot(STAT.offlineNodes, lastOffline, now.offline),
        kind: 'last',
      },
    };
    const buckets = bucketsOf(range.duration, start, end).reverse();
    const result: Record<string, StatsPoint[]> = {};
    for (const [metric, { values, kind }] of Object.entries(perDay)) {
      result[metric] = buckets.map((bucket) => {
        const slice = values.slice(bucket.start - start, bucket.end - start + 1);
        const count =
          kind === 'sum' ? slice.reduce((sum, value) => sum + value, 0) : (slice.at(-1) ?? 0);
        return bucket.label(count);
      });
    }
    return result;
  }

  /** The dashboard's "now" tiles: maintained counters and rollup totals only. */
  async summary(): Promise<StatsSummary> {
    const [online, offline, notActivated, registered, totals] = await Promise.all([
      readCounter(this.db, 'online'),
      readCounter(this.db, 'offline'),
      readCounter(this.db, 'not_activated'),
      readCounter(this.db, 'total'),
      sumDailyStatsBefore(this.db, [STAT.registeredUsers, STAT.claimedNodesNet], LATEST_DAY),
    ]);
    return {
      num_online_nodes: online,
      num_offline_nodes: offline,
      num_not_activated_nodes: notActivated,
      num_registered_users: totals.get(STAT.registeredUsers) ?? 0,
      num_registered_nodes: registered,
      num_claimed_nodes: totals.get(STAT.claimedNodesNet) ?? 0,
      num_certificates_generated: registered,
    };
  }

  /** Records today's online/offline levels (idempotent: the last run of a day is its end-of-day). */
  async snapshotConnectivity(): Promise<void> {
    const day = this.today();
    await transactionWithRetry(this.db, async (trx) => {
      const [online, offline] = await Promise.all([
        readCounter(trx, 'online'),
        readCounter(trx, 'offline'),
      ]);
      await setDailyStat(trx, STAT.onlineNodes, day, online);
      await setDailyStat(trx, STAT.offlineNodes, day, offline);
    });
  }

  /**
   * Recomputes the event rollups from the source tables and reconciles the levels with a recount
   * (a correction on today's row; their past is not recoverable, see ADR 8). Blocks other stats
   * writers while it runs.
   */
  async rebuild(): Promise<StatsRebuildReport> {
    const today = this.today();
    return transactionWithRetry(this.db, async (trx) => {
      await lockNodeOwnership(trx);
      await lockStatsRollups(trx);
      const rows = [
        ...(await recountUsersByDay(trx, STAT.registeredUsers)),
        ...(await recountNodesByDay(trx, STAT.registeredNodes)),
        ...(await recountMappingsByDay(trx, 'add', 'confirmed', STAT.claims)),
        ...(await recountMappingsByDay(trx, 'add', 'timedout', STAT.timedOutRequests)),
      ].filter((row) => row.value !== 0);
      await deleteDailyStats(trx, EVENT_STATS);
      await insertDailyStats(trx, rows);
      const truth = await recountLevels(trx);
      const sums = await sumDailyStatsBefore(
        trx,
        [STAT.claimedNodesNet, STAT.usersWithNodesNet],
        LATEST_DAY,
      );
      const corrections = {
        claimed_nodes: truth.claimedNodes - (sums.get(STAT.claimedNodesNet) ?? 0),
        users_with_nodes: truth.usersWithNodes - (sums.get(STAT.usersWithNodesNet) ?? 0),
      };
      await addToDailyStats(trx, today, {
        [STAT.claimedNodesNet]: corrections.claimed_nodes,
        [STAT.usersWithNodesNet]: corrections.users_with_nodes,
      });
      await setDailyStat(trx, STAT.onlineNodes, today, await readCounter(trx, 'online'));
      await setDailyStat(trx, STAT.offlineNodes, today, await readCounter(trx, 'offline'));
      return { eventRows: rows.length, corrections };
    });
  }
}
