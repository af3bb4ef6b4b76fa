import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** The red, announced message above a form's button (server description or form-wide rule). */
export function FormAlert({ message }: { message: string | null }) {
  if (message === null) return null;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertCircle size={18} aria-hidden="true" />}
      role="alert"
    >
      {message}
    </Alert>
  );
}
