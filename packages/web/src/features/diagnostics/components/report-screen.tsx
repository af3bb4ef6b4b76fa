import { ActionIcon, SimpleGrid, Stack, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { diagnosticsKeys } from '../api/diagnostics.keys';
import { useLogCount, type LogWindowRequest } from '../api/log-count.query';
import { useLogIntervals } from '../api/log-intervals.query';
import { isNoDiagnosticsError, useNodeInfo } from '../api/node-info.query';
import { DIAGNOSTICS_LABELS } from '../labels';
import {
  browserTzOffsetSeconds,
  choiceAfterBarClick,
  parseWindowChoice,
  reportWindow,
  toEpochSeconds,
  type ReportWindowChoice,
} from '../model/interval';
import { DeviceInfoCard, EventCounts } from './device-info-card';
import { LogListCard } from './log-list-card';
import { NoDiagnostics } from './no-diagnostics';
import { TimelineCard } from './timeline-card';

/** The window choice lives in the URL (?interval=Day&day=…), so Back undoes a bar click. */
function useWindowChoice(): [ReportWindowChoice, (choice: ReportWindowChoice) => void] {
  const [params, setParams] = useSearchParams();
  const choice = parseWindowChoice(params.get('interval'), params.get('day'));
  const setChoice = (next: ReportWindowChoice) => {
    const query: Record<string, string> = { interval: next.interval };
    if (next.day !== undefined) query['day'] = String(next.day);
    setParams(query);
  };
  return [choice, setChoice];
}

/**
 * Device Report (access §2): device info, event counts, the timeline with its interval, and the
 * paged log list of the same window.
 */
export function ReportScreen({ nodeId }: { nodeId: string }) {
  const queryClient = useQueryClient();
  const [choice, setChoice] = useWindowChoice();
  // One offset and one "now" per visit (and per Refresh), so every call asks for the same window.
  const [tz] = useState(() => browserTzOffsetSeconds());
  const [now, setNow] = useState(() => toEpochSeconds(Date.now()));
  const span = reportWindow(choice, now, tz);
  const request: LogWindowRequest = useMemo(
    () => ({ node_id: nodeId, time: choice.interval, start: span.start, tz }),
    [nodeId, choice.interval, span.start, tz],
  );

  const info = useNodeInfo(nodeId);
  const noDiagnostics = info.isError && isNoDiagnosticsError(info.error);
  const ready = info.isSuccess;
  const counts = useLogCount(request, ready);
  const intervals = useLogIntervals(request, ready);

  if (noDiagnostics) return <NoDiagnostics />;
  if (info.isError)
    return (
      <QueryErrorAlert
        error={info.error}
        retryLabel={DIAGNOSTICS_LABELS.tryAgain}
        onRetry={() => void info.refetch()}
      />
    );

  const refresh = () => {
    setNow(toEpochSeconds(Date.now()));
    void queryClient.invalidateQueries({ queryKey: diagnosticsKeys.node(nodeId) });
  };

  return (
    <Stack gap="md" data-testid="device-report">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <DeviceInfoCard info={info.data} tzOffset={tz} />
        <EventCounts counts={counts.data} stale={counts.isPlaceholderData} />
      </SimpleGrid>
      {counts.isError && (
        <QueryErrorAlert
          error={counts.error}
          retryLabel={DIAGNOSTICS_LABELS.tryAgain}
          onRetry={() => void counts.refetch()}
        />
      )}
      <TimelineCard
        choice={choice}
        windowStart={span.start}
        tzOffset={tz}
        data={intervals.data}
        stale={intervals.isPlaceholderData}
        error={intervals.error}
        onRetry={() => void intervals.refetch()}
        onChoose={setChoice}
        onBarClick={(timestamp) => setChoice(choiceAfterBarClick(choice, timestamp, tz))}
        aside={
          <Tooltip label={DIAGNOSTICS_LABELS.refresh}>
            <ActionIcon variant="default" aria-label={DIAGNOSTICS_LABELS.refresh} onClick={refresh}>
              <IconRefresh size={16} />
            </ActionIcon>
          </Tooltip>
        }
      />
      {ready && (
        <LogListCard
          key={`${request.time}:${request.start}:${now}`}
          window={request}
          tzOffset={tz}
        />
      )}
    </Stack>
  );
}
