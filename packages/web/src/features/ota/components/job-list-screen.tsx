import { DEFAULT_PAGE_SIZE, MESSAGES, PAGE_SIZES, type OtaJob } from '@fleetdeck/contract';
import { Anchor, Box, Divider, Group, Paper, Stack, Text } from '@mantine/core';
import { IconArchive, IconArrowLeft, IconInfoCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { FetchingBar } from '../../../components/fetching-bar';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { useDialogTarget } from '../../../lib/use-dialog-target';
import { useSessionUser } from '../../auth/components/session-user';
import { NodeScreen } from '../../nodes/components/node-screen';
import { NodeTablePager } from '../../nodes/components/node-table-pager';
import { SearchInput } from '../../nodes/components/search-input';
import { SEARCH_DEBOUNCE_MS } from '../../nodes/components/use-search-filter';
import { useUrlSearch } from '../../nodes/components/use-url-search';
import { PAGE_PARAMS, isGonePage, isIdCursor } from '../../../lib/list-position';
import { useFirstPageWhenGone, useUrlCursorPaging } from '../../../lib/use-url-paging';
import { isNoJobsError, useJobList, type JobListRequest } from '../api/job-list.query';
import { useLiveJobList } from '../api/job-live';
import { OTA_LABELS } from '../labels';
import { JOB_MODES, type JobScreenMode } from '../model/job-mode';
import { JobActionModal, type JobAction } from './job-action-modal';
import { JobTable } from './job-table';
import { RefreshButton } from '../../../components/refresh-button';

/**
 * The OTA job lists: '/home/ota-jobs/' and '/home/ota-archived-jobs' (fleet-management §2), and
 * the fault job lists '/home/faultjobs' and '/home/fault-ota-archived-jobs' (access §2). Cursor
 * paging 5/10/25 (default 10), search by job name, refresh, the OTA-topics hint; Cancel Job and
 * Archive change the list at once. Jobs on the page follow their rollout live. The search and
 * the page live in the query string, so Back from a job returns to them.
 */
export function JobListScreen({
  mode: modeName,
  archived,
}: {
  mode: JobScreenMode;
  archived: boolean;
}) {
  const mode = JOB_MODES[modeName];
  const user = useSessionUser();
  const canWrite = user.permissions.includes('ota.write');
  const search = useUrlSearch('search', SEARCH_DEBOUNCE_MS, PAGE_PARAMS);
  const paging = useUrlCursorPaging(PAGE_SIZES.jobs, DEFAULT_PAGE_SIZE, isIdCursor);
  const acting = useDialogTarget<{ job: OtaJob; action: JobAction }>();

  const request: JobListRequest = {
    archived,
    fault_image: mode.faultImage,
    ota_job_name: search.applied,
    start_id: paging.cursor,
    num_records: paging.pageSize,
  };
  const query = useJobList(request);
  useLiveJobList(request);
  const stale = query.isPlaceholderData;
  const empty = query.isError && isNoJobsError(query.error);
  const jobs = empty ? [] : query.isError ? undefined : query.data?.otaJobs;
  useFirstPageWhenGone(
    paging,
    isGonePage({ rows: query.data?.otaJobs, error: query.error, placeholder: stale }),
  );

  const otherList = archived ? (
    <Anchor component={Link} to={mode.listPath} size="sm">
      <Group gap={4} wrap="nowrap">
        <IconArrowLeft size={16} aria-hidden="true" />
        {OTA_LABELS.activeJobs}
      </Group>
    </Anchor>
  ) : (
    <Anchor component={Link} to={mode.archivedPath} size="sm" data-testid="archived-jobs-link">
      <Group gap={4} wrap="nowrap">
        <IconArchive size={16} aria-hidden="true" />
        {OTA_LABELS.archivedJobs}
      </Group>
    </Anchor>
  );

  return (
    <NodeScreen title={archived ? mode.archivedHeading : mode.heading}>
      <Paper withBorder radius="lg" data-testid="job-list">
        <Stack gap={0}>
          <Box p="md">
            <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
              <SearchInput
                label={OTA_LABELS.searchJobName}
                placeholder={OTA_LABELS.searchJobNamePlaceholder}
                name="ota_job_name"
                value={search.text}
                onChange={search.change}
                onEnter={search.applyNow}
                width={280}
              />
              <Group gap="md" wrap="wrap" align="center">
                {otherList}
                <RefreshButton
                  label={OTA_LABELS.refresh}
                  onClick={() => void query.refetch()}
                  loading={query.isFetching && !query.isPending}
                />
              </Group>
            </Group>
            <Group gap={6} mt="sm" wrap="nowrap" c="dimmed">
              <IconInfoCircle size={16} aria-hidden="true" style={{ flexShrink: 0 }} />
              <Text size="sm" data-testid="ota-topics-hint">
                {MESSAGES.otaTopicsHint}
              </Text>
            </Group>
          </Box>
          <FetchingBar active={query.isFetching} label={OTA_LABELS.refresh} />
          <Divider />
          {query.isError && !empty && (
            <QueryErrorAlert
              m="md"
              error={query.error}
              retryLabel={OTA_LABELS.tryAgain}
              onRetry={() => void query.refetch()}
            />
          )}
          {(!query.isError || empty) && (
            <JobTable
              jobs={jobs}
              mode={mode}
              archived={archived}
              actions={canWrite}
              onAction={(job, action) => acting.open({ job, action })}
              skeletonRows={paging.pageSize}
              stale={stale}
              emptyMessage={MESSAGES.noOtaJobs}
            />
          )}
          <Divider />
          <Box p="md">
            <NodeTablePager
              {...paging.pagerProps(
                query.isError ? undefined : query.data?.total,
                stale ? undefined : query.data?.next_id,
                query.isPending,
              )}
            />
          </Box>
        </Stack>
      </Paper>
      {acting.target !== null && (
        <JobActionModal
          action={acting.target.action}
          otaJobId={acting.target.job.ota_job_id}
          jobName={acting.target.job.ota_job_name}
          onClose={acting.close}
        />
      )}
    </NodeScreen>
  );
}
