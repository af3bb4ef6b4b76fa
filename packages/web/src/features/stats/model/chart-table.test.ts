import { describe, expect, it } from 'vitest';
import { chartTableData } from './chart-table';

describe('chartTableData', () => {
  const data = {
    categories: ['01 Nov', '02 Nov'],
    series: [
      { name: 'Online', color: '#0f0', kind: 'line' as const, values: [1200, 3] },
      { name: 'Offline', color: '#f00', kind: 'line' as const, values: [0] },
    ],
  };

  it('has a row per category and a column per series, with counts formatted', () => {
    expect(chartTableData(data, 'Period')).toEqual({
      rowHeader: 'Period',
      columns: ['Online', 'Offline'],
      rows: [
        { key: '0:01 Nov', label: '01 Nov', values: ['1,200', '0'] },
        { key: '1:02 Nov', label: '02 Nov', values: ['3', undefined] },
      ],
    });
  });

  it('names the columns as told', () => {
    expect(chartTableData(data, 'Fault code', ['Devices']).columns).toEqual(['Devices', 'Offline']);
  });
});
