import { formatMessage } from '@fleetdeck/contract';
import { Badge, CloseButton } from '@mantine/core';
import { memo } from 'react';
import { NODE_LABELS } from '../labels';

/**
 * Shows that the list is narrowed by the `status` query parameter (a link from the dashboard's
 * online and offline counts), with a way to see every status again.
 */
export const StatusFilterBadge = memo(function StatusFilterBadge({
  status,
  onClear,
}: {
  status: 'online' | 'offline';
  onClear?: () => void;
}) {
  const word = status === 'online' ? NODE_LABELS.onlineOnly : NODE_LABELS.offlineOnly;
  return (
    <Badge
      size="lg"
      variant="light"
      tt="none"
      fw={500}
      color={status === 'online' ? 'green' : 'red'}
      radius="sm"
      h={36}
      data-testid="status-filter"
      rightSection={
        onClear ? (
          <CloseButton size="xs" aria-label={NODE_LABELS.clearStatusFilter} onClick={onClear} />
        ) : undefined
      }
    >
      {formatMessage(NODE_LABELS.statusFilter, { status: word })}
    </Badge>
  );
});
