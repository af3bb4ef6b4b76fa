import { describe, expect, it } from 'vitest';
import { metricTableData, timelineTableData } from './chart-table';

/** 14 Nov 2023, 00:00 UTC. */
const DAY = 1_699_920_000;

describe('timelineTableData', () => {
  it('has a row per bar labelled by its day or hour, and a count per log type', () => {
    const bars = [
      { timestamp: DAY, counts: { crash: 1, reboot: 0, error: 2, warning: 0, event: 7 } },
      { timestamp: DAY + 86_400, counts: { crash: 0, reboot: 1, error: 0, warning: 3, event: 0 } },
    ];
    const days = timelineTableData(bars, { hourly: false, tzOffset: 0, rowHeader: 'Date' });
    expect(days.columns).toEqual(['Crash', 'Reboot', 'Error', 'Warning', 'Event']);
    expect(days.rows.map((row) => [row.label, ...row.values])).toEqual([
      ['14 Nov', '1', '0', '2', '0', '7'],
      ['15 Nov', '0', '1', '0', '3', '0'],
    ]);
    const hours = timelineTableData(bars.slice(0, 1), {
      hourly: true,
      tzOffset: 3600,
      rowHeader: 'Hour',
    });
    expect(hours.rows[0]?.label).toBe('01:00');
  });
});

describe('metricTableData', () => {
  it('lines up the points of every line by time, oldest first, with gaps left empty', () => {
    const table = metricTableData(
      [
        {
          name: 'Free heap',
          unit: 'bytes',
          points: [
            [120, 1000],
            [60, 1200.456],
          ],
        },
        { name: 'RSSI', points: [[60, -61]] },
      ],
      { tzOffset: 0, rowHeader: 'Time' },
    );
    expect(table.columns).toEqual(['Free heap (bytes)', 'RSSI']);
    expect(table.rows.map((row) => [row.label, ...row.values])).toEqual([
      ['01 Jan 70 00:01:00', '1200.46', '-61'],
      ['01 Jan 70 00:02:00', '1000', undefined],
    ]);
  });
});
