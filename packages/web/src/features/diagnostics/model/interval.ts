import {
  DIAGNOSTICS_DEFAULT_INTERVAL,
  DIAGNOSTICS_INTERVALS,
  DIAGNOSTICS_MONTH_WINDOW_DAYS,
  DIAGNOSTICS_WEEK_WINDOW_DAYS,
} from '@fleetdeck/contract';

/**
 * The Device Report's time window (access §4 "Diagnostics interval", §9): Day, Week (7 days) or
 * Month (30 days), default Month. Days start at midnight in the viewer's time zone, which the
 * insights API is told as an offset in seconds; every timestamp sent is 10 digits (seconds).
 */
export type DiagnosticsInterval = (typeof DIAGNOSTICS_INTERVALS)[number];

export const DAY_SECONDS = 86_400;

/** What the report shows: an interval, and for Day the start of the chosen day (else today). */
export interface ReportWindowChoice {
  interval: DiagnosticsInterval;
  /** Start of the chosen day (epoch seconds); only for Day. */
  day?: number | undefined;
}

export const DEFAULT_WINDOW_CHOICE: ReportWindowChoice = { interval: DIAGNOSTICS_DEFAULT_INTERVAL };

/** A window in epoch seconds, start inclusive, end exclusive. */
export interface TimeWindow {
  start: number;
  end: number;
}

/** Whether a value is one of the three intervals (e.g. from the URL). */
export function isDiagnosticsInterval(value: unknown): value is DiagnosticsInterval {
  return (DIAGNOSTICS_INTERVALS as readonly unknown[]).includes(value);
}

/** Epoch seconds (10 digits) from milliseconds. */
export function toEpochSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/**
 * The viewer's offset from UTC in seconds, east positive (India +19800), at a given moment
 * (daylight saving changes it).
 */
export function browserTzOffsetSeconds(at: Date = new Date()): number {
  // getTimezoneOffset() is minutes *behind* UTC; `|| 0` turns -0 into 0.
  return -at.getTimezoneOffset() * 60 || 0;
}

/** Midnight (epoch seconds) of the day `epochSeconds` falls on, in a zone `tzOffset` east of UTC. */
export function startOfDay(epochSeconds: number, tzOffset: number): number {
  return Math.floor((epochSeconds + tzOffset) / DAY_SECONDS) * DAY_SECONDS - tzOffset;
}

/** How many whole days an interval covers. */
export function intervalDays(interval: DiagnosticsInterval): number {
  switch (interval) {
    case 'Day':
      return 1;
    case 'Week':
      return DIAGNOSTICS_WEEK_WINDOW_DAYS;
    case 'Month':
      return DIAGNOSTICS_MONTH_WINDOW_DAYS;
  }
}

/**
 * The window of a choice: whole local days ending with today (Week: today and the 6 days before),
 * so every timeline bar is a full day; a chosen Day is that day. The end never lies in the future.
 */
export function reportWindow(
  choice: ReportWindowChoice,
  now: number,
  tzOffset: number,
): TimeWindow {
  const today = startOfDay(now, tzOffset);
  if (choice.interval === 'Day') {
    const day = choice.day === undefined ? today : startOfDay(choice.day, tzOffset);
    return { start: day, end: Math.min(day + DAY_SECONDS, Math.max(now + 1, day + 1)) };
  }
  const days = intervalDays(choice.interval);
  return { start: today - (days - 1) * DAY_SECONDS, end: now + 1 };
}

/**
 * A click on a timeline bar: in Week or Month it opens that bar's day; in Day nothing changes
 * (the bars are hours of the day already shown).
 */
export function choiceAfterBarClick(
  choice: ReportWindowChoice,
  barTimestamp: number,
  tzOffset: number,
): ReportWindowChoice {
  if (choice.interval === 'Day') return choice;
  return { interval: 'Day', day: startOfDay(barTimestamp, tzOffset) };
}

/** Reads a choice back from the URL (`interval`, `day`), falling back to Month. */
export function parseWindowChoice(interval: string | null, day: string | null): ReportWindowChoice {
  if (!isDiagnosticsInterval(interval)) return DEFAULT_WINDOW_CHOICE;
  if (interval !== 'Day') return { interval };
  const parsed = day === null ? Number.NaN : Number(day);
  return Number.isInteger(parsed) && parsed > 0 ? { interval, day: parsed } : { interval };
}
