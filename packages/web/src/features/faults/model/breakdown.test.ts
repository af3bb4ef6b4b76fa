import { describe, expect, it } from 'vitest';
import { breakdownRows, formatShare, standOut, strongestStandOut } from './breakdown';

describe('breakdownRows', () => {
  it('orders values by count, largest first, ties by value', () => {
    const rows = breakdownRows([
      { value: '2.0.0', count: 1 },
      { value: '2.1.0', count: 9 },
      { value: '1.9.0', count: 1 },
    ]);
    expect(rows.map((row) => row.value)).toEqual(['2.1.0', '1.9.0', '2.0.0']);
    expect(rows[0]?.share).toBeCloseTo(0.818, 3);
  });

  it('takes shares of the given total when it covers the counts', () => {
    const rows = breakdownRows([{ value: 'Pune', count: 5 }], 10);
    expect(rows[0]?.share).toBe(0.5);
    // A total below the sum would give shares above 100 %: the sum stands in.
    expect(breakdownRows([{ value: 'Pune', count: 5 }], 2)[0]?.share).toBe(1);
  });

  it('merges repeated values and drops empty or broken counts', () => {
    const rows = breakdownRows([
      { value: 'M1', count: 2 },
      { value: 'M1', count: 3 },
      { value: 'M2', count: 0 },
      { value: 'M3', count: Number.NaN },
    ]);
    expect(rows).toEqual([{ value: 'M1', count: 5, share: 1 }]);
  });

  it('folds the values beyond the limit into one row', () => {
    const counts = Array.from({ length: 8 }, (_, index) => ({
      value: `v${index}`,
      count: 10 - index,
    }));
    const rows = breakdownRows(counts, undefined, 5);
    expect(rows).toHaveLength(5);
    expect(rows.at(-1)).toMatchObject({ value: undefined, count: 6 + 5 + 4 + 3, folded: 4 });
  });

  it('never folds a single value', () => {
    const counts = Array.from({ length: 5 }, (_, index) => ({ value: `v${index}`, count: 1 }));
    expect(breakdownRows(counts, undefined, 5).every((row) => row.value !== undefined)).toBe(true);
  });

  it('is empty when nothing is affected', () => {
    expect(breakdownRows([])).toEqual([]);
    expect(breakdownRows([{ value: 'x', count: 0 }], 0)).toEqual([]);
  });
});

describe('formatShare', () => {
  it('rounds to whole percent and never hides a small or partial share', () => {
    expect(formatShare(0.9)).toBe('90%');
    expect(formatShare(1)).toBe('100%');
    expect(formatShare(0.004)).toBe('<1%');
    expect(formatShare(0.996)).toBe('>99%');
    expect(formatShare(0)).toBe('0%');
  });
});

describe('standOut', () => {
  it('calls out a value that holds most of the affected devices', () => {
    const rows = breakdownRows([
      { value: '2.1.0', count: 9 },
      { value: '2.0.0', count: 1 },
    ]);
    expect(standOut(rows)).toEqual({ value: '2.1.0', share: 0.9 });
  });

  it('says nothing for an even spread or too few devices', () => {
    const even = breakdownRows([
      { value: 'a', count: 5 },
      { value: 'b', count: 5 },
    ]);
    expect(standOut(even)).toBeUndefined();
    expect(standOut(breakdownRows([{ value: 'a', count: 4 }]))).toBeUndefined();
    expect(standOut([])).toBeUndefined();
  });

  it('never calls out the folded row', () => {
    const rows = [{ value: undefined, count: 10, share: 1, folded: 3 }];
    expect(standOut(rows)).toBeUndefined();
  });
});

describe('strongestStandOut', () => {
  it('keeps the strongest call-out, the first dimension on a tie', () => {
    const fw = { value: '2.1.0', share: 0.9 };
    const city = { value: 'Pune', share: 0.9 };
    const model = { value: 'RF-200', share: 0.7 };
    expect(
      strongestStandOut([
        { key: 'fw', insight: fw },
        { key: 'model', insight: model },
        { key: 'city', insight: city },
      ]),
    ).toEqual({ key: 'fw', insight: fw });
    expect(
      strongestStandOut([
        { key: 'fw', insight: undefined },
        { key: 'model', insight: model },
      ]),
    ).toEqual({ key: 'model', insight: model });
    expect(strongestStandOut([{ key: 'fw', insight: undefined }])).toBeUndefined();
  });
});
