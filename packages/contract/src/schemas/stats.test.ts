import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages.js';
import { StatsInfoQuerySchema, parseStatsMonth, statsRangeOf } from './stats.js';

const firstMessage = (query: Record<string, string>) => {
  const result = StatsInfoQuerySchema.safeParse(query);
  return result.success ? undefined : result.error.issues[0]?.message;
};

describe('stats_info query', () => {
  it('accepts a 31-day daily range and refuses a 32-day one', () => {
    expect(
      statsRangeOf({ duration: 'daily', start_date: '2025-01-01', end_date: '2025-01-31' }),
    ).toEqual({ duration: 'daily', startDay: 20089, endDay: 20119 });
    expect(
      firstMessage({ duration: 'daily', start_date: '2025-01-01', end_date: '2025-02-01' }),
    ).toBe(MESSAGES.statsDailyLimit);
  });

  it('refuses impossible dates with the spec message', () => {
    expect(
      firstMessage({ duration: 'daily', start_date: '2025-02-30', end_date: '2025-03-01' }),
    ).toBe(MESSAGES.statsInvalidDates);
  });

  it('reads months as numbers or English names and spans whole months', () => {
    expect(parseStatsMonth('march')).toBe(3);
    expect(parseStatsMonth('12')).toBe(12);
    expect(parseStatsMonth('13')).toBeUndefined();
    const range = statsRangeOf({
      duration: 'weekly',
      start_month: 'January',
      start_year: '2024',
      end_month: '3',
      end_year: '2024',
    });
    expect(range).toEqual({
      duration: 'weekly',
      startDay: Date.UTC(2024, 0, 1) / 86_400_000,
      endDay: Date.UTC(2024, 2, 31) / 86_400_000,
    });
  });

  it('maps RainMaker durations and defaults metrics and zone', () => {
    const parsed = StatsInfoQuerySchema.parse({
      duration: 'yearly_count',
      start_year: '2024',
      end_year: '2025',
    });
    expect(parsed.range?.duration).toBe('yearly');
    expect(parsed.metrics).toHaveLength(8);
    expect(parsed.timezone).toBe('UTC');
  });
});
