import {
  STATS_DAILY_DEFAULT_DAYS,
  STATS_WEEKLY_MAX_MONTHS,
  STATS_YEAR_CHOICES,
  statsRangeOf,
  type StatsDuration,
} from '@fleetdeck/contract';

/** A month picked in the form: 1–12 and a year, either still empty. */
export interface MonthOfYear {
  month: number | null;
  year: number | null;
}

/**
 * What the duration selector holds. Each duration keeps its own inputs, so switching Daily →
 * Monthly → Daily brings back the dates the operator had.
 */
export interface StatsRangeDraft {
  duration: StatsDuration;
  daily: { start: string; end: string };
  weekly: { start: MonthOfYear; end: MonthOfYear };
  monthly: { start: MonthOfYear; end: MonthOfYear };
  yearly: { start: number | null; end: number | null };
}

/** The query string of GET /v1/admin/stats_info for one range (only that duration's fields). */
export type StatsRangeParams = Readonly<Record<string, string>>;

/** A draft checked with the contract's range rules: the query to send, or the spec's message. */
export type StatsRangeCheck =
  { ok: true; params: StatsRangeParams } | { ok: false; message: string };

/** Months the monthly view shows by default (the last year, month by month). */
const MONTHLY_DEFAULT_MONTHS = 12;

/** `YYYY-MM-DD` of a UTC day: statistics are bucketed by UTC day (ADR 8). */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function addUtcDays(date: Date, days: number): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + days));
}

/** The month `offset` months from `now`'s UTC month (negative = earlier). */
function monthFrom(now: Date, offset: number): MonthOfYear {
  const index = now.getUTCFullYear() * 12 + now.getUTCMonth() + offset;
  return { month: (index % 12) + 1, year: Math.floor(index / 12) };
}

/** The years the selects offer (access §9: the current and the previous year), oldest first. */
export function yearChoices(now: Date): number[] {
  const current = now.getUTCFullYear();
  return Array.from({ length: STATS_YEAR_CHOICES }, (_, i) => current - STATS_YEAR_CHOICES + 1 + i);
}

/**
 * The ranges the dashboard opens with: Daily the last 7 days (today included), Weekly the last
 * 3 months, Monthly the last 12 months, Yearly the previous and the current year.
 */
export function initialDraft(now: Date): StatsRangeDraft {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const [firstYear = now.getUTCFullYear()] = yearChoices(now);
  return {
    duration: 'daily',
    daily: {
      start: isoDay(addUtcDays(today, -(STATS_DAILY_DEFAULT_DAYS - 1))),
      end: isoDay(today),
    },
    weekly: { start: monthFrom(now, -(STATS_WEEKLY_MAX_MONTHS - 1)), end: monthFrom(now, 0) },
    monthly: { start: monthFrom(now, -(MONTHLY_DEFAULT_MONTHS - 1)), end: monthFrom(now, 0) },
    yearly: { start: firstYear, end: now.getUTCFullYear() },
  };
}

const text = (value: number | null): string | undefined =>
  value === null ? undefined : String(value);

/** The query fields of the draft's current duration; empty inputs are left out. */
export function rangeFields(draft: StatsRangeDraft): Record<string, string> {
  const fields: Record<string, string | undefined> = { duration: draft.duration };
  switch (draft.duration) {
    case 'daily':
      fields.start_date = draft.daily.start || undefined;
      fields.end_date = draft.daily.end || undefined;
      break;
    case 'weekly':
    case 'monthly': {
      const { start, end } = draft[draft.duration];
      fields.start_month = text(start.month);
      fields.start_year = text(start.year);
      fields.end_month = text(end.month);
      fields.end_year = text(end.year);
      break;
    }
    case 'yearly':
      fields.start_year = text(draft.yearly.start);
      fields.end_year = text(draft.yearly.end);
      break;
  }
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/**
 * Checks the draft with the contract's range rules (the server applies the same ones), so the
 * operator sees the spec's message at once and no invalid request is sent.
 */
export function checkRange(draft: StatsRangeDraft): StatsRangeCheck {
  const params = rangeFields(draft);
  const range = statsRangeOf({ ...params, duration: draft.duration });
  if (typeof range === 'string') return { ok: false, message: range };
  return { ok: true, params };
}

/** The draft with one duration's inputs replaced (helpers for the form's onChange handlers). */
export function withDuration(draft: StatsRangeDraft, duration: StatsDuration): StatsRangeDraft {
  return { ...draft, duration };
}
