import { DIAGNOSTICS_INTERVALS, type LogByIntervalResponse } from '@fleetdeck/contract';
import {
  Anchor,
  Box,
  Center,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMemo, type ReactNode } from 'react';
import { ChartWithTable } from '../../../components/chart-table';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { DIAGNOSTICS_LABELS } from '../labels';
import { timelineHasEntries, timelineOption } from '../model/chart-options';
import { timelineTableData } from '../model/chart-table';
import { formatDayHeading, formatDayLabel, formatZone } from '../model/diag-dates';
import {
  isDiagnosticsInterval,
  type DiagnosticsInterval,
  type ReportWindowChoice,
} from '../model/interval';
import { timelineBars, totalCount } from '../model/log-data';
import { LazyDiagnosticsChart } from './charts/lazy-diagnostics-chart';

const HEIGHT = 220;

const INTERVAL_LABELS: Record<DiagnosticsInterval, string> = {
  Day: DIAGNOSTICS_LABELS.intervalDay,
  Week: DIAGNOSTICS_LABELS.intervalWeek,
  Month: DIAGNOSTICS_LABELS.intervalMonth,
};

/**
 * The timeline (access §2, §4): stacked bars of the window's log types with the Day/Week/Month
 * switch; in Week and Month a click on a bar opens that day.
 */
export function TimelineCard({
  choice,
  windowStart,
  tzOffset,
  data,
  stale,
  error,
  onRetry,
  onChoose,
  onBarClick,
  aside,
}: {
  choice: ReportWindowChoice;
  windowStart: number;
  tzOffset: number;
  data: LogByIntervalResponse | undefined;
  stale: boolean;
  error: unknown;
  onRetry: () => void;
  onChoose: (choice: ReportWindowChoice) => void;
  onBarClick: (timestamp: number) => void;
  aside?: ReactNode;
}) {
  const hourly = choice.interval === 'Day';
  const bars = useMemo(() => (data ? timelineBars(data) : []), [data]);
  const option = useMemo(
    () => timelineOption(bars, { hourly, tzOffset }),
    [bars, hourly, tzOffset],
  );
  const table = useMemo(
    () =>
      timelineTableData(bars, {
        hourly,
        tzOffset,
        rowHeader: hourly ? DIAGNOSTICS_LABELS.tableHour : DIAGNOSTICS_LABELS.tableDay,
      }),
    [bars, hourly, tzOffset],
  );

  let body;
  if (error)
    body = (
      <QueryErrorAlert error={error} retryLabel={DIAGNOSTICS_LABELS.tryAgain} onRetry={onRetry} />
    );
  else if (data === undefined) body = <Skeleton h={HEIGHT} radius="md" />;
  else if (!timelineHasEntries(bars))
    body = (
      <Center h={96} data-testid="timeline-empty">
        <Text c="dimmed" size="sm">
          {DIAGNOSTICS_LABELS.timelineEmpty}
        </Text>
      </Center>
    );
  else
    body = (
      <Box style={{ opacity: stale ? 0.55 : 1, transition: 'opacity 150ms' }}>
        <ChartWithTable name={DIAGNOSTICS_LABELS.timeline} table={table}>
          <LazyDiagnosticsChart
            option={option}
            height={HEIGHT}
            testId="timeline-chart"
            label={`${DIAGNOSTICS_LABELS.timeline}: ${INTERVAL_LABELS[choice.interval]}`}
            onCategoryClick={
              hourly
                ? undefined
                : (index) => {
                    const bar = bars[index];
                    if (bar) onBarClick(bar.timestamp);
                  }
            }
          />
        </ChartWithTable>
      </Box>
    );

  return (
    <Paper withBorder p="md" data-testid="timeline" aria-busy={stale}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Box miw={0}>
            <Title order={2} size="h5">
              {DIAGNOSTICS_LABELS.timeline}
            </Title>
            <Text size="xs" c="dimmed">
              {hourly
                ? DIAGNOSTICS_LABELS.timelineHintDay.replace(
                    '{day}',
                    formatDayHeading(windowStart, tzOffset),
                  )
                : DIAGNOSTICS_LABELS.timelineHintDays}{' '}
              · {DIAGNOSTICS_LABELS.timesIn.replace('{zone}', formatZone(tzOffset))}
            </Text>
          </Box>
          <Group gap="xs">
            {hourly && choice.day !== undefined && (
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() => onChoose({ interval: 'Month' })}
              >
                {DIAGNOSTICS_LABELS.backToMonth}
              </Anchor>
            )}
            {!hourly && bars.length > 0 && (
              <Select
                size="xs"
                w={150}
                aria-label={DIAGNOSTICS_LABELS.pickDay}
                placeholder={DIAGNOSTICS_LABELS.pickDay}
                data-testid="day-picker"
                value={null}
                data={[...bars].reverse().map((bar) => ({
                  value: String(bar.timestamp),
                  label: `${formatDayLabel(bar.timestamp, tzOffset)} · ${totalCount(bar.counts)}`,
                }))}
                onChange={(value) => {
                  if (value !== null) onBarClick(Number(value));
                }}
                comboboxProps={{ withinPortal: true }}
                maxDropdownHeight={280}
              />
            )}
            <SegmentedControl
              size="xs"
              aria-label={DIAGNOSTICS_LABELS.intervalLabel}
              data-testid="interval-switch"
              value={choice.interval}
              onChange={(value) => {
                if (isDiagnosticsInterval(value)) onChoose({ interval: value });
              }}
              data={DIAGNOSTICS_INTERVALS.map((interval) => ({
                value: interval,
                label: INTERVAL_LABELS[interval],
              }))}
            />
            {aside}
          </Group>
        </Group>
        {body}
      </Stack>
    </Paper>
  );
}
