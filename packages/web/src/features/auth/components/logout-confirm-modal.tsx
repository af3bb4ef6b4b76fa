import { LABELS, MESSAGES, TOAST_AUTO_CLOSE_MS } from '@fleetdeck/contract';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api-error';
import { LOGIN_PATH } from '../../../lib/paths';
import { markSignedOut } from '../../../lib/session';
import { useLogout } from '../api/logout.mutation';

/**
 * The logout confirmation (access §2): 'Yes, Logout' calls POST /v1/logout, toasts 'Logged out.'
 * and goes to /login. If the server cannot be reached the user stays signed in and is told so.
 * It lives in the header; what reads the router (`useNavigate` follows every navigation) sits in
 * the body, which exists only while the modal is open, so a list's filter change does not
 * re-render the closed modal (B8).
 */
export function LogoutConfirmModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const logout = useLogout();
  return (
    <Modal
      opened={opened}
      onClose={() => {
        if (!logout.isPending) onClose();
      }}
      title={LABELS.logout}
      centered
    >
      <LogoutConfirmBody logout={logout} onClose={onClose} />
    </Modal>
  );
}

function LogoutConfirmBody({
  logout,
  onClose,
}: {
  logout: ReturnType<typeof useLogout>;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const leave = async () => {
    markSignedOut();
    onClose();
    notifications.show({
      color: 'fleet',
      message: MESSAGES.loggedOut,
      autoClose: TOAST_AUTO_CLOSE_MS,
    });
    await queryClient.cancelQueries();
    await navigate(LOGIN_PATH, { replace: true });
    // Cleared after leaving, so the signed-in screens do not refetch on the way out.
    queryClient.clear();
  };

  const confirm = () => {
    logout.mutate(undefined, {
      onSuccess: () => void leave(),
      onError: (error) => {
        notifications.show({
          color: 'red',
          message: errorMessage(error),
          autoClose: TOAST_AUTO_CLOSE_MS,
        });
      },
    });
  };

  return (
    <Stack gap="lg">
      <Text>{MESSAGES.logoutConfirm}</Text>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} disabled={logout.isPending} data-autofocus>
          Cancel
        </Button>
        <Button color="red" onClick={confirm} loading={logout.isPending}>
          {MESSAGES.logoutConfirmButton}
        </Button>
      </Group>
    </Stack>
  );
}
