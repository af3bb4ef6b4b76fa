import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { positionFromParams, withPosition, withoutCursors } from './list-position';
import { FIRST_PAGE, goNext } from './paging';

const read = (query: string) =>
  positionFromParams(new URLSearchParams(query), PAGE_SIZES.devices, DEFAULT_PAGE_SIZE);

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

  it('falls back to the default for a size the list does not offer, and skips empty cursors', () => {
    expect(read('size=7&cursor=&cursor=fd-node-011')).toEqual({
      pageSize: DEFAULT_PAGE_SIZE,
      stack: ['fd-node-011'],
    });
  });
});

describe('withPosition', () => {
  it('keeps the other parameters and round-trips the position', () => {
    const position = { pageSize: 15, stack: goNext(goNext(FIRST_PAGE, 'a&b'), 'c d') };
    const params = withPosition(new URLSearchParams('status=true'), position, DEFAULT_PAGE_SIZE);
    expect(params.get('status')).toBe('true');
    expect(read(params.toString())).toEqual(position);
  });

  it('writes nothing for page 1 at the default size', () => {
    const params = withPosition(
      new URLSearchParams('search=fd&size=25&cursor=x'),
      { pageSize: DEFAULT_PAGE_SIZE, stack: FIRST_PAGE },
      DEFAULT_PAGE_SIZE,
    );
    expect(params.toString()).toBe('search=fd');
  });
});

describe('withoutCursors', () => {
  it('goes back to page 1 and keeps the page size and filters', () => {
    const params = withoutCursors(
      new URLSearchParams('type=Refrigerator&size=5&cursor=a&cursor=b'),
    );
    expect(params.toString()).toBe('type=Refrigerator&size=5');
  });
});
