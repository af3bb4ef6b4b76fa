import { Alert, Button, Group, Text, type MantineSpacing } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorMessage } from '../lib/api-error';

/** A failed request: the server's description (or 'Something went wrong!') and a retry button. */
export function QueryErrorAlert({
  error,
  retryLabel,
  onRetry,
  retrying = false,
  m,
}: {
  error: unknown;
  retryLabel: string;
  onRetry: () => void;
  /** The retry is on its way (the button spins instead of the screen showing skeletons). */
  retrying?: boolean;
  m?: MantineSpacing;
}) {
  return (
    <Alert
      {...(m !== undefined ? { m } : {})}
      color="red"
      variant="light"
      role="alert"
      icon={<IconAlertCircle size={18} aria-hidden="true" />}
    >
      <Group justify="space-between" gap="sm">
        <Text size="sm">{errorMessage(error)}</Text>
        <Button size="xs" variant="white" color="red" onClick={onRetry} loading={retrying}>
          {retryLabel}
        </Button>
      </Group>
    </Alert>
  );
}
