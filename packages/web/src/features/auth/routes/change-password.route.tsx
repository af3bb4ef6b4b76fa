import { LABELS } from '@fleetdeck/contract';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { ChangePasswordForm } from '../components/change-password-form';
import { useSessionUser } from '../components/session-user';

/** /home/change-password/: User Settings with the Change password form. */
export function ChangePasswordRoute() {
  useDocumentTitle(`${LABELS.userSettings} · Fleetdeck`);
  const user = useSessionUser();
  return (
    <Stack gap="lg" maw={560}>
      <Stack gap={2}>
        <Title order={1} size="h2">
          {LABELS.userSettings}
        </Title>
        <Text c="dimmed" size="sm">
          Signed in as {user.user_name}
        </Text>
      </Stack>
      <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="md">
          <Title order={2} size="h4">
            Change password
          </Title>
          <Text size="sm" c="dimmed">
            Changing your password signs you out on your other devices.
          </Text>
          <ChangePasswordForm mode={user.deployment_mode} />
        </Stack>
      </Paper>
    </Stack>
  );
}
