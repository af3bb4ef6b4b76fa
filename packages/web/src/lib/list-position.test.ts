import {
  DEFAULT_NODES_OF_GROUP_PAGE_SIZE,
  DEFAULT_PAGE_SIZE,
  PAGE_SIZES,
} from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import {
  isGonePage,
  isIdCursor,
  isPlausibleCursor,
  pagePositionFromParams,
  positionFromParams,
  withPagePosition,
  withPosition,
  withoutCursors,
} from './list-position';
import { FIRST_PAGE, goNext, pageNumber } from './paging';

const read = (query: string) =>
  positionFromParams(new URLSearchParams(query), PAGE_SIZES.devices, DEFAULT_PAGE_SIZE);

const readPage = (query: string) =>
  pagePositionFromParams(new URLSearchParams(query), PAGE_SIZES.faultList, DEFAULT_PAGE_SIZE);

describe('positionFromParams', () => {
  it('is page 1 at the default size without parameters', () => {
    expect(read('type=Refrigerator')).toEqual({ pageSize: DEFAULT_PAGE_SIZE, stack: FIRST_PAGE });
  });

  it('reads the page size and the cursors in order', () => {
    expect(read('size=25&cursor=fd-node-026&cursor=fd-node-051')).toEqual({
      pageSize: 25,
      stack: ['fd-node-026', 'fd-node-051'],
    });
  });

  it('falls back to the default for a size the list does not offer', () => {
    for (const size of ['7', '', 'ten', '10.5', '-5', '1e1x', '25abc'])
      expect(read(`size=${size}&cursor=fd-node-011`)).toEqual({
        pageSize: DEFAULT_PAGE_SIZE,
        stack: ['fd-node-011'],
      });
  });

  it('uses the default of the list it reads for', () => {
    const position = positionFromParams(
      new URLSearchParams('size=10'),
      PAGE_SIZES.nodesOfGroup,
      DEFAULT_NODES_OF_GROUP_PAGE_SIZE,
    );
    expect(position.pageSize).toBe(10);
    const jobs = positionFromParams(new URLSearchParams('size=15'), PAGE_SIZES.jobs, 10);
    expect(jobs.pageSize).toBe(10);
  });

  it('goes to page 1 when any cursor is malformed, so the page number is never wrong', () => {
    const tooLong = 'x'.repeat(65);
    for (const bad of ['', ' padded', tooLong])
      expect(read(`cursor=a&cursor=${encodeURIComponent(bad)}&cursor=c`).stack).toEqual(FIRST_PAGE);
  });

  it('takes a stricter cursor rule from the list', () => {
    const params = new URLSearchParams('cursor=abc&cursor=a%3Cb');
    expect(positionFromParams(params, PAGE_SIZES.jobs, 10, isIdCursor).stack).toEqual(FIRST_PAGE);
    expect(positionFromParams(params, PAGE_SIZES.jobs, 10).stack).toEqual(['abc', 'a<b']);
  });
});

describe('isPlausibleCursor', () => {
  it('takes what a list API takes as start_id: 1 to 64 characters, trimmed', () => {
    expect(isPlausibleCursor('FFFF-FFFF')).toBe(true);
    expect(isPlausibleCursor('group with spaces')).toBe(true);
    expect(isPlausibleCursor('x'.repeat(64))).toBe(true);
    expect(isPlausibleCursor('x'.repeat(65))).toBe(false);
    expect(isPlausibleCursor('')).toBe(false);
    expect(isPlausibleCursor('id ')).toBe(false);
  });
});

describe('isIdCursor', () => {
  it('takes node, image and job ids only', () => {
    expect(isIdCursor('fd-node-011')).toBe(true);
    expect(isIdCursor('Vx3_9-aa')).toBe(true);
    expect(isIdCursor('a<b')).toBe(false);
    expect(isIdCursor('two words')).toBe(false);
    expect(isIdCursor('x'.repeat(65))).toBe(false);
    expect(isIdCursor('')).toBe(false);
  });
});

describe('withPosition', () => {
  it('keeps the other parameters and round-trips the position', () => {
    const position = { pageSize: 15, stack: goNext(goNext(FIRST_PAGE, 'a&b'), 'c d') };
    const params = withPosition(new URLSearchParams('status=true'), position, DEFAULT_PAGE_SIZE);
    expect(params.get('status')).toBe('true');
    expect(read(params.toString())).toEqual(position);
    expect(pageNumber(read(params.toString()).stack)).toBe(3);
  });

  it('writes nothing for page 1 at the default size', () => {
    const params = withPosition(
      new URLSearchParams('search=fd&size=25&cursor=x'),
      { pageSize: DEFAULT_PAGE_SIZE, stack: FIRST_PAGE },
      DEFAULT_PAGE_SIZE,
    );
    expect(params.toString()).toBe('search=fd');
  });

  it('replaces the cursors rather than adding to them, and drops a page number', () => {
    const params = withPosition(
      new URLSearchParams('cursor=old&page=4'),
      { pageSize: 5, stack: ['new'] },
      DEFAULT_PAGE_SIZE,
    );
    expect(params.toString()).toBe('size=5&cursor=new');
  });
});

describe('pagePositionFromParams', () => {
  it('is page 1 at the default size without parameters', () => {
    expect(readPage('type=ref')).toEqual({ pageSize: DEFAULT_PAGE_SIZE, page: 1 });
  });

  it('reads the page size and the page number', () => {
    expect(readPage('type=ref&size=20&page=3')).toEqual({ pageSize: 20, page: 3 });
  });

  it('reads page 1 for a page that is not a positive whole number', () => {
    for (const page of ['0', '-2', '1.5', 'two', '', '02', '1e3', '99999999999999999999'])
      expect(readPage(`page=${page}`).page).toBe(1);
  });

  it('falls back to the default for a size the list does not offer', () => {
    expect(readPage('size=5&page=2')).toEqual({ pageSize: DEFAULT_PAGE_SIZE, page: 2 });
  });
});

describe('withPagePosition', () => {
  it('round-trips and writes nothing for page 1 at the default size', () => {
    const params = withPagePosition(
      new URLSearchParams('type=ac&page=3&size=25'),
      { pageSize: 20, page: 2 },
      DEFAULT_PAGE_SIZE,
    );
    expect(params.toString()).toBe('type=ac&size=20&page=2');
    expect(readPage(params.toString())).toEqual({ pageSize: 20, page: 2 });
    expect(
      withPagePosition(params, { pageSize: DEFAULT_PAGE_SIZE, page: 1 }, DEFAULT_PAGE_SIZE),
    ).toEqual(new URLSearchParams('type=ac'));
  });
});

describe('withoutCursors', () => {
  it('goes back to page 1 and keeps the page size and filters', () => {
    const params = withoutCursors(
      new URLSearchParams('type=Refrigerator&size=5&cursor=a&cursor=b&page=3'),
    );
    expect(params.toString()).toBe('type=Refrigerator&size=5');
  });
});

describe('isGonePage', () => {
  const rows = (count: number) => Array.from({ length: count }, (_, index) => index);

  it('is gone when the page answered no rows', () => {
    expect(isGonePage({ rows: [], error: null, placeholder: false })).toBe(true);
  });

  it('is not gone while the previous page is shown in its place, or before an answer', () => {
    expect(isGonePage({ rows: [], error: null, placeholder: true })).toBe(false);
    expect(isGonePage({ rows: undefined, error: null, placeholder: false })).toBe(false);
    expect(isGonePage({ rows: rows(3), error: null, placeholder: false })).toBe(false);
  });

  it('is gone when the cursor is refused or not found, not when the server or network failed', () => {
    const failure = (status: number) => new ApiError(status, 'failed', null);
    expect(isGonePage({ rows: undefined, error: failure(400), placeholder: false })).toBe(true);
    expect(isGonePage({ rows: undefined, error: failure(404), placeholder: false })).toBe(true);
    expect(isGonePage({ rows: undefined, error: failure(500), placeholder: false })).toBe(false);
    expect(isGonePage({ rows: undefined, error: failure(0), placeholder: false })).toBe(false);
    expect(isGonePage({ rows: undefined, error: new Error('boom'), placeholder: false })).toBe(
      false,
    );
  });
});
