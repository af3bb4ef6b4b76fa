import { DATE_FORMAT } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { formatFaultDate } from './fault-dates';

describe('formatFaultDate', () => {
  it('writes epoch seconds in UTC as DD MMM YY HH:mm', () => {
    // 2025-03-07T09:05:00Z
    expect(formatFaultDate(1741338300)).toBe('07 Mar 25 09:05');
    expect(DATE_FORMAT).toBe('DD MMM YY HH:mm');
  });

  it('pads the day, the year and the time, and uses a 24-hour clock', () => {
    // 2009-12-01T23:59:00Z
    expect(formatFaultDate(1259711940)).toBe('01 Dec 09 23:59');
  });

  it('reads a millisecond timestamp as milliseconds', () => {
    expect(formatFaultDate(1741338300000)).toBe('07 Mar 25 09:05');
  });

  it('gives nothing for missing, zero, negative or impossible times', () => {
    expect(formatFaultDate(undefined)).toBeUndefined();
    expect(formatFaultDate(null)).toBeUndefined();
    expect(formatFaultDate(0)).toBeUndefined();
    expect(formatFaultDate(-5)).toBeUndefined();
    expect(formatFaultDate(Number.NaN)).toBeUndefined();
    expect(formatFaultDate(1e20)).toBeUndefined();
  });
});
