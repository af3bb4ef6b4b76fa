import { describe, expect, it } from 'vitest';
import { parseRange } from './range.js';

describe('parseRange', () => {
  it('sends the whole blob when there is no usable Range header', () => {
    expect(parseRange(undefined, 100)).toBeUndefined();
    expect(parseRange('items=0-5', 100)).toBeUndefined();
    expect(parseRange('bytes=0-5,10-20', 100)).toBeUndefined();
    expect(parseRange('bytes=-', 100)).toBeUndefined();
  });

  it('reads open, closed and suffix ranges', () => {
    expect(parseRange('bytes=10-', 100)).toEqual({ start: 10, end: 99 });
    expect(parseRange('bytes=0-0', 100)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-30', 100)).toEqual({ start: 70, end: 99 });
    expect(parseRange('bytes=-300', 100)).toEqual({ start: 0, end: 99 });
  });

  it('calls ranges outside the blob unsatisfiable', () => {
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=50-40', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
  });
});
