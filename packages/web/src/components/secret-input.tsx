import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/**
 * A password field whose show/hide toggle is reachable by keyboard. The toggle's name avoids the
 * word "password" so that a field is found by its label alone.
 */
export function SecretInput(props: PasswordInputProps) {
  return (
    <PasswordInput
      visibilityToggleFocusable
      visibilityToggleButtonProps={{ 'aria-label': 'Show characters' }}
      {...props}
    />
  );
}
