import { EmptyState } from '@mantine/core';
import { IconCompassOff } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export const NOT_FOUND_TITLE = 'Page not found';
export const NOT_FOUND_DESCRIPTION = 'This page is not available in this version of Fleetdeck.';

/**
 * The honest answer for a screen that does not exist (yet): a title, one sentence and a way
 * back. Never a mock-up of the missing screen.
 */
export function NotFoundView({ action }: { action: ReactNode }) {
  return (
    <EmptyState py="xl" variant="light" data-testid="not-found">
      <EmptyState.Indicator>
        <IconCompassOff size={28} stroke={1.6} aria-hidden="true" />
      </EmptyState.Indicator>
      <EmptyState.Title order={1}>{NOT_FOUND_TITLE}</EmptyState.Title>
      <EmptyState.Description>{NOT_FOUND_DESCRIPTION}</EmptyState.Description>
      <EmptyState.Actions>{action}</EmptyState.Actions>
    </EmptyState>
  );
}
