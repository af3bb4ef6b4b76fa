import { describe, expect, it } from 'vitest';
import {
  FIRST_LOG_PAGE,
  canGoNextPage,
  canGoPrevPage,
  currentPageToken,
  logPageNumber,
  nextPage,
  prevPage,
} from './page-tokens';

describe('the page-token stack', () => {
  it('starts on page 1 without a token and with Prev disabled', () => {
    expect(currentPageToken(FIRST_LOG_PAGE)).toBeUndefined();
    expect(logPageNumber(FIRST_LOG_PAGE)).toBe(1);
    expect(canGoPrevPage(FIRST_LOG_PAGE)).toBe(false);
  });

  it('pushes the answer token on Next and pops it on Prev', () => {
    const second = nextPage(FIRST_LOG_PAGE, 'tok-2');
    const third = nextPage(second, 'tok-3');
    expect(currentPageToken(third)).toBe('tok-3');
    expect(logPageNumber(third)).toBe(3);
    expect(currentPageToken(prevPage(third))).toBe('tok-2');
    expect(prevPage(prevPage(third))).toEqual(FIRST_LOG_PAGE);
    expect(prevPage(FIRST_LOG_PAGE)).toEqual(FIRST_LOG_PAGE);
  });

  it('offers Next only with a new token', () => {
    expect(canGoNextPage(FIRST_LOG_PAGE, 'tok-2')).toBe(true);
    expect(canGoNextPage(FIRST_LOG_PAGE, undefined)).toBe(false);
    expect(canGoNextPage(FIRST_LOG_PAGE, null)).toBe(false);
    expect(canGoNextPage(FIRST_LOG_PAGE, '')).toBe(false);
    expect(canGoNextPage(['tok-2'], 'tok-2')).toBe(false);
  });
});
