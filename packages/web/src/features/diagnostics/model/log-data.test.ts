import { describe, expect, it } from 'vitest';
import { dataPairs, sortedRegisters, timelineBars, totalCount } from './log-data';

describe('timelineBars', () => {
  it('pairs each interval with its counts, oldest first', () => {
    const zero = { crash: 0, reboot: 0, error: 0, warning: 0, event: 0 };
    const bars = timelineBars({
      interval: 'Week',
      start: 100,
      end: 300,
      bucket_seconds: 86_400,
      intervals: [100, 200],
      data: [
        { ...zero, ts: 100, crash: 1 },
        { ...zero, ts: 200, event: 3 },
      ],
    });
    expect(bars.map((b) => [b.timestamp, b.counts.crash, b.counts.event])).toEqual([
      [100, 1, 0],
      [200, 0, 3],
    ]);
    expect(totalCount({ crash: 1, reboot: 2, error: 3, warning: 4, event: 5 })).toBe(15);
  });
});

describe('log data', () => {
  it('shows nested values as JSON', () => {
    expect(dataPairs({ temp: 41.5, door: 'open', extra: { a: 1 } })).toEqual([
      ['temp', '41.5'],
      ['door', 'open'],
      ['extra', '{"a":1}'],
    ]);
    expect(dataPairs(undefined)).toEqual([]);
  });

  it('orders registers by name and number', () => {
    expect(
      sortedRegisters({ a10: '1', a2: '2', a0: '3', sp: '4', ra: '5' }).map(([n]) => n),
    ).toEqual(['a0', 'a2', 'a10', 'ra', 'sp']);
  });
});
