import { describe, expect, it } from 'vitest';
import { distributionOption, hasValues, timeSeriesOption, type ChartData } from './chart-options';

const data: ChartData = {
  categories: ['09 Mar', '10 Mar'],
  series: [
    { name: 'Online', color: 'green', kind: 'line', values: [3, 4] },
    { name: 'Offline', color: 'gray', kind: 'bar', stack: 'all', values: [1, 0] },
  ],
};

describe('hasValues', () => {
  it('is false for no periods or only zeros', () => {
    expect(hasValues({ categories: [], series: [] })).toBe(false);
    expect(
      hasValues({
        categories: ['a'],
        series: [{ name: 'x', color: 'c', kind: 'bar', values: [0] }],
      }),
    ).toBe(false);
    expect(hasValues(data)).toBe(true);
  });
});

describe('timeSeriesOption', () => {
  it('draws each series with its kind, colour and stack, and a legend for several', () => {
    const option = timeSeriesOption(data);
    expect(option.xAxis).toMatchObject({ type: 'category', data: ['09 Mar', '10 Mar'] });
    expect(option.legend).toMatchObject({ show: true });
    expect(option.series).toMatchObject([
      { type: 'line', name: 'Online', data: [3, 4], itemStyle: { color: 'green' } },
      { type: 'bar', name: 'Offline', data: [1, 0], stack: 'all' },
    ]);
  });

  it('counts in whole numbers', () => {
    expect(timeSeriesOption(data).yAxis).toMatchObject({ minInterval: 1 });
  });
});

describe('distributionOption', () => {
  it('puts the largest bar on top', () => {
    const option = distributionOption({
      categories: ['E5', 'E2'],
      series: [{ name: 'AC', color: 'red', kind: 'bar', values: [7, 2] }],
    });
    expect(option.yAxis).toMatchObject({ data: ['E2', 'E5'] });
    expect(option.series).toMatchObject([{ type: 'bar', data: [2, 7] }]);
  });
});
