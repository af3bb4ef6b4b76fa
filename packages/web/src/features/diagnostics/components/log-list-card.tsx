import { MESSAGES, formatMessage, type LogEntry } from '@fleetdeck/contract';
import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Center,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconInfoCircle } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { FetchingBar } from '../../../components/fetching-bar';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { useLogList } from '../api/log-list.query';
import type { LogWindowRequest } from '../api/log-count.query';
import { DIAGNOSTICS_LABELS } from '../labels';
import { LOG_TYPE_STYLE } from '../model/chart-options';
import { formatLogTime } from '../model/diag-dates';
import {
  FIRST_LOG_PAGE,
  canGoNextPage,
  canGoPrevPage,
  currentPageToken,
  logPageNumber,
  nextPage,
  prevPage,
} from '../model/page-tokens';
import { LogEntryDetails } from './log-entry-details';
import { TableScrollRegion } from '../../../components/table-scroll-region';

const TYPE_COLORS = {
  crash: 'red',
  reboot: 'orange',
  error: 'yellow',
  warning: 'gray',
  event: 'blue',
} as const;

function hasDetails(entry: LogEntry): boolean {
  return (
    entry.type === 'crash' ||
    entry.type === 'reboot' ||
    entry.elf_missing ||
    entry.tag !== '' ||
    Object.keys(entry.data ?? {}).length > 0
  );
}

function LogRow({
  entry,
  tzOffset,
  initiallyOpen,
}: {
  entry: LogEntry;
  tzOffset: number;
  initiallyOpen: boolean;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const expandable = hasDetails(entry);
  const toggle = () => {
    if (expandable) setOpen((value) => !value);
  };
  return (
    <Fragment>
      <Table.Tr
        data-testid="log-row"
        data-type={entry.type}
        onClick={toggle}
        style={{ cursor: expandable ? 'pointer' : 'default' }}
      >
        <Table.Td w={28} px={4}>
          {expandable && (
            <ActionIcon
              variant="subtle"
              color="gray"
              size="sm"
              aria-expanded={open}
              aria-label={formatMessage(DIAGNOSTICS_LABELS.rowDetails, {
                type: LOG_TYPE_STYLE[entry.type].label,
                time: formatLogTime(entry.ts, tzOffset),
              })}
              onClick={(event) => {
                event.stopPropagation();
                toggle();
              }}
            >
              {open ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
            </ActionIcon>
          )}
        </Table.Td>
        <Table.Td style={{ whiteSpace: 'nowrap' }} ff="monospace" fz="xs">
          {formatLogTime(entry.ts, tzOffset)}
        </Table.Td>
        <Table.Td>
          <Badge
            size="sm"
            style={{ overflow: 'visible' }}
            variant={entry.type === 'crash' ? 'filled' : 'light'}
            color={TYPE_COLORS[entry.type]}
          >
            {LOG_TYPE_STYLE[entry.type].label}
          </Badge>
        </Table.Td>
        <Table.Td style={{ overflowWrap: 'anywhere' }}>
          {entry.tag && (
            <Text span size="sm" c="dimmed" ff="monospace">
              {entry.tag}:{' '}
            </Text>
          )}
          <Text span size="sm">
            {entry.message || (entry.type === 'crash' ? entry.data.cause : '')}
          </Text>
        </Table.Td>
      </Table.Tr>
      {open && (
        <Table.Tr>
          <Table.Td />
          <Table.Td colSpan={3} pb="md">
            <LogEntryDetails entry={entry} />
          </Table.Td>
        </Table.Tr>
      )}
    </Fragment>
  );
}

/**
 * The window's log entries, newest first, with Prev and Next over a stack of page tokens
 * (access §4). Mounted per window, so a new window starts at page 1.
 */
export function LogListCard({ window, tzOffset }: { window: LogWindowRequest; tzOffset: number }) {
  const [stack, setStack] = useState(FIRST_LOG_PAGE);
  const query = useLogList({ ...window, page_token: currentPageToken(stack) }, true);
  const page = query.data;
  const stale = query.isPlaceholderData;
  const nextToken = page?.pagetoken;
  const missing = page !== undefined && page.remarks.missingelfs.length > 0;
  const firstCrashId = page?.list.find((entry) => entry.type === 'crash')?.id;

  let body;
  if (query.isError)
    body = (
      <QueryErrorAlert
        error={query.error}
        retryLabel={DIAGNOSTICS_LABELS.tryAgain}
        onRetry={() => void query.refetch()}
      />
    );
  else if (page === undefined) body = <Skeleton h={200} radius="md" />;
  else if (page.list.length === 0)
    body = (
      <Center h={80} data-testid="logs-empty">
        <Text c="dimmed" size="sm">
          {DIAGNOSTICS_LABELS.logsEmpty}
        </Text>
      </Center>
    );
  else
    body = (
      <TableScrollRegion label={DIAGNOSTICS_LABELS.logs} minWidth={560}>
        <Table
          verticalSpacing={6}
          highlightOnHover
          data-testid="log-list"
          style={{ opacity: stale ? 0.55 : 1, transition: 'opacity 150ms' }}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={28} px={4}>
                <VisuallyHidden>{DIAGNOSTICS_LABELS.columnDetails}</VisuallyHidden>
              </Table.Th>
              <Table.Th w={150}>{DIAGNOSTICS_LABELS.columnTime}</Table.Th>
              <Table.Th w={110}>{DIAGNOSTICS_LABELS.columnType}</Table.Th>
              <Table.Th>{DIAGNOSTICS_LABELS.columnMessage}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {page.list.map((entry) => (
              <LogRow
                key={entry.id}
                entry={entry}
                tzOffset={tzOffset}
                // The newest crash is what an engineer comes for: its details start open.
                initiallyOpen={entry.id === firstCrashId}
              />
            ))}
          </Table.Tbody>
        </Table>
      </TableScrollRegion>
    );

  return (
    <Paper withBorder p="md" data-testid="logs" aria-busy={stale}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h5">
            {DIAGNOSTICS_LABELS.logs}
          </Title>
          <Group gap="xs" wrap="nowrap">
            <Button
              size="xs"
              variant="default"
              disabled={!canGoPrevPage(stack)}
              onClick={() => setStack(prevPage)}
            >
              {DIAGNOSTICS_LABELS.prev}
            </Button>
            <Text size="sm" c="dimmed" data-testid="log-page" style={{ whiteSpace: 'nowrap' }}>
              {DIAGNOSTICS_LABELS.pageN.replace('{n}', String(logPageNumber(stack)))}
            </Text>
            <Button
              size="xs"
              variant="default"
              disabled={stale || !canGoNextPage(stack, nextToken)}
              onClick={() => {
                if (canGoNextPage(stack, nextToken)) setStack(nextPage(stack, nextToken));
              }}
            >
              {DIAGNOSTICS_LABELS.next}
            </Button>
          </Group>
        </Group>
        <FetchingBar active={query.isFetching} label={DIAGNOSTICS_LABELS.loading} />
        {missing && (
          <Alert
            color="orange"
            variant="light"
            p="xs"
            icon={<IconInfoCircle size={16} aria-hidden="true" />}
            data-testid="missing-elf-remark"
          >
            <Text size="sm">{MESSAGES.missingElfRemark}</Text>
          </Alert>
        )}
        <Box>{body}</Box>
      </Stack>
    </Paper>
  );
}
