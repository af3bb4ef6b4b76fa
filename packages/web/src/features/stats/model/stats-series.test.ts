import type { StatsSeries } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { dayLabel, periodOf, rangeSum, timeChartData } from './stats-series';

describe('periodOf', () => {
  it('reads a daily point as its UTC day', () => {
    expect(periodOf({ daily_count: 4, date: '2025-03-09' })).toEqual({
      key: '2025-03-09',
      label: '09 Mar',
      count: 4,
    });
  });

  it('reads a weekly point as the days it spans', () => {
    expect(periodOf({ weekly_count: 2, start_date: '2025-03-03', end_date: '2025-03-09' })).toEqual(
      { key: '2025-03-03', label: '03 Mar – 09 Mar', count: 2 },
    );
    expect(
      periodOf({ weekly_count: 1, start_date: '2025-03-31', end_date: '2025-03-31' }).label,
    ).toBe('31 Mar');
  });

  it('reads a monthly point with an English month name and sorts it by number', () => {
    expect(periodOf({ monthly_count: 7, month: 'March', year: 2025 })).toEqual({
      key: '2025-03',
      label: 'Mar 2025',
      count: 7,
    });
    expect(periodOf({ monthly_count: 7, month: 'October', year: 2024 }).key < '2025-03').toBe(true);
  });

  it('reads a yearly point', () => {
    expect(periodOf({ yearly_count: 9, year: '2024' })).toEqual({
      key: '2024',
      label: '2024',
      count: 9,
    });
  });

  it('keeps text it cannot read as a date', () => {
    expect(dayLabel('soon')).toBe('soon');
  });
});

describe('timeChartData', () => {
  const nodes: StatsSeries = {
    total_count: 10,
    // Newest first, as the server answers.
    data: [
      { daily_count: 3, date: '2025-03-11' },
      { daily_count: 0, date: '2025-03-10' },
      { daily_count: 5, date: '2025-03-09' },
    ],
  };
  const users: StatsSeries = {
    total_count: 2,
    data: [
      { daily_count: 1, date: '2025-03-11' },
      { daily_count: 1, date: '2025-03-09' },
    ],
  };

  it('puts the oldest period first and lines the metrics up by period', () => {
    const chart = timeChartData([
      { series: nodes, name: 'Devices', color: 'blue', kind: 'bar' },
      { series: users, name: 'Users', color: 'green', kind: 'line', stack: 's' },
    ]);
    expect(chart.categories).toEqual(['09 Mar', '10 Mar', '11 Mar']);
    expect(chart.series).toEqual([
      { name: 'Devices', color: 'blue', kind: 'bar', values: [5, 0, 3] },
      { name: 'Users', color: 'green', kind: 'line', stack: 's', values: [1, 0, 1] },
    ]);
  });

  it('draws nothing for a metric the answer left out', () => {
    const chart = timeChartData([{ series: undefined, name: 'X', color: 'red', kind: 'bar' }]);
    expect(chart).toEqual({
      categories: [],
      series: [{ name: 'X', color: 'red', kind: 'bar', values: [] }],
    });
  });
});

describe('rangeSum', () => {
  it('adds the counts of the range', () => {
    expect(
      rangeSum({
        total_count: 99,
        data: [
          { monthly_count: 2, month: 'January', year: 2025 },
          { monthly_count: 3, month: 'February', year: 2025 },
        ],
      }),
    ).toBe(5);
    expect(rangeSum(undefined)).toBe(0);
    expect(rangeSum({ total_count: 1 })).toBe(0);
  });
});
