import { MESSAGES } from '@fleetdeck/contract';
import { Alert, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';

/** A node that never sent diagnostics (access §8): ask to enable them in the firmware. */
export function NoDiagnostics() {
  return (
    <Alert
      color="blue"
      variant="light"
      icon={<IconInfoCircle size={18} aria-hidden="true" />}
      data-testid="no-diagnostics"
    >
      <Text size="sm">{MESSAGES.enableDiagnosticsFirmware}</Text>
    </Alert>
  );
}
