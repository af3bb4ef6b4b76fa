import { STATS_DURATIONS, type StatsDuration } from '@fleetdeck/contract';
import { Alert, Group, NativeSelect, SegmentedControl, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { STATS_LABELS } from '../labels';
import type { MonthOfYear, StatsRangeDraft } from '../model/stats-range';

const DURATION_LABELS: Record<StatsDuration, string> = {
  daily: STATS_LABELS.durationDaily,
  weekly: STATS_LABELS.durationWeekly,
  monthly: STATS_LABELS.durationMonthly,
  yearly: STATS_LABELS.durationYearly,
};

const MONTH_OPTIONS = [
  { value: '', label: '—' },
  ...['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'].map(
    (label, index) => ({ value: String(index + 1), label }),
  ),
];

const toNumber = (value: string): number | null => (value === '' ? null : Number(value));
const INPUT_WIDTH = 150;

function YearSelect({
  label,
  value,
  years,
  invalid,
  onChange,
}: {
  label: string;
  value: number | null;
  years: readonly number[];
  invalid: boolean;
  onChange: (year: number | null) => void;
}) {
  return (
    <NativeSelect
      size="sm"
      label={label}
      error={invalid}
      w={110}
      value={value === null ? '' : String(value)}
      data={[
        { value: '', label: '—' },
        ...years.map((year) => ({ value: String(year), label: String(year) })),
      ]}
      onChange={(event) => onChange(toNumber(event.currentTarget.value))}
    />
  );
}

function MonthPicker({
  monthLabel,
  yearLabel,
  value,
  years,
  invalid,
  onChange,
}: {
  monthLabel: string;
  yearLabel: string;
  value: MonthOfYear;
  years: readonly number[];
  invalid: boolean;
  onChange: (value: MonthOfYear) => void;
}) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-end">
      <NativeSelect
        size="sm"
        label={monthLabel}
        error={invalid}
        w={100}
        value={value.month === null ? '' : String(value.month)}
        data={MONTH_OPTIONS}
        onChange={(event) => onChange({ ...value, month: toNumber(event.currentTarget.value) })}
      />
      <YearSelect
        label={yearLabel}
        value={value.year}
        years={years}
        invalid={invalid}
        onChange={(year) => onChange({ ...value, year })}
      />
    </Group>
  );
}

/**
 * Duration Daily / Weekly / Monthly / Yearly (access §2, §9) with the inputs of the chosen one.
 * Every change is checked at once with the contract's range rules; `message` is the spec's text
 * for an invalid range (access §5).
 */
export function DurationSelector({
  draft,
  onChange,
  years,
  today,
  message,
}: {
  draft: StatsRangeDraft;
  onChange: (draft: StatsRangeDraft) => void;
  years: readonly number[];
  /** YYYY-MM-DD (UTC): the last day that has statistics. */
  today: string;
  message: string | null;
}) {
  const months =
    draft.duration === 'weekly' || draft.duration === 'monthly' ? draft.duration : null;
  const invalid = message !== null;
  return (
    <>
      <Group gap="md" align="flex-end" wrap="wrap">
        <SegmentedControl
          aria-label={STATS_LABELS.duration}
          value={draft.duration}
          onChange={(value) => onChange({ ...draft, duration: value })}
          data={STATS_DURATIONS.map((duration) => ({
            value: duration,
            label: DURATION_LABELS[duration],
          }))}
        />
        {draft.duration === 'daily' && (
          <Group gap="xs" wrap="wrap" align="flex-end">
            <TextInput
              type="date"
              error={invalid}
              size="sm"
              w={INPUT_WIDTH}
              label={STATS_LABELS.startDate}
              value={draft.daily.start}
              max={today}
              onChange={(event) =>
                onChange({ ...draft, daily: { ...draft.daily, start: event.currentTarget.value } })
              }
            />
            <TextInput
              type="date"
              error={invalid}
              size="sm"
              w={INPUT_WIDTH}
              label={STATS_LABELS.endDate}
              value={draft.daily.end}
              max={today}
              onChange={(event) =>
                onChange({ ...draft, daily: { ...draft.daily, end: event.currentTarget.value } })
              }
            />
          </Group>
        )}
        {months !== null && (
          <Group gap="md" wrap="wrap" align="flex-end">
            <MonthPicker
              monthLabel={STATS_LABELS.startMonth}
              yearLabel={STATS_LABELS.year}
              value={draft[months].start}
              years={years}
              invalid={invalid}
              onChange={(start) => onChange({ ...draft, [months]: { ...draft[months], start } })}
            />
            <MonthPicker
              monthLabel={STATS_LABELS.endMonth}
              yearLabel={STATS_LABELS.year}
              value={draft[months].end}
              years={years}
              invalid={invalid}
              onChange={(end) => onChange({ ...draft, [months]: { ...draft[months], end } })}
            />
          </Group>
        )}
        {draft.duration === 'yearly' && (
          <Group gap="xs" wrap="nowrap" align="flex-end">
            <YearSelect
              label={STATS_LABELS.startYear}
              value={draft.yearly.start}
              years={years}
              invalid={invalid}
              onChange={(start) => onChange({ ...draft, yearly: { ...draft.yearly, start } })}
            />
            <YearSelect
              label={STATS_LABELS.endYear}
              value={draft.yearly.end}
              years={years}
              invalid={invalid}
              onChange={(end) => onChange({ ...draft, yearly: { ...draft.yearly, end } })}
            />
          </Group>
        )}
      </Group>
      {message !== null && (
        <Alert
          mt="sm"
          color="red"
          variant="light"
          role="alert"
          data-testid="range-error"
          icon={<IconAlertCircle size={18} aria-hidden="true" />}
        >
          {message}
        </Alert>
      )}
    </>
  );
}
