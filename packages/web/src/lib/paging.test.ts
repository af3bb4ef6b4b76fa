import { PAGE_SIZES } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import {
  FIRST_PAGE,
  clampPage,
  canGoNext,
  canGoPrev,
  currentCursor,
  goNext,
  goPrev,
  pageCount,
  pageNumber,
  toPageSize,
} from './paging';

describe('pageCount', () => {
  it('is ceil(total / page size)', () => {
    expect(pageCount(25, 10)).toBe(3);
    expect(pageCount(30, 10)).toBe(3);
    expect(pageCount(31, 15)).toBe(3);
    expect(pageCount(1, 25)).toBe(1);
    expect(pageCount(1_000_000, 25)).toBe(40_000);
  });

  it('is 1 when there is no total or nothing matched', () => {
    expect(pageCount(undefined, 10)).toBe(1);
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(Number.NaN, 10)).toBe(1);
  });
});

describe('the cursor stack', () => {
  it('starts on page 1 with Prev disabled and no cursor', () => {
    expect(pageNumber(FIRST_PAGE)).toBe(1);
    expect(canGoPrev(FIRST_PAGE)).toBe(false);
    expect(currentCursor(FIRST_PAGE)).toBeUndefined();
  });

  it('pushes next_id on Next and pops it on Prev', () => {
    const second = goNext(FIRST_PAGE, 'node-011');
    const third = goNext(second, 'node-021');
    expect(pageNumber(third)).toBe(3);
    expect(currentCursor(third)).toBe('node-021');
    expect(canGoPrev(third)).toBe(true);

    const back = goPrev(third);
    expect(back).toEqual(['node-011']);
    expect(currentCursor(back)).toBe('node-011');
    expect(goPrev(back)).toEqual(FIRST_PAGE);
  });

  it('does not change the stack it was given', () => {
    const stack = goNext(FIRST_PAGE, 'a');
    goNext(stack, 'b');
    goPrev(stack);
    expect(stack).toEqual(['a']);
  });

  it('never pops below the first page', () => {
    expect(goPrev(FIRST_PAGE)).toEqual(FIRST_PAGE);
  });

  it('disables Next when the server sends no next_id', () => {
    expect(canGoNext(undefined)).toBe(false);
    expect(canGoNext('')).toBe(false);
    expect(canGoNext('node-011')).toBe(true);
  });
});

describe('toPageSize', () => {
  it('accepts only the device list sizes 5, 10, 15 and 25, defaulting to 10', () => {
    for (const size of [5, 10, 15, 25])
      expect(toPageSize(String(size), PAGE_SIZES.devices, 10)).toBe(size);
    expect(toPageSize('20', PAGE_SIZES.devices, 10)).toBe(10);
    expect(toPageSize(null, PAGE_SIZES.devices, 10)).toBe(10);
  });
});

describe('clampPage', () => {
  it('keeps a page number inside the list', () => {
    expect(clampPage(3, 23, 10)).toBe(3);
    expect(clampPage(3, 23, 25)).toBe(1);
    expect(clampPage(9, 23, 10)).toBe(3);
    expect(clampPage(0, 23, 10)).toBe(1);
    expect(clampPage(2, 0, 10)).toBe(1);
    expect(clampPage(2, undefined, 10)).toBe(1);
    expect(clampPage(Number.NaN, 23, 10)).toBe(1);
  });
});
