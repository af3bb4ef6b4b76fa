import { MESSAGES, type CrashData, type LogEntry, type RebootData } from '@fleetdeck/contract';
import { Alert, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { DIAGNOSTICS_LABELS } from '../labels';
import { dataPairs, sortedRegisters } from '../model/log-data';
import { TableScrollRegion } from '../../../components/table-scroll-region';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0} miw={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** A crash's backtrace as a table, innermost frame first, with the corrupted flag above it. */
function BacktraceTable({ data }: { data: CrashData }) {
  return (
    <Stack gap={6}>
      <Title order={3} size="h6">
        {DIAGNOSTICS_LABELS.backtrace}
      </Title>
      {data.corrupted && (
        <Alert
          color="orange"
          variant="light"
          p="xs"
          icon={<IconAlertTriangle size={16} aria-hidden="true" />}
          data-testid="backtrace-corrupted"
        >
          <Text size="sm">{DIAGNOSTICS_LABELS.backtraceCorrupted}</Text>
        </Alert>
      )}
      <TableScrollRegion label={DIAGNOSTICS_LABELS.backtrace} minWidth={560}>
        <Table
          striped
          withTableBorder
          verticalSpacing={4}
          horizontalSpacing="xs"
          fz="xs"
          data-testid="backtrace"
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={32}>{DIAGNOSTICS_LABELS.columnFrame}</Table.Th>
              <Table.Th>{DIAGNOSTICS_LABELS.columnAddress}</Table.Th>
              <Table.Th>{DIAGNOSTICS_LABELS.columnMethod}</Table.Th>
              <Table.Th>{DIAGNOSTICS_LABELS.columnFile}</Table.Th>
              <Table.Th ta="right">{DIAGNOSTICS_LABELS.columnLine}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody ff="monospace">
            {data.backtrace.map((frame, i) => (
              <Table.Tr key={`${i}-${frame.address}`}>
                <Table.Td c="dimmed">{i}</Table.Td>
                <Table.Td>{frame.address}</Table.Td>
                <Table.Td fw={frame.method ? 600 : undefined}>{frame.method ?? '??'}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{frame.file ?? '??'}</Table.Td>
                <Table.Td ta="right">{frame.line ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScrollRegion>
    </Stack>
  );
}

function CrashDetails({ data }: { data: CrashData }) {
  const registers = sortedRegisters(data.registers);
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="sm">
        <Field label={DIAGNOSTICS_LABELS.cause}>{data.cause}</Field>
        <Field label={DIAGNOSTICS_LABELS.pc}>{data.pc}</Field>
        <Field label={DIAGNOSTICS_LABELS.vaddr}>
          {data.vaddr ?? DIAGNOSTICS_LABELS.unknownValue}
        </Field>
        <Field label={DIAGNOSTICS_LABELS.task}>
          {data.task ?? DIAGNOSTICS_LABELS.unknownValue}
        </Field>
        <Field label={DIAGNOSTICS_LABELS.prevAppVersion}>
          {data.prev_app_version ?? DIAGNOSTICS_LABELS.unknownValue}
        </Field>
      </SimpleGrid>
      {data.backtrace.length > 0 && <BacktraceTable data={data} />}
      {registers.length > 0 && (
        <Stack gap={6}>
          <Title order={3} size="h6">
            {DIAGNOSTICS_LABELS.registers}
          </Title>
          <SimpleGrid
            cols={{ base: 2, sm: 4 }}
            spacing={4}
            verticalSpacing={2}
            data-testid="registers"
            p="xs"
            bg="gray.0"
            style={{ borderRadius: 'var(--mantine-radius-sm)' }}
          >
            {registers.map(([name, value]) => (
              <Text key={name} size="xs" ff="monospace">
                <Text span c="dimmed" size="xs" ff="monospace" display="inline-block" w={48}>
                  {name}
                </Text>
                {value}
              </Text>
            ))}
          </SimpleGrid>
        </Stack>
      )}
    </Stack>
  );
}

function RebootDetails({ data }: { data: RebootData }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
      <Field label={DIAGNOSTICS_LABELS.resetReason}>
        {data.reset_reason} ({data.reason})
      </Field>
      {data.app_version && <Field label={DIAGNOSTICS_LABELS.appVersion}>{data.app_version}</Field>}
      {data.chip && <Field label={DIAGNOSTICS_LABELS.chip}>{data.chip}</Field>}
    </SimpleGrid>
  );
}

/** Everything a log entry carries beyond its row: per type, then the firmware hint. */
export function LogEntryDetails({ entry }: { entry: LogEntry }) {
  let body: ReactNode;
  if (entry.type === 'crash') body = <CrashDetails data={entry.data} />;
  else if (entry.type === 'reboot') body = <RebootDetails data={entry.data} />;
  else {
    const pairs = dataPairs(entry.data);
    body = (
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
        <Field label={DIAGNOSTICS_LABELS.tag}>{entry.tag || DIAGNOSTICS_LABELS.unknownValue}</Field>
        {entry.task && <Field label={DIAGNOSTICS_LABELS.task}>{entry.task}</Field>}
        {pairs.map(([key, value]) => (
          <Field key={key} label={key}>
            {value}
          </Field>
        ))}
      </SimpleGrid>
    );
  }
  return (
    <Stack gap="sm" data-testid="log-details">
      {body}
      {entry.elf_missing && (
        <Group gap={6} wrap="nowrap" align="flex-start">
          <IconAlertTriangle size={16} color="var(--mantine-color-orange-7)" aria-hidden="true" />
          <Text size="xs" c="orange.9" data-testid="firmware-hint">
            {MESSAGES.firmwareImageMissingForLog}
          </Text>
        </Group>
      )}
    </Stack>
  );
}
