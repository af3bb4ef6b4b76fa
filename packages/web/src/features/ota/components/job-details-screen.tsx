import {
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  EmptyState,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconArrowLeft, IconBan, IconFileOff } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DetailField } from '../../../components/detail-field';
import { FetchingBar } from '../../../components/fetching-bar';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { errorMessage, isApiError } from '../../../lib/api-error';
import { useDialogTarget } from '../../../lib/use-dialog-target';
import { useSessionUser } from '../../auth/components/session-user';
import { NodeScreen } from '../../nodes/components/node-screen';
import { useJobDetails } from '../api/job-details.query';
import { useLiveJob } from '../api/job-live';
import { useJobSummary } from '../api/job-summary.query';
import { otaJobKeys } from '../api/ota-jobs.keys';
import { OTA_LABELS } from '../labels';
import { formatListDate } from '../model/job-dates';
import { completedCountText } from '../model/job-progress';
import {
  canCancelJob,
  cancelledAt,
  jobGroupsDisplay,
  jobNodesDisplay,
  type TargetListDisplay,
} from '../model/job-display';
import { JOB_MODES, type JobModeConfig, type JobScreenMode } from '../model/job-mode';
import { JobActionModal } from './job-action-modal';
import { JobNodesPanel } from './job-nodes-panel';
import { JobProgressBar } from './job-progress-bar';
import { JobStatusBadge } from './job-status-badge';
import { RefreshButton } from '../../../components/refresh-button';

function TargetList({ display, testId }: { display: TargetListDisplay; testId: string }) {
  switch (display.kind) {
    case 'none':
      return <Text size="sm">{OTA_LABELS.none}</Text>;
    case 'tooMany':
      return (
        <Text size="sm" c="dimmed" data-testid={testId}>
          {display.message}
        </Text>
      );
    case 'list':
      return (
        <Group gap={6} data-testid={testId}>
          {display.items.map((item) => (
            <Badge key={item} variant="default" tt="none" fw={500} ff="monospace">
              {item}
            </Badge>
          ))}
        </Group>
      );
  }
}

function BackToList({ mode }: { mode: JobModeConfig }) {
  return (
    <Button
      component={Link}
      to={mode.listPath}
      variant="default"
      leftSection={<IconArrowLeft size={16} aria-hidden="true" />}
    >
      {mode.backToList}
    </Button>
  );
}

/**
 * Job details: '/home/job-details/{id}' (fleet-management §2) and '/home/fault-job-details/{id}'
 * (access §2). The job's fields, its progress by outcome, Cancel Job, refresh and its nodes a
 * page at a time. While a rollout runs, `ota.job` events refetch it (throttled, see job-live).
 */
export function JobDetailsScreen({
  mode: modeName,
  otaJobId,
}: {
  mode: JobScreenMode;
  otaJobId: string;
}) {
  const mode = JOB_MODES[modeName];
  const user = useSessionUser();
  const canWrite = user.permissions.includes('ota.write');
  const queryClient = useQueryClient();
  const cancelling = useDialogTarget<true>();
  const query = useJobDetails(otaJobId);
  const summary = useJobSummary(otaJobId);
  useLiveJob(otaJobId);
  const job = query.data;
  const notFound = query.isError && isApiError(query.error) && query.error.status === 404;
  const date = (seconds: number | undefined) =>
    formatListDate(seconds, { utc: mode.utc }) ?? OTA_LABELS.none;

  if (notFound) {
    return (
      <NodeScreen title={OTA_LABELS.notFoundTitle}>
        <EmptyState py="xl" variant="light" data-testid="job-not-found">
          <EmptyState.Indicator>
            <IconFileOff size={28} stroke={1.6} aria-hidden="true" />
          </EmptyState.Indicator>
          <EmptyState.Title order={2}>{OTA_LABELS.notFoundTitle}</EmptyState.Title>
          <EmptyState.Description>{errorMessage(query.error)}</EmptyState.Description>
          <EmptyState.Actions>
            <BackToList mode={mode} />
          </EmptyState.Actions>
        </EmptyState>
      </NodeScreen>
    );
  }

  const refresh = () => void queryClient.invalidateQueries({ queryKey: otaJobKeys.job(otaJobId) });
  const fetching = query.isFetching || summary.isFetching;
  const skeleton = (width: number) => <Skeleton h={14} w={width} />;
  const cancelled = job ? cancelledAt(job) : undefined;
  const cancellable = job !== undefined && canCancelJob(job.status);
  // The summary endpoint is the fresher; the job carries one too, so the bar shows at once.
  const progress = summary.data ?? job?.summary;
  // Nothing to show: the alert and its Try again say so; skeletons would claim it still loads.
  const failed = query.isError && job === undefined;

  return (
    <NodeScreen title={job ? job.ota_job_name : mode.detailsHeading}>
      {/* The actions share the breadcrumbs' row, so the card opens with the job's fields. */}
      <Group justify="space-between" align="center" gap="sm" data-testid="job-toolbar">
        <Breadcrumbs>
          <Anchor component={Link} to={mode.listPath} size="sm">
            {job?.archived ? mode.archivedHeading : mode.heading}
          </Anchor>
          <Text size="sm">{otaJobId}</Text>
        </Breadcrumbs>
        <Group gap="sm">
          {job?.status === 'active' && (
            <Tooltip label={OTA_LABELS.liveHint} withArrow>
              <Badge variant="dot" color="green" tt="none" data-testid="job-live">
                {OTA_LABELS.live}
              </Badge>
            </Tooltip>
          )}
          <RefreshButton
            label={OTA_LABELS.refresh}
            onClick={refresh}
            loading={fetching && !query.isPending}
          />
          {canWrite && (
            <Button
              color="red"
              variant="light"
              leftSection={<IconBan size={16} aria-hidden="true" />}
              disabled={!cancellable}
              onClick={() => cancelling.open(true)}
            >
              {OTA_LABELS.cancelJob}
            </Button>
          )}
        </Group>
      </Group>
      {query.isError && (
        <QueryErrorAlert
          error={query.error}
          retryLabel={OTA_LABELS.tryAgain}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      )}
      {!failed && (
        <Paper withBorder radius="lg" data-testid="job-fields" style={{ overflow: 'hidden' }}>
          <FetchingBar active={fetching} label={OTA_LABELS.refresh} />
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" p="md">
            <DetailField label={OTA_LABELS.fieldName}>
              {job ? job.ota_job_name : skeleton(140)}
            </DetailField>
            <DetailField label={OTA_LABELS.fieldId}>
              <Text ff="monospace" fz="sm" style={{ wordBreak: 'break-all' }}>
                {otaJobId}
              </Text>
            </DetailField>
            <DetailField label={OTA_LABELS.fieldStatus}>
              {job ? <JobStatusBadge status={job.status} /> : skeleton(70)}
            </DetailField>
            <DetailField label={OTA_LABELS.fieldImageId}>
              {job ? (
                <Anchor
                  component={Link}
                  to={mode.imageDetailsPath(job.ota_image_id)}
                  ff="monospace"
                  fz="sm"
                  data-testid="job-image-link"
                >
                  {job.ota_image_id}
                </Anchor>
              ) : (
                skeleton(120)
              )}
            </DetailField>
            <DetailField label={OTA_LABELS.fieldTriggeredAt}>
              {job ? date(job.triggered_timestamp) : skeleton(110)}
            </DetailField>
            {cancelled !== undefined && (
              <DetailField label={OTA_LABELS.fieldCancelledAt}>
                <Text fz="sm" data-testid="job-cancelled-at">
                  {date(cancelled)}
                </Text>
              </DetailField>
            )}
            <DetailField label={OTA_LABELS.fieldTotalCount}>
              {job ? job.total_count : skeleton(30)}
            </DetailField>
            <DetailField label={OTA_LABELS.fieldCompletedCount}>
              {job ? (
                <Text fz="sm" data-testid="job-completed-count">
                  {completedCountText(job.completed_count, progress ?? job.summary)}
                </Text>
              ) : (
                skeleton(30)
              )}
            </DetailField>
            <DetailField label={OTA_LABELS.fieldGroups} span>
              {job ? (
                <TargetList display={jobGroupsDisplay(job.node_groups)} testId="job-groups" />
              ) : (
                skeleton(200)
              )}
            </DetailField>
            <DetailField label={OTA_LABELS.fieldNodes} span>
              {job ? (
                <TargetList display={jobNodesDisplay(job.nodes)} testId="job-target-nodes" />
              ) : (
                skeleton(200)
              )}
            </DetailField>
          </SimpleGrid>
        </Paper>
      )}
      {(progress !== undefined || !failed) && (
        <Paper withBorder radius="lg" p="md">
          {progress ? <JobProgressBar summary={progress} mode={mode} /> : <Skeleton h={60} />}
        </Paper>
      )}
      <JobNodesPanel otaJobId={otaJobId} mode={mode} />
      {cancelling.target !== null && job && (
        <JobActionModal
          action="cancel"
          otaJobId={otaJobId}
          jobName={job.ota_job_name}
          onClose={cancelling.close}
        />
      )}
    </NodeScreen>
  );
}
