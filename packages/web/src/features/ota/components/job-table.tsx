import type { OtaJob } from '@fleetdeck/contract';
import { Anchor, Button, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { OTA_LABELS } from '../labels';
import { formatListDate } from '../model/job-dates';
import { cancelledAt, jobRowAction } from '../model/job-display';
import { completedCountText } from '../model/job-progress';
import type { JobModeConfig } from '../model/job-mode';
import type { JobAction } from './job-action-modal';
import { JobStatusBadge } from './job-status-badge';
import { SkeletonRows } from '../../../components/skeleton-rows';
import { StackedTableContainer, stackedTable } from '../../../components/stacked-table';

function ActionCell({
  job,
  onAction,
}: {
  job: OtaJob;
  onAction: (job: OtaJob, action: JobAction) => void;
}) {
  if (jobRowAction(job.status) === 'archive') {
    return (
      <Button size="xs" variant="light" onClick={() => onAction(job, 'archive')}>
        {OTA_LABELS.archive}
      </Button>
    );
  }
  return (
    <Button size="xs" variant="light" color="red" onClick={() => onAction(job, 'cancel')}>
      {OTA_LABELS.cancelJob}
    </Button>
  );
}

/**
 * The job list (fleet-management §2, access §2): Job Name (links to the details), Total Count,
 * Completed Count, Status, Triggered at, and Actions on the active list or Cancelled at on the
 * archived one. A card per job on a phone, its actions below.
 */
export function JobTable({
  jobs,
  mode,
  archived,
  actions,
  onAction,
  skeletonRows,
  stale,
  emptyMessage,
}: {
  jobs: readonly OtaJob[] | undefined;
  mode: JobModeConfig;
  archived: boolean;
  /** Whether the user may cancel and archive (ota.write). */
  actions: boolean;
  onAction: (job: OtaJob, action: JobAction) => void;
  skeletonRows: number;
  stale: boolean;
  emptyMessage: string;
}) {
  const showActions = !archived && actions;
  const columns = [
    OTA_LABELS.columnJobName,
    OTA_LABELS.columnTotalCount,
    OTA_LABELS.columnCompletedCount,
    OTA_LABELS.columnStatus,
    OTA_LABELS.columnTriggeredAt,
    ...(archived ? [OTA_LABELS.columnCancelledAt] : []),
    ...(showActions ? [OTA_LABELS.columnActions] : []),
  ];
  const date = (seconds: number | undefined) =>
    formatListDate(seconds, { utc: mode.utc }) ?? OTA_LABELS.none;

  return (
    <StackedTableContainer label={archived ? mode.archivedHeading : mode.heading} minWidth={760}>
      <Table
        verticalSpacing="sm"
        highlightOnHover
        className={stackedTable.table}
        data-testid="job-table"
        style={{ opacity: stale ? 0.6 : 1, transition: 'opacity 120ms' }}
        aria-busy={jobs === undefined || stale}
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, index) => (
              <Table.Th key={column} ta={index === 1 || index === 2 ? 'right' : undefined}>
                {column}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {jobs === undefined && <SkeletonRows rows={skeletonRows} columns={columns.length} />}
          {jobs?.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>
                <Text c="dimmed" ta="center" py="lg" data-testid="jobs-empty">
                  {emptyMessage}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {jobs?.map((job) => (
            <Table.Tr key={job.ota_job_id} data-job-id={job.ota_job_id}>
              <Table.Td data-title>
                <Anchor component={Link} to={mode.detailsPath(job.ota_job_id)} fw={500}>
                  {job.ota_job_name}
                </Anchor>
              </Table.Td>
              <Table.Td
                data-label={OTA_LABELS.columnTotalCount}
                ta="right"
                style={{ fontVariantNumeric: 'tabular-nums' }}
              >
                {job.total_count}
              </Table.Td>
              <Table.Td
                data-label={OTA_LABELS.columnCompletedCount}
                ta="right"
                style={{ fontVariantNumeric: 'tabular-nums' }}
              >
                {completedCountText(job.completed_count, job.summary)}
              </Table.Td>
              <Table.Td data-label={OTA_LABELS.columnStatus}>
                <JobStatusBadge status={job.status} />
              </Table.Td>
              <Table.Td data-label={OTA_LABELS.columnTriggeredAt} style={{ whiteSpace: 'nowrap' }}>
                {date(job.triggered_timestamp)}
              </Table.Td>
              {archived && (
                <Table.Td
                  data-label={OTA_LABELS.columnCancelledAt}
                  style={{ whiteSpace: 'nowrap' }}
                >
                  {date(cancelledAt(job))}
                </Table.Td>
              )}
              {showActions && (
                <Table.Td data-actions>
                  <ActionCell job={job} onAction={onAction} />
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </StackedTableContainer>
  );
}
