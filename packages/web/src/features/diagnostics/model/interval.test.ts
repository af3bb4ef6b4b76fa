import { describe, expect, it } from 'vitest';
import {
  DAY_SECONDS,
  DEFAULT_WINDOW_CHOICE,
  browserTzOffsetSeconds,
  choiceAfterBarClick,
  parseWindowChoice,
  reportWindow,
  startOfDay,
  toEpochSeconds,
} from './interval';

const IST = 19_800; // India, +05:30
const PST = -28_800; // -08:00
// 2026-03-15 10:00:00 UTC
const NOW = Date.UTC(2026, 2, 15, 10, 0, 0) / 1000;

describe('timestamps', () => {
  it('are 10-digit epoch seconds', () => {
    expect(toEpochSeconds(Date.UTC(2026, 2, 15, 10, 0, 0, 999))).toBe(NOW);
    expect(String(NOW)).toHaveLength(10);
  });

  it('take the offset east of UTC in seconds from the browser', () => {
    const date = new Date();
    expect(browserTzOffsetSeconds(date)).toBe(-date.getTimezoneOffset() * 60 || 0);
    expect(Object.is(browserTzOffsetSeconds({ getTimezoneOffset: () => 0 } as Date), -0)).toBe(
      false,
    );
  });
});

describe('startOfDay', () => {
  it('is local midnight in the given offset', () => {
    expect(startOfDay(NOW, 0)).toBe(Date.UTC(2026, 2, 15) / 1000);
    // 15:30 in India, midnight there was 18:30 UTC the day before.
    expect(startOfDay(NOW, IST)).toBe(Date.UTC(2026, 2, 14, 18, 30) / 1000);
    // 02:00 in California, midnight there was 08:00 UTC.
    expect(startOfDay(NOW, PST)).toBe(Date.UTC(2026, 2, 15, 8, 0) / 1000);
  });

  it('puts a moment just after local midnight on the new day', () => {
    const justAfter = Date.UTC(2026, 2, 14, 18, 30, 1) / 1000;
    expect(startOfDay(justAfter, IST)).toBe(Date.UTC(2026, 2, 14, 18, 30) / 1000);
    expect(startOfDay(justAfter - 2, IST)).toBe(Date.UTC(2026, 2, 13, 18, 30) / 1000);
  });
});

describe('reportWindow', () => {
  it('defaults to Month: 30 whole local days ending now', () => {
    expect(DEFAULT_WINDOW_CHOICE.interval).toBe('Month');
    const window = reportWindow(DEFAULT_WINDOW_CHOICE, NOW, IST);
    expect(window.start).toBe(startOfDay(NOW, IST) - 29 * DAY_SECONDS);
    expect(window.end).toBe(NOW + 1);
  });

  it('covers today and the 6 days before for Week', () => {
    const window = reportWindow({ interval: 'Week' }, NOW, PST);
    expect(window.start).toBe(startOfDay(NOW, PST) - 6 * DAY_SECONDS);
    expect(Math.ceil((window.end - window.start) / DAY_SECONDS)).toBe(7);
  });

  it('shows today so far for Day, or the whole chosen day', () => {
    expect(reportWindow({ interval: 'Day' }, NOW, 0)).toEqual({
      start: Date.UTC(2026, 2, 15) / 1000,
      end: NOW + 1,
    });
    const chosen = Date.UTC(2026, 2, 10) / 1000;
    expect(reportWindow({ interval: 'Day', day: chosen + 3600 }, NOW, 0)).toEqual({
      start: chosen,
      end: chosen + DAY_SECONDS,
    });
  });
});

describe('a click on a timeline bar', () => {
  it('switches Week or Month to Day for that bar, in the viewer zone', () => {
    const bar = Date.UTC(2026, 2, 3, 18, 30) / 1000; // midnight of 4 March in India
    expect(choiceAfterBarClick({ interval: 'Month' }, bar, IST)).toEqual({
      interval: 'Day',
      day: bar,
    });
    expect(choiceAfterBarClick({ interval: 'Week' }, bar + 7200, IST)).toEqual({
      interval: 'Day',
      day: bar,
    });
  });

  it('changes nothing in Day', () => {
    const day = { interval: 'Day' as const, day: NOW };
    expect(choiceAfterBarClick(day, NOW - 3600, 0)).toBe(day);
  });
});

describe('parseWindowChoice', () => {
  it('reads the URL and falls back to Month', () => {
    expect(parseWindowChoice(null, null)).toEqual({ interval: 'Month' });
    expect(parseWindowChoice('Year', null)).toEqual({ interval: 'Month' });
    expect(parseWindowChoice('Week', '123')).toEqual({ interval: 'Week' });
    expect(parseWindowChoice('Day', String(NOW))).toEqual({ interval: 'Day', day: NOW });
    expect(parseWindowChoice('Day', 'soon')).toEqual({ interval: 'Day' });
  });
});
