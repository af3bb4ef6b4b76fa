import type { OtaExecutionStatus, OtaJobStatus } from '@fleetdeck/contract';
import { Badge } from '@mantine/core';
import {
  executionStatusColor,
  executionStatusLabel,
  jobStatusColor,
  jobStatusLabel,
} from '../model/job-display';
import type { JobModeConfig } from '../model/job-mode';

/** A job's status: Active, Finished or Cancelled. */
export function JobStatusBadge({ status }: { status: OtaJobStatus }) {
  return (
    <Badge variant="light" color={jobStatusColor(status)} data-testid="job-status">
      {jobStatusLabel(status)}
    </Badge>
  );
}

/** One node's OTA state in a job. */
export function ExecutionStatusBadge({
  status,
  mode,
}: {
  status: OtaExecutionStatus;
  mode: JobModeConfig;
}) {
  return (
    <Badge variant="dot" color={executionStatusColor(status)} tt="none" fw={500}>
      {executionStatusLabel(status, mode)}
    </Badge>
  );
}
