import { describe, expect, it } from 'vitest';
import { formatClock, formatDayLabel, formatLogTime, formatZone } from './diag-dates';

const AT = Date.UTC(2026, 2, 14, 20, 5, 9) / 1000;

describe('diagnostics times', () => {
  it('are shown in the viewer zone', () => {
    expect(formatLogTime(AT, 0)).toBe('14 Mar 26 20:05:09');
    expect(formatLogTime(AT, 19_800)).toBe('15 Mar 26 01:35:09');
    expect(formatDayLabel(AT, 19_800)).toBe('15 Mar');
    expect(formatClock(AT, -28_800)).toBe('12:05');
  });

  it('read millisecond timestamps too, and show a dash for nonsense', () => {
    expect(formatLogTime(AT * 1000, 0)).toBe('14 Mar 26 20:05:09');
    expect(formatLogTime(Number.NaN, 0)).toBe('—');
    expect(formatLogTime(0, 0)).toBe('—');
  });

  it('name the zone', () => {
    expect(formatZone(19_800)).toBe('UTC+05:30');
    expect(formatZone(-28_800)).toBe('UTC−08:00');
    expect(formatZone(0)).toBe('UTC+00:00');
  });
});
