import { describe, expect, it } from 'vitest';
import {
  DiagnosticsMessageSchema,
  EventListQuerySchema,
  LogWindowQuerySchema,
  MetricListQuerySchema,
  metricListLimitForRange,
  startOfMonthSeconds,
} from './diagnostics.js';

const T = 1_750_000_000;

describe('diagnostics contract', () => {
  it('gives the metric list limit of the spec for each range', () => {
    expect(metricListLimitForRange(T, T + 3600)).toBe(150);
    expect(metricListLimitForRange(T, T + 86_400)).toBe(200);
    expect(metricListLimitForRange(T, T + 6 * 86_400)).toBe(1000);
    expect(metricListLimitForRange(T, T + 24 * 86_400)).toBe(1400);
  });

  it('reads the interval in any case and defaults to Month with tz 0', () => {
    expect(LogWindowQuerySchema.parse({ node_id: 'n1', time: 'day' })).toMatchObject({
      time: 'Day',
      tz: 0,
    });
    expect(LogWindowQuerySchema.parse({ node_id: 'n1' }).time).toBe('Month');
    expect(LogWindowQuerySchema.safeParse({ node_id: 'n1', time: 'year' }).success).toBe(false);
  });

  it('accepts repeated metric ids and refuses a reversed range', () => {
    const query = MetricListQuerySchema.parse({
      node_id: 'n1',
      start: String(T),
      end: String(T + 60),
      id: ['heap.free', 'wifi.rssi'],
    });
    expect(query.id).toEqual(['heap.free', 'wifi.rssi']);
    expect(MetricListQuerySchema.safeParse({ node_id: 'n1', start: T, end: T - 1 }).success).toBe(
      false,
    );
  });

  it('parses the event filters JSON and defaults the page size to 10', () => {
    const query = EventListQuerySchema.parse({
      filters: JSON.stringify({ 'Node.ID': 'n1', 'Node.Interface.ID': '0' }),
    });
    expect(query.filters['Node.ID']).toBe('n1');
    expect(query.limit).toBe(10);
    expect(EventListQuerySchema.safeParse({ filters: '{oops' }).success).toBe(false);
  });

  it('puts the start of the month at midnight UTC of the first day', () => {
    expect(startOfMonthSeconds(Date.UTC(2025, 5, 17, 13) / 1000)).toBe(Date.UTC(2025, 5, 1) / 1000);
  });

  it('validates a crash log with its backtrace', () => {
    const message = DiagnosticsMessageSchema.parse({
      logs: [
        {
          ts: T,
          type: 'crash',
          message: 'Guru Meditation Error',
          data: {
            pc: '0x400d1a2b',
            cause: 'LoadProhibited (28)',
            backtrace: [
              { address: '0x400d1a2b', method: 'drum_ctrl_step', file: 'drum.c', line: 88 },
            ],
          },
        },
      ],
    });
    expect(message.logs?.[0]?.type).toBe('crash');
  });
});
