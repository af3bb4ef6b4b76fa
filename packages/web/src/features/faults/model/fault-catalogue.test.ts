import { describe, expect, it } from 'vitest';
import { describeFault, faultLookup, findDefinition, pageOf } from './fault-catalogue';

const CATALOGUE = [
  { err_code: '5', disp_code: 'E5', description: 'Defrost sensor open' },
  { err_code: '12', disp_code: 'F2', description: 'Door open too long' },
  { err_code: '5', disp_code: 'X5', description: 'A duplicate that must not win' },
];

describe('faultLookup and describeFault', () => {
  it('looks up the display code and description by error code', () => {
    const lookup = faultLookup(CATALOGUE);
    expect(describeFault(lookup, '12')).toEqual({
      err_code: '12',
      disp_code: 'F2',
      description: 'Door open too long',
    });
  });

  it('keeps the first definition of a duplicated code', () => {
    expect(describeFault(faultLookup(CATALOGUE), '5').disp_code).toBe('E5');
  });

  it('keeps an unknown code without a display code or description', () => {
    expect(describeFault(faultLookup(CATALOGUE), '99')).toEqual({
      err_code: '99',
      disp_code: undefined,
      description: undefined,
    });
  });
});

describe('findDefinition', () => {
  it('finds by error code first, then by display code', () => {
    expect(findDefinition(CATALOGUE, '12')?.disp_code).toBe('F2');
    expect(findDefinition(CATALOGUE, 'E5')?.err_code).toBe('5');
    expect(findDefinition(CATALOGUE, 'nope')).toBeUndefined();
  });
});

describe('pageOf', () => {
  const items = Array.from({ length: 23 }, (_, index) => index);

  it('slices one page of a list held in memory', () => {
    expect(pageOf(items, 1, 10)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(pageOf(items, 3, 10)).toEqual([20, 21, 22]);
    expect(pageOf(items, 4, 10)).toEqual([]);
    expect(pageOf(items, 0, 10)).toEqual([]);
  });
});
