import { describe, expect, it } from 'vitest';
import { displayCodesOf, faultChartData } from './fault-distribution';

const options = { name: 'AC', color: 'red', otherLabel: 'Other' };

describe('faultChartData', () => {
  it('lists codes most frequent first, ties in code order, and counts the devices', () => {
    const chart = faultChartData(
      [
        { value: '10', count: 2 },
        { value: '2', count: 2 },
        { value: '5', count: 7 },
      ],
      options,
    );
    expect(chart.data.categories).toEqual(['5', '2', '10']);
    expect(chart.data.series[0]?.values).toEqual([7, 2, 2]);
    expect(chart.total).toBe(11);
  });

  it('shows the display code the catalogue gives for a reported code', () => {
    const displayCodes = displayCodesOf([
      { err_code: '5', disp_code: 'E5' },
      { err_code: '2', disp_code: 'E2' },
    ]);
    const chart = faultChartData(
      [
        { value: '5', count: 3 },
        { value: '9', count: 1 },
      ],
      { ...options, displayCodes },
    );
    expect(chart.data.categories).toEqual(['E5', '9']);
  });

  it('folds the codes beyond the top ones into Other', () => {
    const distribution = Array.from({ length: 6 }, (_, i) => ({ value: `c${i}`, count: 10 - i }));
    const chart = faultChartData(distribution, { ...options, top: 3 });
    expect(chart.data.categories).toEqual(['c0', 'c1', 'c2', 'Other']);
    expect(chart.data.series[0]?.values).toEqual([10, 9, 8, 7 + 6 + 5]);
    expect(chart.total).toBe(10 + 9 + 8 + 7 + 6 + 5);
  });

  it('never folds a single code into Other', () => {
    const distribution = Array.from({ length: 4 }, (_, i) => ({ value: `c${i}`, count: 4 - i }));
    expect(faultChartData(distribution, { ...options, top: 3 }).data.categories).toEqual([
      'c0',
      'c1',
      'c2',
      'c3',
    ]);
  });

  it('counts devices on pages not fetched as Other', () => {
    const chart = faultChartData([{ value: '1', count: 4 }], { ...options, totalNodes: 6 });
    expect(chart.data.categories).toEqual(['1', 'Other']);
    expect(chart.data.series[0]?.values).toEqual([4, 2]);
    expect(chart.total).toBe(6);
  });

  it('ignores zero counts and draws nothing without faults', () => {
    const chart = faultChartData([{ value: '1', count: 0 }], options);
    expect(chart.data.categories).toEqual([]);
    expect(chart.total).toBe(0);
  });
});

describe('displayCodesOf', () => {
  it('is undefined without a catalogue', () => {
    expect(displayCodesOf(undefined)).toBeUndefined();
  });
});
