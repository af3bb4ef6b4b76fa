import { LIST_DATE_FORMAT } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { formatListDate } from './job-dates';

describe('formatListDate', () => {
  it('writes UTC times as DD MMM YY, HH:mm', () => {
    // 2025-03-07T09:05:00Z
    expect(formatListDate(1741338300, { utc: true })).toBe('07 Mar 25, 09:05');
    expect(LIST_DATE_FORMAT).toBe('DD MMM YY, HH:mm');
  });

  it('pads the day, the year and the time, and uses a 24-hour clock', () => {
    // 2009-12-01T23:59:00Z
    expect(formatListDate(1259711940, { utc: true })).toBe('01 Dec 09, 23:59');
  });

  it('writes local times from the local calendar and clock', () => {
    const local = new Date(2024, 0, 31, 14, 7);
    expect(formatListDate(local.getTime() / 1000, { utc: false })).toBe('31 Jan 24, 14:07');
  });

  it('gives nothing for missing, zero or impossible times', () => {
    expect(formatListDate(undefined, { utc: true })).toBeUndefined();
    expect(formatListDate(0, { utc: true })).toBeUndefined();
    expect(formatListDate(Number.NaN, { utc: false })).toBeUndefined();
    expect(formatListDate(1e20, { utc: true })).toBeUndefined();
  });
});
