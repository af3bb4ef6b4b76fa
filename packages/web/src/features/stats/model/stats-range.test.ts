import { MESSAGES, SERVER_MESSAGES } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import {
  checkRange,
  initialDraft,
  rangeFields,
  withDuration,
  yearChoices,
  type StatsRangeDraft,
} from './stats-range';

// 2025-03-15T22:30:00Z; a UTC+3 browser already has the 16th, the statistics day is still the 15th.
const NOW = new Date(Date.UTC(2025, 2, 15, 22, 30));

const draft = (patch: Partial<StatsRangeDraft>): StatsRangeDraft => ({
  ...initialDraft(NOW),
  ...patch,
});

describe('initialDraft', () => {
  it('opens on Daily with the last 7 UTC days, today included', () => {
    const initial = initialDraft(NOW);
    expect(initial.duration).toBe('daily');
    expect(initial.daily).toEqual({ start: '2025-03-09', end: '2025-03-15' });
  });

  it('offers the last 3 months weekly, the last 12 months monthly, and last and this year yearly', () => {
    const initial = initialDraft(NOW);
    expect(initial.weekly).toEqual({
      start: { month: 1, year: 2025 },
      end: { month: 3, year: 2025 },
    });
    expect(initial.monthly).toEqual({
      start: { month: 4, year: 2024 },
      end: { month: 3, year: 2025 },
    });
    expect(initial.yearly).toEqual({ start: 2024, end: 2025 });
  });

  it('crosses into the previous year in January', () => {
    const january = initialDraft(new Date(Date.UTC(2026, 0, 3)));
    expect(january.daily).toEqual({ start: '2025-12-28', end: '2026-01-03' });
    expect(january.weekly.start).toEqual({ month: 11, year: 2025 });
  });

  it('gives defaults every one of which passes the range rules', () => {
    for (const duration of ['daily', 'weekly', 'monthly', 'yearly'] as const)
      expect(checkRange(withDuration(initialDraft(NOW), duration)).ok).toBe(true);
  });
});

describe('yearChoices', () => {
  it('is the previous and the current year', () => {
    expect(yearChoices(NOW)).toEqual([2024, 2025]);
  });
});

describe('rangeFields', () => {
  it('sends only the fields of the chosen duration', () => {
    expect(rangeFields(initialDraft(NOW))).toEqual({
      duration: 'daily',
      start_date: '2025-03-09',
      end_date: '2025-03-15',
    });
    expect(rangeFields(withDuration(initialDraft(NOW), 'weekly'))).toEqual({
      duration: 'weekly',
      start_month: '1',
      start_year: '2025',
      end_month: '3',
      end_year: '2025',
    });
    expect(rangeFields(withDuration(initialDraft(NOW), 'yearly'))).toEqual({
      duration: 'yearly',
      start_year: '2024',
      end_year: '2025',
    });
  });

  it('leaves out inputs that are empty', () => {
    expect(rangeFields(draft({ daily: { start: '', end: '2025-03-15' } }))).toEqual({
      duration: 'daily',
      end_date: '2025-03-15',
    });
  });
});

describe('checkRange', () => {
  const fails = (d: StatsRangeDraft) => {
    const result = checkRange(d);
    return result.ok ? undefined : result.message;
  };
  const months = (
    duration: 'weekly' | 'monthly',
    start: [number | null, number | null],
    end: [number | null, number | null],
  ) =>
    draft({
      duration,
      [duration]: {
        start: { month: start[0], year: start[1] },
        end: { month: end[0], year: end[1] },
      },
    });

  it('daily: asks for both dates', () => {
    expect(fails(draft({ daily: { start: '', end: '2025-03-15' } }))).toBe(
      MESSAGES.statsInvalidDates,
    );
    expect(fails(draft({ daily: { start: '2025-02-30', end: '2025-03-15' } }))).toBe(
      MESSAGES.statsInvalidDates,
    );
  });

  it('daily: refuses a start after the end', () => {
    expect(fails(draft({ daily: { start: '2025-03-16', end: '2025-03-15' } }))).toBe(
      MESSAGES.statsDateRangeInvalid,
    );
  });

  it('daily: allows 1 to 31 days', () => {
    expect(fails(draft({ daily: { start: '2025-03-15', end: '2025-03-15' } }))).toBeUndefined();
    expect(fails(draft({ daily: { start: '2025-02-13', end: '2025-03-15' } }))).toBeUndefined();
    expect(fails(draft({ daily: { start: '2025-02-12', end: '2025-03-15' } }))).toBe(
      MESSAGES.statsDailyLimit,
    );
  });

  it('weekly: asks for both months, in order, 1 to 3 months', () => {
    expect(fails(months('weekly', [null, 2025], [3, 2025]))).toBe(MESSAGES.statsInvalidMonths);
    expect(fails(months('weekly', [1, 2025], [3, null]))).toBe(MESSAGES.statsInvalidMonths);
    expect(fails(months('weekly', [3, 2025], [1, 2025]))).toBe(MESSAGES.statsMonthRangeInvalid);
    expect(fails(months('weekly', [11, 2024], [1, 2025]))).toBeUndefined();
    expect(fails(months('weekly', [10, 2024], [1, 2025]))).toBe(MESSAGES.statsWeeklyLimit);
  });

  it('monthly: asks for both months, in order', () => {
    expect(fails(months('monthly', [1, 2024], [null, 2025]))).toBe(MESSAGES.statsInvalidMonths);
    expect(fails(months('monthly', [2, 2025], [1, 2025]))).toBe(MESSAGES.statsMonthRangeInvalid);
    expect(fails(months('monthly', [1, 2024], [12, 2025]))).toBeUndefined();
  });

  it('yearly: asks for both years, in order', () => {
    expect(fails(draft({ duration: 'yearly', yearly: { start: null, end: 2025 } }))).toBe(
      MESSAGES.statsInvalidYears,
    );
    expect(fails(draft({ duration: 'yearly', yearly: { start: 2025, end: 2024 } }))).toBe(
      MESSAGES.statsYearRangeInvalid,
    );
    expect(
      fails(draft({ duration: 'yearly', yearly: { start: 2025, end: 2025 } })),
    ).toBeUndefined();
  });

  it('uses the server’s own limits where the spec quotes none', () => {
    expect(fails(draft({ duration: 'yearly', yearly: { start: 2019, end: 2025 } }))).toBe(
      SERVER_MESSAGES.statsYearlyLimit,
    );
  });

  it('returns the query to send when the range is valid', () => {
    expect(checkRange(initialDraft(NOW))).toEqual({
      ok: true,
      params: { duration: 'daily', start_date: '2025-03-09', end_date: '2025-03-15' },
    });
  });
});
