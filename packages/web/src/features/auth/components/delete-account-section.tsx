import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { DeleteAccountModal } from './delete-account-modal';

/** The last section of /home/userinfo/: deleting one's own account, confirmed by a mailed code. */
export function DeleteAccountSection({ email }: { email: string }) {
  const [opened, setOpened] = useState(false);
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          Delete account
        </Title>
        <Group justify="space-between" align="center" gap="md" wrap="wrap">
          <Text size="sm" c="dimmed" style={{ flex: '1 1 320px' }}>
            Permanently delete your account. You are signed out everywhere and any devices you have
            claimed are released.
          </Text>
          <Button color="red" variant="outline" onClick={() => setOpened(true)}>
            Delete account
          </Button>
        </Group>
      </Stack>
      <DeleteAccountModal opened={opened} email={email} onClose={() => setOpened(false)} />
    </Paper>
  );
}
