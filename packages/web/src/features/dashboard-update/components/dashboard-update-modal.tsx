import { MESSAGES, TOAST_AUTO_CLOSE_MS } from '@fleetdeck/contract';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconRefresh } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { isApiError, isSessionFailure } from '../../../lib/api-error';
import { useAcknowledgeDashboardUpdate } from '../api/dashboard-update.mutation';
import { useDashboardUpdateCheck } from '../api/dashboard-update.query';
import { BUILD_VERSION } from '../build-version';

/** How long the success toast shows before the page reloads into the new build. */
const RELOAD_DELAY_MS = 1200;

/**
 * The dashboard update modal (access §2 Sidebar, §8): the open tab checks now, every few minutes
 * and on focus whether the server serves another dashboard build; when it does, it offers to
 * reload. "Later" hides it until the server serves yet another build.
 */
export function DashboardUpdateModal({
  currentVersion = BUILD_VERSION,
  reload = () => window.location.reload(),
}: {
  currentVersion?: string;
  reload?: () => void;
}) {
  const check = useDashboardUpdateCheck(currentVersion);
  const acknowledge = useAcknowledgeDashboardUpdate();
  const [dismissed, setDismissed] = useState<string | null>(null);
  const failureShown = useRef(false);

  useEffect(() => {
    // A check refused because the session ended says nothing about updates: the session-expiry
    // toast is the one to show.
    const sessionEnded = isApiError(check.error) && isSessionFailure(check.error);
    if (check.isError && !sessionEnded && !failureShown.current) {
      failureShown.current = true;
      notifications.show({
        color: 'red',
        message: MESSAGES.updateCheckFailed,
        autoClose: TOAST_AUTO_CLOSE_MS,
      });
    }
    if (check.isSuccess) failureShown.current = false;
  }, [check.isError, check.isSuccess, check.error]);

  const latest = check.data?.status === 'update_available' ? check.data.version : null;
  const opened = latest !== null && dismissed !== latest;

  const update = () => {
    if (!latest) return;
    acknowledge.mutate(latest, {
      onSuccess: () => {
        notifications.show({
          color: 'fleet',
          message: MESSAGES.dashboardUpdated,
          autoClose: TOAST_AUTO_CLOSE_MS,
        });
        window.setTimeout(reload, RELOAD_DELAY_MS);
      },
      onError: () =>
        notifications.show({
          color: 'red',
          message: MESSAGES.updateFailed,
          autoClose: TOAST_AUTO_CLOSE_MS,
        }),
    });
  };

  return (
    <Modal
      opened={opened}
      onClose={() => setDismissed(latest)}
      title="Dashboard update available"
      centered
      closeOnClickOutside={!acknowledge.isPending}
    >
      <Stack gap="md" data-testid="dashboard-update-modal">
        <Text size="sm">
          A newer version of the dashboard is available. Reload to start using it; unsaved changes
          on this page will be lost.
        </Text>
        <Text size="xs" c="dimmed">
          This tab: {currentVersion}
          <br />
          Available: {latest}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button
            variant="default"
            onClick={() => setDismissed(latest)}
            disabled={acknowledge.isPending}
          >
            Later
          </Button>
          <Button
            leftSection={<IconRefresh size={16} aria-hidden="true" />}
            onClick={update}
            loading={acknowledge.isPending || acknowledge.isSuccess}
            data-autofocus
          >
            Update now
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
